// Answering bench rows with any ChatModel: the row's input (system prompt, user messages, tools) is sent
// as it is; skill loads are answered from the row's harness as the runtime answers them, other calls by
// the given tool runtime (default: an error result saying there is no backend), until the model replies or
// the step limit passes. Only `input` and `harness` are read: never `expect`, `relabel` or provenance, so a
// prediction cannot depend on the answer key.
import type { ChatMessage, ChatModel, ChatRequest } from '../runtime/chat-model.js';
import { type ToolRuntime, toolError } from '../runtime/tool-runtime.js';
import type { Message } from '../trajectory/schema.js';
import type { BenchRow, Prediction } from './schema.js';

/**
 * How `answerBenchRow` plays a row: the tools that answer calls, the most model calls, the request fields.
 */
export interface AnswerRowOptions {
  /** Answers registry tool calls (default: every call gets a `tool_error` result: no backend). */
  tools?: ToolRuntime;
  /** Most model calls per row (default 8). */
  maxSteps?: number;
  /** Request fields sent with every call (model name, temperature, …). */
  request?: Omit<ChatRequest, 'messages' | 'tools'>;
  signal?: AbortSignal;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Plays one bench row with a model and returns its prediction (every message after the input).
 *
 * @example
 * const prediction = await answerBenchRow(row, createOpenAICompatible({ baseURL }), { request: { model: 'qwen3-4b' } });
 */
export async function answerBenchRow(
  row: Pick<BenchRow, 'id' | 'input' | 'harness'>,
  model: ChatModel,
  options: AnswerRowOptions = {},
): Promise<Prediction> {
  const messages: Message[] = row.input.messages.map((message) => structuredClone(message));
  const output: Message[] = [];
  const { loader } = row.harness.skills;
  const offered = new Set(row.input.tools.map((tool) => tool.function.name));
  const maxSteps = options.maxSteps ?? 8;
  let registryCalls = 0;
  for (let step = 0; step < maxSteps; step++) {
    options.signal?.throwIfAborted();
    const completion = await model.complete(
      { ...options.request, messages: messages as ChatMessage[], tools: row.input.tools },
      options.signal ? { signal: options.signal } : {},
    );
    const choice = completion.choices[0];
    if (!choice) break;
    const calls = choice.message.tool_calls ?? [];
    const assistant: Message =
      calls.length > 0
        ? { role: 'assistant', content: choice.message.content ?? null, tool_calls: calls }
        : { role: 'assistant', content: choice.message.content ?? '' };
    messages.push(assistant);
    output.push(assistant);
    if (calls.length === 0) break;
    for (const call of calls) {
      let content: string;
      const args = parseObject(call.function.arguments);
      if (!offered.has(call.function.name))
        content = toolError('unknown_tool', `no tool "${call.function.name}" is available`).content;
      else if (call.function.name === loader.tool) {
        const id = args?.[loader.argument];
        const skill = row.harness.skills.items.find((item) => item.id === id);
        content = skill
          ? skill.body
          : toolError('unknown_skill', `no skill ${JSON.stringify(id ?? null)} exists`).content;
      } else if (!args)
        content = toolError('invalid_arguments', 'the arguments are not a JSON object').content;
      else if (options.tools) {
        const outcome = await options.tools.call(
          { id: call.id, name: call.function.name, arguments: args, rawArguments: call.function.arguments },
          {
            harness: row.harness,
            signal: options.signal ?? new AbortController().signal,
            callIndex: registryCalls++,
          },
        );
        content = outcome.content;
      } else content = toolError('tool_error', 'no tool backend in this bench run').content;
      const result: Message = { role: 'tool', tool_call_id: call.id, content };
      messages.push(result);
      output.push(result);
    }
  }
  return { id: row.id, output };
}
