// One LLaMA-Factory sharegpt row per example:
// {"conversations": [{"from": "human" | "gpt" | "function_call" | "observation", "value": "…"}], "system": "…", "tools": "…"}.
//
// LLaMA-Factory's rule (data/README.md, and its SharegptDatasetConverter): human and observation turns
// stand at odd positions, gpt and function_call turns at even positions, so a conversation alternates and
// ends on the model's turn; any other example is skipped by the trainer with a warning. This converter
// maps messages one to one (consecutive tool results become one observation turn) and rejects what cannot
// alternate, such as two assistant messages in a row; it never reorders, merges or drops turns to make it fit.
import { HarnessAugmentError, type Issue, type SafeResult } from '../../harness/issues.js';
import { callKey, prepareExample, toolsJsonText } from './export-messages.js';
import type { TrainingExample } from './spec.js';

/**
 * Options of `toSharegptRow` and `safeToSharegptRow`, and of the `llama-factory` exporter that writes their
 * rows.
 */
export interface SharegptRowOptions {
  /**
   * How the results of parallel tool calls share their one observation turn. `tool-response` (default)
   * joins them with "\n</tool_response>\n<tool_response>\n", as LLaMA-Factory's own OpenAI-format converter
   * does, so that templates wrapping an observation in <tool_response> tags (Qwen's) show one block per
   * result. `json-array` writes a JSON array of the result texts instead.
   */
  parallelResults?: 'tool-response' | 'json-array';
}

/**
 * Who speaks a sharegpt turn: `human` a user message, `gpt` an assistant reply, `function_call` an
 * assistant's tool calls, `observation` their results.
 */
export type SharegptRole = 'human' | 'gpt' | 'function_call' | 'observation';

/**
 * One turn of a sharegpt row's `conversations`; a `function_call` or `observation` value is JSON text or
 * joined results.
 */
export interface SharegptTurn {
  from: SharegptRole;
  value: string;
}

/** One line of the LLaMA-Factory sharegpt data file, as `toSharegptRow` returns it. */
export interface SharegptRow {
  conversations: SharegptTurn[];
  /** The system prompt ('' when the example has none, so LLaMA-Factory uses the template's default). */
  system: string;
  /** The Chat Completions tools array as JSON text. */
  tools: string;
}

/**
 * The separator LLaMA-Factory places between parallel tool results in one observation.
 *
 * @example
 * const results = observation.split(toolResponseSeparator);
 */
export const toolResponseSeparator = '\n</tool_response>\n<tool_response>\n';

/**
 * Converts an example to a sharegpt row; the issues say why when it cannot alternate.
 *
 * @example
 * const result = safeToSharegptRow(example);
 * if (result.success) result.data.conversations.map((turn) => turn.from) // ['human', 'function_call', 'observation', 'gpt']
 */
export function safeToSharegptRow(
  example: TrainingExample,
  options: SharegptRowOptions = {},
): SafeResult<SharegptRow> {
  const prepared = prepareExample(example);
  if (!prepared.success) return prepared;
  const { messages, tools, parsedArguments } = prepared.data;
  const issues: Issue[] = [];
  let system = '';
  const turns: Array<SharegptTurn & { messageIndex: number }> = [];
  let pendingResults: { messageIndex: number; values: string[] } | undefined;
  const flushResults = () => {
    if (!pendingResults) return;
    const { values, messageIndex } = pendingResults;
    const value =
      options.parallelResults === 'json-array' ? JSON.stringify(values) : values.join(toolResponseSeparator);
    turns.push({ from: 'observation', value, messageIndex });
    pendingResults = undefined;
  };

  messages.forEach((message, messageIndex) => {
    if (message.role === 'tool') {
      pendingResults ??= { messageIndex, values: [] };
      pendingResults.values.push(message.content);
      return;
    }
    flushResults();
    if (message.role === 'system') {
      if (messageIndex === 0) system = message.content;
      else {
        issues.push({
          code: 'sharegpt_system_position',
          path: ['messages', messageIndex],
          message: 'a system message after the first message has no place in a sharegpt row',
        });
      }
    } else if (message.role === 'user') {
      turns.push({ from: 'human', value: message.content, messageIndex });
    } else if (message.tool_calls) {
      if (message.content !== null && message.content !== '') {
        issues.push({
          code: 'sharegpt_call_with_text',
          path: ['messages', messageIndex, 'content'],
          message: 'the message has both text and tool calls; a function_call turn carries only the calls',
        });
      }
      const calls = message.tool_calls.map((call, callIndex) => ({
        name: call.function.name,
        arguments: parsedArguments.get(callKey(messageIndex, callIndex)),
      }));
      // LLaMA-Factory's FunctionFormatter reads one call object, or an array of them for parallel calls.
      const value = JSON.stringify(calls.length === 1 ? calls[0] : calls);
      turns.push({ from: 'function_call', value, messageIndex });
    } else if (message.content === null) {
      // An empty string is a reply (a blocked turn may say nothing); null with no calls is no message at all.
      issues.push({
        code: 'sharegpt_empty_turn',
        path: ['messages', messageIndex],
        message: 'an assistant message with null content and no tool calls has no gpt turn to become',
      });
    } else {
      turns.push({ from: 'gpt', value: message.content, messageIndex });
    }
  });
  flushResults();

  const alternation = checkAlternation(turns, messages.length);
  if (alternation) issues.push(alternation);
  if (issues.length > 0) return { success: false, issues };
  return {
    success: true,
    data: {
      conversations: turns.map(({ from, value }) => ({ from, value })),
      system,
      tools: toolsJsonText(tools),
    },
  };
}

const userSide: readonly SharegptRole[] = ['human', 'observation'];

function checkAlternation(
  turns: ReadonlyArray<SharegptTurn & { messageIndex: number }>,
  messageCount: number,
): Issue | undefined {
  if (turns.length === 0) {
    return {
      code: 'sharegpt_empty',
      path: ['messages'],
      message: 'the example has no conversation turns besides the system prompt',
    };
  }
  for (const [position, turn] of turns.entries()) {
    const wantsUserSide = position % 2 === 0;
    if (userSide.includes(turn.from) === wantsUserSide) continue;
    const expected = wantsUserSide ? 'human or observation' : 'gpt or function_call';
    const previous = turns[position - 1];
    const after = previous ? ` right after a ${previous.from} turn` : ' as the first turn';
    return {
      code: 'sharegpt_alternation',
      path: ['messages', turn.messageIndex],
      message: `turns cannot alternate: a ${turn.from} turn stands at position ${position + 1}${after}, where LLaMA-Factory needs ${expected}`,
    };
  }
  if (turns.length % 2 !== 0) {
    return {
      code: 'sharegpt_alternation',
      path: ['messages', messageCount - 1],
      message: `the conversation ends on a ${turns.at(-1)?.from} turn; LLaMA-Factory needs it to end on gpt or function_call`,
    };
  }
  return undefined;
}

/**
 * Converts an example to a sharegpt row; throws a HarnessAugmentError with the issues when it cannot.
 *
 * @example
 * toSharegptRow(example).conversations[0].from // 'human'
 */
export function toSharegptRow(example: TrainingExample, options: SharegptRowOptions = {}): SharegptRow {
  const result = safeToSharegptRow(example, options);
  if (!result.success) {
    throw new HarnessAugmentError(`llama-factory: cannot convert "${example.id}"`, { issues: result.issues });
  }
  return result.data;
}
