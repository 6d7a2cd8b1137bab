// Which tool-call parser each engine uses for a model family. vLLM and SGLang parse the same model output
// under different names (`hermes` / `qwen25`, `llama3_json` / `llama3`, `openai` / `gpt-oss`), so the serve
// builders take a family and look the engine's name up here; an engine's own name passes through as is.
// SGLang's names are the keys of FunctionCallParser.ToolCallParserEnum
// (sglang python/sglang/srt/function_call/function_call_parser.py); it has no `llama4` parser: Llama 4
// writes pythonic calls, which SGLang parses as `pythonic`.
import { HarnessAugmentError } from '../../harness/issues.js';

/** An inference engine the serve builders know. */
export type InferenceEngine = 'vllm' | 'sglang';

/**
 * Model families and the tool-call parser name each engine registers for them.
 *
 * @example
 * toolParsers.qwen.vllm // 'hermes'
 */
export const toolParsers = {
  /** Qwen2.5 / Qwen3 (Hermes-style `<tool_call>` JSON). */
  qwen: { vllm: 'hermes', sglang: 'qwen25' },
  'qwen3-coder': { vllm: 'qwen3_coder', sglang: 'qwen3_coder' },
  /** Llama 3.1 / 3.2 / 3.3 JSON tool calls. */
  llama3: { vllm: 'llama3_json', sglang: 'llama3' },
  /** Llama 4 (pythonic tool calls). */
  llama4: { vllm: 'llama4_pythonic', sglang: 'pythonic' },
  mistral: { vllm: 'mistral', sglang: 'mistral' },
  pythonic: { vllm: 'pythonic', sglang: 'pythonic' },
  'deepseek-v3': { vllm: 'deepseek_v3', sglang: 'deepseekv3' },
  'deepseek-v31': { vllm: 'deepseek_v31', sglang: 'deepseekv31' },
  'gpt-oss': { vllm: 'openai', sglang: 'gpt-oss' },
  'kimi-k2': { vllm: 'kimi_k2', sglang: 'kimi_k2' },
} as const satisfies Record<string, Record<InferenceEngine, string>>;

export type ToolParserFamily = keyof typeof toolParsers;

/**
 * The engine's parser name for a family, or the name itself when it is already one of the engine's.
 *
 * @example
 * toolParserFor('sglang', 'qwen') // 'qwen25'
 * toolParserFor('vllm', 'qwen') // 'hermes'
 * toolParserFor('vllm', 'hermes') // 'hermes'
 */
export function toolParserFor(engine: InferenceEngine, family: string): string {
  if (Object.hasOwn(toolParsers, family)) return toolParsers[family as ToolParserFamily][engine];
  const known = new Set<string>(Object.values(toolParsers).map((names) => names[engine]));
  if (known.has(family)) return family;
  const other: InferenceEngine = engine === 'vllm' ? 'sglang' : 'vllm';
  const otherFamily = Object.entries(toolParsers).find(([, names]) => names[other] === family);
  const hint = otherFamily
    ? ` ("${family}" is ${other}'s name; ${engine} calls it "${otherFamily[1][engine]}", family "${otherFamily[0]}")`
    : '';
  throw new HarnessAugmentError(
    `${engine}: unknown tool-call parser "${family}"${hint}; families: ${Object.keys(toolParsers).join(', ')}`,
    { kind: 'usage' },
  );
}
