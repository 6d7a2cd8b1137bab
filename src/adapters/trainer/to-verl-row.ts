// One veRL multi-turn SFT row per example, as it goes into the parquet file: `id`, `messages` (a list of
// structs with one fixed set of fields, absent ones null) and `tools` as JSON text.
//
// veRL's MultiTurnSFTDataset reads `messages` and `tools` with pandas and hands them to the chat template
// as they are. Messages fit one parquet schema; tools do not: their JSON Schemas differ from tool to tool,
// and one struct type for all of them would pad each with the others' fields as nulls, which the template
// would then print. So `tools` is JSON text and tool-call `arguments` stay the raw JSON strings, and the
// companion `hsa_verl_dataset.py` decodes both just before the template sees them.
import { HarnessAugmentError, type SafeResult } from '../../harness/issues.js';
import type { ToolCall } from '../../trajectory/schema.js';
import { prepareExample, toolResultNames, toolsJsonText } from './export-messages.js';
import type { TrainingExample } from './spec.js';
import { splitParallelCalls } from './split-parallel-calls.js';

/** Options of `toVerlRow` and `safeToVerlRow`, and of the `verl` exporter that writes their rows. */
export interface VerlRowOptions {
  /** Written as the `enable_thinking` column (veRL passes it to the chat template) when set. */
  enableThinking?: boolean;
  /** Puts the called function's name into each tool message's `name` (default true). */
  toolNames?: boolean;
  /**
   * `split` (default) writes parallel calls as one assistant message per call, each followed by its
   * result: veRL's MultiTurnSFTDataset renders every message on its own and asserts that the pieces equal
   * the whole conversation, which fails where a template renders consecutive tool results as one block
   * (Qwen2.5/3) or allows one call per message (Llama 3.x). `keep` leaves them as they are.
   */
  parallelCalls?: 'keep' | 'split';
}

/** A message with every field of the parquet struct present, null where the message has none. */
export interface VerlMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  name: string | null;
  tool_calls: ToolCall[] | null;
  tool_call_id: string | null;
}

/** One row of the veRL parquet file, keyed by the example's id, as `toVerlRow` returns it. */
export interface VerlRow {
  id: string;
  messages: VerlMessage[];
  /** The Chat Completions tools array as JSON text. */
  tools: string;
  enable_thinking?: boolean;
}

/**
 * Converts an example to a veRL parquet row; the issues say why when it cannot.
 *
 * @example
 * const result = safeToVerlRow(example);
 * if (result.success) result.data.messages[0].tool_calls // null
 */
export function safeToVerlRow(example: TrainingExample, options: VerlRowOptions = {}): SafeResult<VerlRow> {
  const prepared = prepareExample(example);
  if (!prepared.success) return prepared;
  const { id, messages, tools } = prepared.data;
  const names = options.toolNames === false ? new Map<number, string>() : toolResultNames(messages);
  return {
    success: true,
    data: {
      id,
      messages: ((options.parallelCalls ?? 'split') === 'split' ? splitParallelCalls : keepAll)(
        messages.map(
          (message, index): VerlMessage => ({
            role: message.role,
            content: message.content,
            name: message.role === 'tool' ? (names.get(index) ?? null) : (message.name ?? null),
            tool_calls: message.role === 'assistant' ? (message.tool_calls ?? null) : null,
            tool_call_id: message.role === 'tool' ? message.tool_call_id : null,
          }),
        ),
        { content: null },
      ),
      tools: toolsJsonText(tools),
      ...(options.enableThinking === undefined ? {} : { enable_thinking: options.enableThinking }),
    },
  };
}

const keepAll = (messages: VerlMessage[]) => messages;

/**
 * Converts an example to a veRL row; throws a HarnessAugmentError with the issues when it cannot.
 *
 * @example
 * toVerlRow(example, { enableThinking: false }).enable_thinking // false
 */
export function toVerlRow(example: TrainingExample, options: VerlRowOptions = {}): VerlRow {
  const result = safeToVerlRow(example, options);
  if (!result.success)
    throw new HarnessAugmentError(`verl: cannot convert "${example.id}"`, { issues: result.issues });
  return result.data;
}
