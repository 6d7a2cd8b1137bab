// One TRL SFT row per example: the conversational "language modeling" shape with a `tools` column, as
// TRL's SFTTrainer reads it: {"messages": [...], "tools": "<JSON text of the tools array>"}.
//
// `tools` is JSON text, not a list: Arrow (which `datasets` loads JSONL into) merges the struct types of a
// list column across rows, so tools with different parameter schemas would come back padded with nulls.
// SFTTrainer decodes the text itself (`json.loads(tools) if isinstance(tools, str)` in its tokenizer step).
import { HarnessAugmentError, type SafeResult } from '../../harness/issues.js';
import type { ToolCall } from '../../trajectory/schema.js';
import { callIdsFor } from './call-ids.js';
import {
  callKey,
  type ExportedMessage,
  prepareExample,
  toolResultNames,
  toolsJsonText,
} from './export-messages.js';
import { alternationIssue } from './exporter-options.js';
import { lfm2ToolCallText } from './pythonic-calls.js';
import { splitParallelCalls } from './split-parallel-calls.js';

export { splitParallelCalls } from './split-parallel-calls.js';

import type { TrainingExample } from './spec.js';

/** Options of `toTrlRow` and the other TRL converters, and of the `trl` exporter that writes their rows. */
export interface TrlRowOptions {
  /**
   * How tool-call `arguments` are written. `object` (default) follows TRL's dataset docs, where
   * `arguments` is a dict: the Qwen2.5 and Llama-3.x chat templates render it with `tojson`, which would
   * quote a string a second time. `string` keeps the raw JSON text, for templates that print a string
   * as it is (Qwen3's does both) and for datasets whose argument types clash across rows.
   */
  argumentsEncoding?: 'object' | 'string';
  /** Adds the called function's `name` to each tool message, as TRL's docs show (default true). */
  toolNames?: boolean;
  /**
   * `keep` (default) writes parallel calls as one assistant message with several `tool_calls`. `split`
   * writes each call as its own assistant message followed by its result, for families whose template
   * allows one call per message (Llama 3.x raises "This model only supports single tool-calls at once!",
   * gpt-oss calls one function per message): the calls keep their order, the message's text goes with
   * the first. A message whose results do not all follow it is kept whole.
   */
  parallelCalls?: 'keep' | 'split';
  /**
   * The `content` of an assistant message that makes tool calls and says nothing: `empty` (default) writes
   * `""`, which every tool-calling template TRL ships accepts (DeepSeek-V3's concatenates `content` and
   * fails on a missing key; gpt-oss's and LFM2.5's test `'content' in message` and then fail on None);
   * `null` writes `null`, for DeepSeek-R1-distill, whose template renders the calls only when `content is
   * none`; `omit` leaves the key out.
   */
  toolCallContent?: 'empty' | 'null' | 'omit';
  /** `mistral` rewrites call ids to 9 alphanumeric characters (Mistral's tokenizers refuse others); default `keep`. */
  callIds?: 'keep' | 'mistral';
  /**
   * `lfm2` also writes each message's calls into its `content` as LFM2 (v1) expects them, since its
   * template never reads `tool_calls`: `<|tool_call_start|>[name(key=value, …)]<|tool_call_end|>`.
   */
  toolCallText?: 'none' | 'lfm2';
  /**
   * `messages` (default) writes one conversational row per example, `{"messages", "tools"}`, for
   * `assistant_only_loss=True` with a template TRL has a training template for. `prompt-completion`
   * writes one row per assistant message, `{"prompt": [...the messages before it], "completion": [it],
   * "tools"}`: TRL's completion-only loss then trains exactly that message, for families TRL has no
   * training template for (Llama 3.1/3.2, Gemma 4, Mistral), whose `assistant_only_loss=True` raises. A
   * hook-rejected attempt is never a completion (it stays in the prompts after it).
   */
  layout?: 'messages' | 'prompt-completion';
  /**
   * The chat templates the rows are for (TRL's template names, `mistral`): the exporter refuses a family
   * the other options cannot carry tool calls to, and an example with two assistant messages in a row is
   * rejected when a declared family's template refuses that (Mistral).
   */
  families?: readonly string[];
}

/** A tool call whose arguments are an object (the default) or the raw JSON text. */
export interface TrlToolCall extends Omit<ToolCall, 'function'> {
  function: { name: string; arguments: unknown };
}

/**
 * A message of a TRL row: an exported message whose assistant turns carry `TrlToolCall`s and a `content`
 * as `toolCallContent` says, and whose tool results may name their function.
 */
export type TrlMessage =
  | Exclude<ExportedMessage, { role: 'assistant' } | { role: 'tool' }>
  | { role: 'assistant'; content?: string | null; name?: string; tool_calls?: TrlToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string; name?: string };

/** One line of the TRL conversational data file (the `messages` layout), as `toTrlRow` returns it. */
export interface TrlRow {
  messages: TrlMessage[];
  /** The Chat Completions tools array as JSON text. */
  tools: string;
}

/** One trained assistant message with the conversation before it (TRL's conversational prompt-completion type). */
export interface TrlPromptCompletionRow {
  prompt: TrlMessage[];
  completion: TrlMessage[];
  /** The Chat Completions tools array as JSON text. */
  tools: string;
}

/** Marks a converted assistant message a hook rejected; object spread carries it, JSON never writes it. */
const untrained = Symbol('hsa.untrained');

/**
 * Converts an example to a TRL row; the issues say why when it cannot.
 *
 * @example
 * const result = safeToTrlRow(example);
 * if (result.success) JSON.parse(result.data.tools) // the offered tools
 */
export function safeToTrlRow(example: TrainingExample, options: TrlRowOptions = {}): SafeResult<TrlRow> {
  const converted = convertTrl(example, options);
  return converted.success ? { success: true, data: converted.data.row } : converted;
}

/** The row, and which of its assistant messages a hook rejected (by identity). */
function convertTrl(
  example: TrainingExample,
  options: TrlRowOptions,
): SafeResult<{ row: TrlRow; rejected: ReadonlySet<TrlMessage> }> {
  const prepared = prepareExample(example);
  if (!prepared.success) return prepared;
  const { messages, tools, parsedArguments } = prepared.data;
  const alternation = alternationIssue(options.families, messages);
  if (alternation) return { success: false, issues: [alternation] };
  const asObject = (options.argumentsEncoding ?? 'object') === 'object';
  const names = options.toolNames === false ? new Map<number, string>() : toolResultNames(messages);
  const idOf = callIdsFor(messages, options.callIds);
  const toolCallContent = options.toolCallContent ?? 'empty';
  // What a call-only assistant message carries as `content` (see `toolCallContent`).
  const silent: { content?: string | null } =
    toolCallContent === 'empty' ? { content: '' } : toolCallContent === 'null' ? { content: null } : {};
  const converted = messages.map((message, messageIndex): TrlMessage => {
    if (message.role === 'assistant' && message.tool_calls) {
      const { content, ...rest } = message;
      const calls = message.tool_calls.map((call, callIndex) => ({
        ...call,
        id: idOf(call.id),
        function: {
          name: call.function.name,
          arguments: asObject
            ? parsedArguments.get(callKey(messageIndex, callIndex))
            : call.function.arguments,
        },
      }));
      const callText =
        options.toolCallText === 'lfm2'
          ? lfm2ToolCallText(
              message.tool_calls.map((call, callIndex) => ({
                name: call.function.name,
                arguments: parsedArguments.get(callKey(messageIndex, callIndex)),
              })),
            )
          : undefined;
      const text = content === null || content === '' ? undefined : content;
      const written =
        callText !== undefined
          ? { content: `${text ?? ''}${callText}` }
          : text !== undefined
            ? { content: text }
            : silent;
      const out = { ...rest, ...written, tool_calls: calls };
      return prepared.data.rejected.has(messageIndex) ? ({ ...out, [untrained]: true } as TrlMessage) : out;
    }
    const name = names.get(messageIndex);
    if (message.role === 'tool') {
      const answered = { ...message, tool_call_id: idOf(message.tool_call_id) };
      return name !== undefined ? { ...answered, name } : answered;
    }
    if (message.role === 'assistant' && prepared.data.rejected.has(messageIndex))
      return { ...message, [untrained]: true } as TrlMessage;
    return message;
  });
  const split = options.parallelCalls === 'split' ? splitParallelCalls(converted, silent) : converted;
  // The marker followed each rejected message through the split; the row's messages go out without it.
  const rejected = new Set<TrlMessage>();
  const messagesOut = split.map((message) => {
    if (!(untrained in message)) return message;
    const { [untrained]: _marker, ...clean } = message as TrlMessage & { [untrained]?: true };
    rejected.add(clean as TrlMessage);
    return clean as TrlMessage;
  });
  return { success: true, data: { row: { messages: messagesOut, tools: toolsJsonText(tools) }, rejected } };
}

/**
 * The rows an example becomes in the `prompt-completion` layout: one per assistant message a hook did not
 * reject, with every message before it as the prompt. An example with no such message is rejected.
 *
 * @example
 * safeToTrlPromptCompletionRows(example).data // [{ prompt: [system, user], completion: [call], tools }, …]
 */
export function safeToTrlPromptCompletionRows(
  example: TrainingExample,
  options: TrlRowOptions = {},
): SafeResult<TrlPromptCompletionRow[]> {
  const converted = convertTrl(example, options);
  if (!converted.success) return converted;
  const { row, rejected } = converted.data;
  const { messages, tools } = row;
  const rows: TrlPromptCompletionRow[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant' || rejected.has(message)) continue;
    rows.push({ prompt: messages.slice(0, index), completion: [message], tools });
  }
  if (rows.length === 0)
    return {
      success: false,
      issues: [
        {
          code: 'nothing_to_train',
          path: ['messages'],
          message: 'no assistant message to train on (every one is a hook-rejected attempt)',
        },
      ],
    };
  return { success: true, data: rows };
}

/**
 * The lines the `trl` exporter writes for an example: one row in the `messages` layout, one per trained
 * assistant message in the `prompt-completion` layout.
 *
 * @example
 * safeToTrlLines(example, { layout: 'prompt-completion' }).data.length // the example's assistant messages
 */
export function safeToTrlLines(
  example: TrainingExample,
  options: TrlRowOptions = {},
): SafeResult<Array<TrlRow | TrlPromptCompletionRow>> {
  if (options.layout === 'prompt-completion') return safeToTrlPromptCompletionRows(example, options);
  const row = safeToTrlRow(example, options);
  return row.success ? { success: true, data: [row.data] } : row;
}

/**
 * Converts an example to a TRL row; throws a HarnessAugmentError with the issues when it cannot.
 *
 * @example
 * toTrlRow(example, { argumentsEncoding: 'string' }).messages[2].tool_calls[0].function.arguments // '{"link_id":3}'
 */
export function toTrlRow(example: TrainingExample, options: TrlRowOptions = {}): TrlRow {
  const result = safeToTrlRow(example, options);
  if (!result.success)
    throw new HarnessAugmentError(`trl: cannot convert "${example.id}"`, { issues: result.issues });
  return result.data;
}
