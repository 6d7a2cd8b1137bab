// The vLLM serve command (`vllm serve`): model, tool-call parser with auto tool choice, chat template,
// speculative decoding as `--speculative-config` JSON, and the metric names its `/metrics` endpoint uses
// (always on in vLLM's OpenAI server).
import { parseServeOptions, type ServeCommand, type ServeOptions, serverURLs } from './serve-options.js';
import { parseSpeculativeConfig, vllmSpeculativeJson } from './speculative.js';
import { toolParserFor } from './tool-parsers.js';

/** vLLM's Prometheus names for what the latency report reads (older releases in the second slot). */
export const vllmMetricNames = {
  timeToFirstToken: ['vllm:time_to_first_token_seconds'],
  interToken: ['vllm:inter_token_latency_seconds', 'vllm:time_per_output_token_seconds'],
  endToEnd: ['vllm:e2e_request_latency_seconds'],
  specDrafts: ['vllm:spec_decode_num_drafts_total', 'vllm:spec_decode_num_drafts'],
  specDraftTokens: ['vllm:spec_decode_num_draft_tokens_total', 'vllm:spec_decode_num_draft_tokens'],
  specAcceptedTokens: ['vllm:spec_decode_num_accepted_tokens_total', 'vllm:spec_decode_num_accepted_tokens'],
} as const;

/**
 * Builds the `vllm serve` command for a model (default port 8000).
 *
 * @example
 * const serve = buildVllmServeCommand({ model: 'Qwen/Qwen3-0.6B', toolParser: 'qwen', speculative: { method: 'ngram', num_speculative_tokens: 4 } });
 * spawn(serve.command, serve.args);
 */
export function buildVllmServeCommand(options: ServeOptions): ServeCommand {
  const parsed = parseServeOptions('vllm', options);
  const port = parsed.port ?? 8000;
  const args = ['serve', parsed.model, '--host', parsed.host, '--port', String(port)];
  if (parsed.servedModelName) args.push('--served-model-name', parsed.servedModelName);
  const parser =
    parsed.toolParserName ?? (parsed.toolParser ? toolParserFor('vllm', parsed.toolParser) : undefined);
  if (parser) args.push('--enable-auto-tool-choice', '--tool-call-parser', parser);
  if (parsed.chatTemplate) args.push('--chat-template', parsed.chatTemplate);
  if (parsed.reasoningParser) args.push('--reasoning-parser', parsed.reasoningParser);
  if (parsed.speculative !== undefined)
    args.push(
      '--speculative-config',
      vllmSpeculativeJson(parseSpeculativeConfig(parsed.speculative, 'vllm speculative config')),
    );
  if (parsed.maxModelLength) args.push('--max-model-len', String(parsed.maxModelLength));
  if (parsed.tensorParallelSize) args.push('--tensor-parallel-size', String(parsed.tensorParallelSize));
  if (parsed.gpuMemoryShare) args.push('--gpu-memory-utilization', String(parsed.gpuMemoryShare));
  args.push(...parsed.extraArgs);
  return {
    engine: 'vllm',
    command: 'vllm',
    args,
    ...serverURLs(parsed.host, port),
    servedModel: parsed.servedModelName ?? parsed.model,
  };
}
