// One TRL SFT row per example: the conversational "language modeling" shape with a `tools` column, as
// TRL's SFTTrainer reads it: {"messages": [...], "tools": "<JSON text of the tools array>"}.
//
// `tools` is JSON text, not a list: Arrow (which `datasets` loads JSONL into) merges the struct types of a
// list column across rows, so tools with different parameter schemas would come back padded with nulls.
// SFTTrainer decodes the text itself (`json.loads(tools) if isinstance(tools, str)` in its tokenizer step).
import { HarnessAugmentError, type SafeResult } from '../../harness/issues.js';
import type { ToolCall } from '../../trajectory/schema.js';
import { callKey, type ExportedMessage, prepareExample, toolResultNames } from './export-messages.js';
import type { TrainingExample } from './spec.js';

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
}

/** A tool call whose arguments are an object (the default) or the raw JSON text. */
export interface TrlToolCall extends Omit<ToolCall, 'function'> {
  function: { name: string; arguments: unknown };
}

export type TrlMessage =
  | Exclude<ExportedMessage, { role: 'assistant' } | { role: 'tool' }>
  | { role: 'assistant'; content?: string | null; name?: string; tool_calls?: TrlToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string; name?: string };

export interface TrlRow {
  messages: TrlMessage[];
  /** The Chat Completions tools array as JSON text. */
  tools: string;
}

/**
 * Converts an example to a TRL row; the issues say why when it cannot.
 *
 * @example
 * const result = safeToTrlRow(example);
 * if (result.success) JSON.parse(result.data.tools) // the offered tools
 */
export function safeToTrlRow(example: TrainingExample, options: TrlRowOptions = {}): SafeResult<TrlRow> {
  const prepared = prepareExample(example);
  if (!prepared.success) return prepared;
  const { messages, tools, parsedArguments } = prepared.data;
  const asObject = (options.argumentsEncoding ?? 'object') === 'object';
  const names = options.toolNames === false ? new Map<number, string>() : toolResultNames(messages);
  const converted = messages.map((message, messageIndex): TrlMessage => {
    if (message.role === 'assistant' && message.tool_calls) {
      // No `content: null`: TRL ≥ 1.0 passes it to the template as None, and templates such as gpt-oss's
      // and LFM2.5's test `'content' in message` and then fail on None. A missing key reads as undefined.
      const { content, ...rest } = message;
      return {
        ...rest,
        ...(content === null ? {} : { content }),
        tool_calls: message.tool_calls.map((call, callIndex) => ({
          ...call,
          function: {
            name: call.function.name,
            arguments: asObject
              ? parsedArguments.get(callKey(messageIndex, callIndex))
              : call.function.arguments,
          },
        })),
      };
    }
    const name = names.get(messageIndex);
    if (message.role === 'tool' && name !== undefined) return { ...message, name };
    return message;
  });
  const messagesOut = options.parallelCalls === 'split' ? splitParallelCalls(converted) : converted;
  return { success: true, data: { messages: messagesOut, tools: JSON.stringify(tools) } };
}

/**
 * Rewrites each assistant message with several tool calls as one message per call, each followed by the
 * tool messages that answer it (matched on `tool_call_id`).
 *
 * @example
 * splitParallelCalls([{ role: 'assistant', tool_calls: [a, b] }, resultA, resultB]) // [callA, resultA, callB, resultB]
 */
export function splitParallelCalls(messages: readonly TrlMessage[]): TrlMessage[] {
  const out: TrlMessage[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as TrlMessage;
    const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
    if (message.role !== 'assistant' || calls.length < 2) {
      out.push(message);
      continue;
    }
    let end = index + 1;
    while (end < messages.length && messages[end]?.role === 'tool') end++;
    const results = messages.slice(index + 1, end) as Array<Extract<TrlMessage, { role: 'tool' }>>;
    const answered = (id: string) => results.filter((result) => result.tool_call_id === id);
    const complete =
      results.every((result) => calls.some((call) => call.id === result.tool_call_id)) &&
      calls.every((call) => answered(call.id).length > 0);
    if (!complete) {
      out.push(message);
      continue;
    }
    const { tool_calls: _calls, content, ...rest } = message;
    for (const [callIndex, call] of calls.entries()) {
      out.push({
        ...rest,
        ...(callIndex === 0 && content !== undefined ? { content } : {}),
        tool_calls: [call],
      });
      out.push(...answered(call.id));
    }
    index = end - 1;
  }
  return out;
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
