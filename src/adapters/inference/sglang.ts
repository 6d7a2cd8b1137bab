// The SGLang serve command (`python3 -m sglang.launch_server`): model, tool-call parser, chat template,
// speculative decoding as `--speculative-*` flags, and `--enable-metrics` so that `/metrics` answers.
import { parseServeOptions, type ServeCommand, type ServeOptions, serverURLs } from './serve-options.js';
import { parseSpeculativeConfig, sglangSpeculativeArgs } from './speculative.js';
import { toolParserFor } from './tool-parsers.js';

/** SGLang's Prometheus names for what the latency report reads (older releases in the second slot). */
export const sglangMetricNames = {
  timeToFirstToken: ['sglang:time_to_first_token_seconds'],
  interToken: ['sglang:inter_token_latency_seconds', 'sglang:time_per_output_token_seconds'],
  endToEnd: ['sglang:e2e_request_latency_seconds'],
  /** A gauge: mean accepted tokens per verification step. */
  specAcceptLength: ['sglang:spec_accept_length'],
} as const;

/**
 * Builds the SGLang launch command for a model (default port 30000).
 *
 * @example
 * const serve = buildSglangServeCommand({ model: 'Qwen/Qwen3-0.6B', toolParser: 'qwen' });
 * serve.args.includes('--enable-metrics') // true
 */
export function buildSglangServeCommand(options: ServeOptions): ServeCommand {
  const parsed = parseServeOptions('sglang', options);
  const port = parsed.port ?? 30000;
  const args = ['-m', 'sglang.launch_server', '--model-path', parsed.model, '--host', parsed.host];
  args.push('--port', String(port));
  if (parsed.servedModelName) args.push('--served-model-name', parsed.servedModelName);
  const parser =
    parsed.toolParserName ?? (parsed.toolParser ? toolParserFor('sglang', parsed.toolParser) : undefined);
  if (parser) args.push('--tool-call-parser', parser);
  if (parsed.chatTemplate) args.push('--chat-template', parsed.chatTemplate);
  if (parsed.reasoningParser) args.push('--reasoning-parser', parsed.reasoningParser);
  if (parsed.speculative !== undefined)
    args.push(
      ...sglangSpeculativeArgs(parseSpeculativeConfig(parsed.speculative, 'sglang speculative config')),
    );
  if (parsed.maxModelLength) args.push('--context-length', String(parsed.maxModelLength));
  if (parsed.tensorParallelSize) args.push('--tp-size', String(parsed.tensorParallelSize));
  if (parsed.gpuMemoryShare) args.push('--mem-fraction-static', String(parsed.gpuMemoryShare));
  args.push('--enable-metrics', ...parsed.extraArgs);
  return {
    engine: 'sglang',
    command: 'python3',
    args,
    ...serverURLs(parsed.host, port),
    servedModel: parsed.servedModelName ?? parsed.model,
  };
}
