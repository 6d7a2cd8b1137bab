// What every trainer format shares: the example is checked against the trajectory schema, hook markers
// (`hsa`) are dropped, message order and content are kept, and tool-call arguments must be JSON text,
// because every trainer (or the OpenAI upload check) parses them.
import { z } from 'zod';
import type { Issue, SafeResult } from '../../harness/issues.js';
import { fromZodIssues } from '../../harness/parse-harness.js';
import { parseJsonText } from '../../harness/parse-json-text.js';
import { freezeWhole, isFrozenWhole } from '../../pipeline/frozen-data.js';
import { MessageSchema, OfferedToolSchema, type ToolCall } from '../../trajectory/schema.js';
import type { TrainingExample } from './spec.js';

/** The training-example shape, checked before any conversion so that bad input becomes issues. */
export const TrainingExampleSchema = z.strictObject({
  id: z.string().min(1),
  messages: z.array(MessageSchema).min(1),
  tools: z.array(OfferedToolSchema),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/** A message as exported: the Chat Completions fields only, in a fixed key order, no `hsa` marker. */
export type ExportedMessage =
  | { role: 'system'; content: string; name?: string }
  | { role: 'user'; content: string; name?: string }
  | { role: 'assistant'; content: string | null; name?: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string };

/** A checked example whose hook markers are gone and whose tool-call arguments all parse. */
export interface PreparedExample {
  id: string;
  messages: ExportedMessage[];
  tools: TrainingExample['tools'];
  /** Parsed arguments by message index and call index, for the formats that want objects. */
  parsedArguments: ReadonlyMap<string, unknown>;
  /**
   * Indexes of the assistant messages a hook rejected (`hsa.event: hook_rejected`), kept whole so the model
   * learns to recover: formats that can mark a message as not trained on (OpenAI `weight: 0`, Axolotl
   * `training: false`) mark these.
   */
  rejected: ReadonlySet<number>;
}

/**
 * The key of a tool call in `PreparedExample.parsedArguments`.
 *
 * @example
 * prepared.parsedArguments.get(callKey(3, 0)) // { link_id: 3 }
 */
export function callKey(messageIndex: number, callIndex: number): string {
  return `${messageIndex}/${callIndex}`;
}

function exportMessage(message: TrainingExample['messages'][number]): ExportedMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return {
        role: message.role,
        content: message.content,
        ...(message.name === undefined ? {} : { name: message.name }),
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.name === undefined ? {} : { name: message.name }),
        ...(message.tool_calls === undefined
          ? {}
          : {
              tool_calls: message.tool_calls.map((call) => ({
                id: call.id,
                type: call.type,
                function: { name: call.function.name, arguments: call.function.arguments },
              })),
            }),
      };
    case 'tool':
      return { role: 'tool', content: message.content, tool_call_id: message.tool_call_id };
  }
}

/**
 * The prepared form of each example frozen whole (`freezeWhole`), by identity: the export stage hands one
 * example to every sink, and frozen data cannot change, so each is checked once for all of them. An example
 * that is not frozen whole is checked on every call.
 */
// Pure function of content across runs: the prepared form of an example frozen whole.
const preparedOnce = new WeakMap<object, SafeResult<PreparedExample>>();

/**
 * Checks an example and strips its hook markers; every problem comes back as an issue. For an example
 * frozen whole (`freezeWhole`) the answer is computed once and shared, itself frozen.
 *
 * @example
 * const prepared = prepareExample(example);
 * if (prepared.success) prepared.data.messages.every((message) => !('hsa' in message)) // true
 */
export function prepareExample(example: unknown): SafeResult<PreparedExample> {
  if (!isFrozenWhole(example)) return checkAndPrepare(example);
  const known = preparedOnce.get(example as object);
  if (known) return known;
  const prepared = checkAndPrepare(example);
  // Shared by every sink: frozen too, so that no converter can change what the next one reads.
  if (prepared.success) {
    freezeWhole(prepared.data.messages);
    freezeWhole(prepared.data.tools);
    for (const value of prepared.data.parsedArguments.values()) freezeWhole(value);
  } else freezeWhole(prepared.issues);
  preparedOnce.set(example as object, prepared);
  return prepared;
}

function checkAndPrepare(example: unknown): SafeResult<PreparedExample> {
  const parsed = TrainingExampleSchema.safeParse(example);
  if (!parsed.success) {
    return { success: false, issues: fromZodIssues(parsed.error.issues).map(asInvalidExample) };
  }
  const issues: Issue[] = [];
  const parsedArguments = new Map<string, unknown>();
  parsed.data.messages.forEach((message, messageIndex) => {
    if (message.role !== 'assistant') return;
    message.tool_calls?.forEach((call, callIndex) => {
      // The project's scanner's rules and wording, not JSON.parse's message: the wording must not change with Node.
      const parsedCall = parseJsonText(call.function.arguments);
      if (!parsedCall.ok) {
        const syntax = parsedCall.error;
        issues.push({
          code: 'invalid_arguments',
          path: ['messages', messageIndex, 'tool_calls', callIndex, 'function', 'arguments'],
          message: `the arguments of "${call.function.name}" are not JSON text: ${syntax.message} at offset ${syntax.offset}`,
        });
      } else {
        parsedArguments.set(callKey(messageIndex, callIndex), parsedCall.value);
      }
    });
  });
  if (issues.length > 0) return { success: false, issues };
  return {
    success: true,
    data: {
      id: parsed.data.id,
      messages: parsed.data.messages.map(exportMessage),
      tools: parsed.data.tools,
      parsedArguments,
      rejected: new Set(
        parsed.data.messages.flatMap((message, index) =>
          message.role === 'assistant' && message.hsa?.event === 'hook_rejected' ? [index] : [],
        ),
      ),
    },
  };
}

function asInvalidExample(issue: Issue): Issue {
  return { ...issue, code: 'invalid_example', message: `${issue.message} (${issue.code})` };
}

/** The JSON text of each prepared example's tools, for tools frozen whole (a shared example's). */
// Pure function of content across runs: the tools JSON of an example frozen whole.
const toolsTextOnce = new WeakMap<object, string>();

/**
 * The offered tools as JSON text, the `tools` column of the TRL, ShareGPT and veRL rows: written once for
 * all the sinks that share an example (its prepared tools are frozen whole), else each time.
 *
 * @example
 * toolsJsonText(prepared.data.tools) // '[{"type":"function","function":{"name":"get_price",…}}]'
 */
export function toolsJsonText(tools: PreparedExample['tools']): string {
  if (!isFrozenWhole(tools)) return JSON.stringify(tools);
  let text = toolsTextOnce.get(tools);
  if (text === undefined) {
    text = JSON.stringify(tools);
    toolsTextOnce.set(tools, text);
  }
  return text;
}

/**
 * The function name each tool message answers, found through its `tool_call_id`; absent when no earlier
 * assistant message made that call.
 *
 * @example
 * toolResultNames(messages).get(2) // 'get_price_and_coupons' for the tool message at index 2
 */
export function toolResultNames(messages: readonly ExportedMessage[]): Map<number, string> {
  const callNames = new Map<string, string>();
  const names = new Map<number, string>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) {
        if (!callNames.has(call.id)) callNames.set(call.id, call.function.name);
      }
    } else if (message.role === 'tool') {
      const name = callNames.get(message.tool_call_id);
      if (name !== undefined) names.set(index, name);
    }
  });
  return names;
}

/**
 * The example id to report a reject under, whatever the input looked like.
 *
 * @example
 * rejectId({ id: 'ls-0001' }) // 'ls-0001'
 */
export function rejectId(example: unknown): string {
  const id = (example as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id !== '' ? id : '(no id)';
}
