// One Axolotl `chat_template` row per example: {"messages": [...], "tools": [...]}.
//
// Axolotl's chat_template strategy wants `tools` as a list of dicts (a JSON string is refused with
// "Unknown tools format"), but it decodes a tool's `function.parameters` when that is JSON text and
// decodes tool-call `arguments` strings itself. Writing both as JSON text keeps every row the same Arrow
// type, so tools and arguments that differ from row to row are not padded with nulls when loaded.
import { HarnessAugmentError, type SafeResult } from '../../harness/issues.js';
import { callIdsFor } from './call-ids.js';
import { type ExportedMessage, prepareExample, toolResultNames } from './export-messages.js';
import { alternationIssue } from './exporter-options.js';
import type { TrainingExample } from './spec.js';
import { splitParallelCalls } from './split-parallel-calls.js';

/** Options of `toAxolotlRow` and `safeToAxolotlRow`, and of the `axolotl` exporter that writes their rows. */
export interface AxolotlRowOptions {
  /** Adds the called function's `name` to each tool message, for templates that render it (default true). */
  toolNames?: boolean;
  /**
   * `split` writes each of a message's parallel calls as its own assistant message followed by its result,
   * as the `trl` option does: Llama 3.1's template raises on several calls in one message. Default `keep`.
   */
  parallelCalls?: 'keep' | 'split';
  /** `mistral` rewrites call ids to 9 alphanumeric characters (Mistral's templates refuse others); default `keep`. */
  callIds?: 'keep' | 'mistral';
  /** The chat templates the rows are for; see the `trl` option of the same name. */
  families?: readonly string[];
}

/** A tool as Axolotl reads it: the Chat Completions shape with `parameters` as JSON text. */
export interface AxolotlTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: string; strict?: boolean };
}

/**
 * A message of an Axolotl row: an exported message whose assistant turns drop a null `content` and carry
 * `training: false` when they were a hook-rejected attempt, and whose tool results may name their function.
 */
export type AxolotlMessage =
  | Exclude<ExportedMessage, { role: 'tool' }>
  | Omit<Extract<ExportedMessage, { role: 'assistant' }>, 'content'>
  | (Omit<Extract<ExportedMessage, { role: 'assistant' }>, 'content'> & { training: false })
  | (Extract<ExportedMessage, { role: 'assistant' }> & { training: false })
  | { role: 'tool'; content: string; tool_call_id: string; name?: string };

/** One line of the Axolotl `chat_template` data file, as `toAxolotlRow` returns it. */
export interface AxolotlRow {
  messages: AxolotlMessage[];
  tools: AxolotlTool[];
}

/**
 * Converts an example to an Axolotl chat_template row; the issues say why when it cannot.
 *
 * @example
 * const result = safeToAxolotlRow(example);
 * if (result.success) JSON.parse(result.data.tools[0].function.parameters ?? '{}').type // 'object'
 */
export function safeToAxolotlRow(
  example: TrainingExample,
  options: AxolotlRowOptions = {},
): SafeResult<AxolotlRow> {
  const prepared = prepareExample(example);
  if (!prepared.success) return prepared;
  const { messages, tools, rejected } = prepared.data;
  const alternation = alternationIssue(options.families, messages);
  if (alternation) return { success: false, issues: [alternation] };
  const names = options.toolNames === false ? new Map<number, string>() : toolResultNames(messages);
  const idOf = callIdsFor(messages, options.callIds);
  const converted = messages.map((message, index): AxolotlMessage => {
    // A hook-rejected attempt: in the context, not in the loss (`message_field_training: training`).
    if (message.role === 'assistant') {
      // As for TRL: no `content: null` for the template to trip over (gpt-oss, LFM2.5).
      const { content, ...rest } = message;
      const kept = content === null ? rest : message;
      const withIds = kept.tool_calls
        ? { ...kept, tool_calls: kept.tool_calls.map((call) => ({ ...call, id: idOf(call.id) })) }
        : kept;
      return rejected.has(index) ? { ...withIds, training: false } : (withIds as AxolotlMessage);
    }
    const name = names.get(index);
    const answered =
      message.role === 'tool' ? { ...message, tool_call_id: idOf(message.tool_call_id) } : message;
    return message.role === 'tool' && name !== undefined ? { ...answered, name } : answered;
  });
  return {
    success: true,
    data: {
      // A split-off call keeps `training: false` when its message was a rejected attempt.
      messages: options.parallelCalls === 'split' ? splitParallelCalls(converted) : converted,
      tools: tools.map((tool) => ({
        type: 'function',
        function: {
          name: tool.function.name,
          ...(tool.function.description === undefined ? {} : { description: tool.function.description }),
          ...(tool.function.parameters === undefined
            ? {}
            : { parameters: JSON.stringify(tool.function.parameters) }),
          ...(tool.function.strict === undefined ? {} : { strict: tool.function.strict }),
        },
      })),
    },
  };
}

/**
 * Converts an example to an Axolotl row; throws a HarnessAugmentError with the issues when it cannot.
 *
 * @example
 * toAxolotlRow(example).messages.some((message) => 'hsa' in message) // false
 */
export function toAxolotlRow(example: TrainingExample, options: AxolotlRowOptions = {}): AxolotlRow {
  const result = safeToAxolotlRow(example, options);
  if (!result.success) {
    throw new HarnessAugmentError(`axolotl: cannot convert "${example.id}"`, { issues: result.issues });
  }
  return result.data;
}
