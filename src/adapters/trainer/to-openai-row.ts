// One OpenAI fine-tuning row per example (the supervised chat format, `FineTuneChatRequestInput`):
// {"messages": [...], "tools": [...], "parallel_tool_calls"?: bool}. Arguments stay the raw JSON strings,
// `tools` is an array (left out when empty: the API refuses an empty one), and rows the format forbids
// are rejected with the rule they break.
import { HarnessAugmentError, type Issue, type SafeResult } from '../../harness/issues.js';
import type { OfferedTool } from '../../trajectory/schema.js';
import { type ExportedMessage, prepareExample } from './export-messages.js';
import type { TrainingExample } from './spec.js';

/** Options of `toOpenAIRow` and `safeToOpenAIRow`, and of the `openai` exporter that writes their rows. */
export interface OpenAIRowOptions {
  /**
   * Written as `parallel_tool_calls` on every row when set. With `false`, an example whose assistant makes
   * several calls in one message is rejected, since it would teach what the setting forbids. Unset, the
   * key is left out and OpenAI's default (true) applies.
   */
  parallelToolCalls?: boolean;
}

/** A message as OpenAI fine-tuning reads it: an assistant message may carry `weight` (0: not trained on). */
export type OpenAIMessage =
  | ExportedMessage
  | (Extract<ExportedMessage, { role: 'assistant' }> & { weight: 0 | 1 });

/** One line of an OpenAI fine-tuning JSONL file, as `toOpenAIRow` returns it. */
export interface OpenAIRow {
  messages: OpenAIMessage[];
  tools?: OfferedTool[];
  parallel_tool_calls?: boolean;
}

/** The Chat Completions limit on function names, which the fine-tuning upload applies too. */
const functionName = /^[a-zA-Z0-9_-]{1,64}$/;
const maxTools = 128;

function formatIssues(
  messages: readonly ExportedMessage[],
  tools: readonly OfferedTool[],
  options: OpenAIRowOptions,
) {
  const issues: Issue[] = [];
  if (tools.length > maxTools) {
    issues.push({
      code: 'openai_too_many_tools',
      path: ['tools'],
      message: `${tools.length} tools are offered; OpenAI accepts at most ${maxTools}`,
    });
  }
  tools.forEach((tool, index) => {
    if (!functionName.test(tool.function.name)) {
      issues.push({
        code: 'openai_function_name',
        path: ['tools', index, 'function', 'name'],
        message: `"${tool.function.name}" is not a valid OpenAI function name (letters, digits, _ and -, at most 64)`,
      });
    }
  });
  if (!messages.some((message) => message.role === 'assistant')) {
    issues.push({
      code: 'openai_no_assistant',
      path: ['messages'],
      message: 'there is no assistant message to train on',
    });
  }
  let open = new Set<string>();
  let openFrom = -1;
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      if (!open.delete(message.tool_call_id)) {
        issues.push({
          code: 'openai_unmatched_tool_message',
          path: ['messages', index, 'tool_call_id'],
          message: `"${message.tool_call_id}" answers no pending call of the assistant message before it`,
        });
      }
      return;
    }
    if (open.size > 0) {
      issues.push({
        code: 'openai_unanswered_tool_call',
        path: ['messages', openFrom, 'tool_calls'],
        message: `call(s) ${[...open].map((id) => `"${id}"`).join(', ')} get no tool message before the next turn`,
      });
    }
    open = new Set();
    if (message.role !== 'assistant') return;
    if (!message.tool_calls && message.content === null) {
      issues.push({
        code: 'openai_empty_assistant',
        path: ['messages', index],
        message: 'an assistant message needs content (possibly empty) or tool calls',
      });
    }
    const calls = message.tool_calls ?? [];
    if (options.parallelToolCalls === false && calls.length > 1) {
      issues.push({
        code: 'openai_parallel_calls',
        path: ['messages', index, 'tool_calls'],
        message: `${calls.length} calls in one message while parallel_tool_calls is false`,
      });
    }
    calls.forEach((call, callIndex) => {
      if (!functionName.test(call.function.name)) {
        issues.push({
          code: 'openai_function_name',
          path: ['messages', index, 'tool_calls', callIndex, 'function', 'name'],
          message: `"${call.function.name}" is not a valid OpenAI function name`,
        });
      }
    });
    // Calls in the last message may stay unanswered: the example then teaches the call itself.
    if (index < messages.length - 1) {
      open = new Set(calls.map((call) => call.id));
      openFrom = index;
    }
  });
  if (open.size > 0) {
    issues.push({
      code: 'openai_unanswered_tool_call',
      path: ['messages', openFrom, 'tool_calls'],
      message: `call(s) ${[...open].map((id) => `"${id}"`).join(', ')} get no tool message before the example ends`,
    });
  }
  return issues;
}

/**
 * Converts an example to an OpenAI fine-tuning row; the issues name the rule broken when it cannot.
 *
 * @example
 * const result = safeToOpenAIRow(example, { parallelToolCalls: true });
 * if (result.success) result.data.parallel_tool_calls // true
 */
export function safeToOpenAIRow(
  example: TrainingExample,
  options: OpenAIRowOptions = {},
): SafeResult<OpenAIRow> {
  const prepared = prepareExample(example);
  if (!prepared.success) return prepared;
  const { messages, tools, rejected } = prepared.data;
  const issues = formatIssues(messages, tools, options);
  if (issues.length > 0) return { success: false, issues };
  return {
    success: true,
    data: {
      // A hook-rejected attempt kept whole stays in the context (the feedback answers it) but is not
      // trained on: OpenAI's per-message `weight: 0`.
      messages: messages.map((message, index) =>
        message.role === 'assistant' && rejected.has(index) ? { ...message, weight: 0 as const } : message,
      ),
      ...(tools.length > 0 ? { tools } : {}),
      ...(options.parallelToolCalls === undefined ? {} : { parallel_tool_calls: options.parallelToolCalls }),
    },
  };
}

/**
 * Converts an example to an OpenAI fine-tuning row; throws a HarnessAugmentError with the issues when it cannot.
 *
 * @example
 * typeof toOpenAIRow(example).messages[2].tool_calls?.[0].function.arguments // 'string'
 */
export function toOpenAIRow(example: TrainingExample, options: OpenAIRowOptions = {}): OpenAIRow {
  const result = safeToOpenAIRow(example, options);
  if (!result.success) {
    throw new HarnessAugmentError(`openai: cannot convert "${example.id}"`, { issues: result.issues });
  }
  return result.data;
}
