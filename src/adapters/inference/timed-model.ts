// A ChatModel over a streaming OpenAI-compatible client that also reports the time to the first token:
// the request is streamed, the first chunk that carries content, reasoning or a tool call stops the clock,
// and the chunks are assembled into the completion the agent loop expects.
import type { ChatCallOptions, ChatCompletion, ChatRequest } from '../../runtime/chat-model.js';
import type { TimedChatModel } from '../../runtime/latency.js';
import type { OpenAICompatibleClient } from '../openai/client.js';
import { ChatCompletionAccumulator } from '../openai/tool-call-deltas.js';

/**
 * Wraps a client so that each call streams and says when its first token arrived.
 *
 * @example
 * const model = timedChatModel(createOpenAICompatible({ baseURL, model: 'agent' }));
 * const { completion, firstTokenMs } = await model.completeTimed!({ messages });
 */
export function timedChatModel(
  client: OpenAICompatibleClient,
  now: () => number = () => performance.now(),
): TimedChatModel {
  const completeTimed = async (request: ChatRequest, options?: ChatCallOptions) => {
    const started = now();
    let firstTokenMs: number | undefined;
    const accumulator = new ChatCompletionAccumulator();
    for await (const chunk of client.stream(request, options)) {
      if (
        firstTokenMs === undefined &&
        chunk.choices.some(
          (choice) =>
            Boolean(choice.delta.content) ||
            Boolean(choice.delta.reasoning_content) ||
            Boolean(choice.delta.reasoning) ||
            (choice.delta.tool_calls?.length ?? 0) > 0,
        )
      )
        firstTokenMs = now() - started;
      accumulator.push(chunk);
    }
    const completion = accumulator.result() as unknown as ChatCompletion;
    return firstTokenMs === undefined ? { completion } : { completion, firstTokenMs };
  };
  return {
    completeTimed,
    async complete(request, options) {
      return (await completeTimed(request, options)).completion;
    },
  };
}
