// Validates what an OpenAI-compatible server sent before anything downstream trusts it, and translates the
// few harmless dialect differences into the runtime's shapes: a missing `content` becomes null, an empty
// `tool_calls` array (vLLM) is dropped, a missing tool-call `type` is `function`, `reasoning` (newer vLLM)
// is also offered as `reasoning_content`, a null `usage` is dropped. Extra fields pass through.
import { z } from 'zod';
import { formatPath } from '../../harness/issues.js';
import type { ChatCompletion, ChatCompletionChoice } from '../../runtime/chat-model.js';
import type { ChatCompletionChunk, ModelList, TokenizeResponse } from './wire-types.js';

const finishReason = z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

const toolCall = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const usage = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
});

const completionSchema = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion').optional(),
  created: z.number(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.number(),
      message: z.looseObject({
        role: z.literal('assistant'),
        content: z.string().nullish(),
        tool_calls: z.array(toolCall).nullish(),
        reasoning_content: z.string().nullish(),
        reasoning: z.string().nullish(),
      }),
      finish_reason: finishReason.nullable(),
    }),
  ),
  usage: usage.nullish(),
});

const chunkSchema = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion.chunk').optional(),
  created: z.number(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.number(),
      delta: z.looseObject({
        content: z.string().nullish(),
        reasoning_content: z.string().nullish(),
        reasoning: z.string().nullish(),
        tool_calls: z
          .array(
            z.looseObject({
              index: z.number().optional(),
              id: z.string().nullish(),
              type: z.literal('function').nullish(),
              function: z
                .looseObject({ name: z.string().nullish(), arguments: z.string().nullish() })
                .nullish(),
            }),
          )
          .nullish(),
      }),
      finish_reason: finishReason.nullish(),
    }),
  ),
  usage: usage.nullish(),
});

const tokenizeSchema = z.looseObject({
  count: z.number(),
  max_model_len: z.number(),
  tokens: z.array(z.number()),
});

const modelsSchema = z.looseObject({
  object: z.literal('list').optional(),
  data: z.array(z.looseObject({ id: z.string() })),
});

/** Thrown when a body does not have the protocol's shape; the client wraps it with the URL. */
export class InvalidResponseError extends Error {
  override readonly name = 'InvalidResponseError';
}

function check<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const where = first ? `${formatPath(first.path as Array<string | number>)}: ${first.message}` : '';
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
  throw new InvalidResponseError(`not a valid ${what}: ${where}${more}`);
}

/**
 * Validates a non-streaming response body and returns it as the runtime's ChatCompletion.
 *
 * @example
 * const completion = parseChatCompletion(JSON.parse(text));
 */
export function parseChatCompletion(value: unknown): ChatCompletion {
  const parsed = check(completionSchema, value, 'chat completion');
  const { usage: rawUsage, choices, ...rest } = parsed;
  const completion: ChatCompletion = {
    ...rest,
    object: 'chat.completion',
    choices: choices.map((choice): ChatCompletionChoice => {
      const { tool_calls, content, ...message } = choice.message;
      const normalised: ChatCompletionChoice['message'] = { ...message, content: content ?? null };
      if (message.reasoning_content == null && typeof message.reasoning === 'string')
        normalised.reasoning_content = message.reasoning;
      if (tool_calls && tool_calls.length > 0)
        normalised.tool_calls = tool_calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.function.name, arguments: call.function.arguments },
        }));
      return { ...choice, message: normalised };
    }),
  };
  if (rawUsage) completion.usage = rawUsage;
  return completion;
}

/**
 * Validates one streamed chunk.
 *
 * @example
 * const chunk = parseChatCompletionChunk(JSON.parse(event.data));
 */
export function parseChatCompletionChunk(value: unknown): ChatCompletionChunk {
  // The loose schema returns the input's own fields; the wire type describes them.
  return check(chunkSchema, value, 'chat completion chunk') as unknown as ChatCompletionChunk;
}

/**
 * Validates a vLLM `/tokenize` response.
 *
 * @example
 * parseTokenizeResponse({ count: 2, max_model_len: 8192, tokens: [1, 2] }).count // 2
 */
export function parseTokenizeResponse(value: unknown): TokenizeResponse {
  return check(tokenizeSchema, value, 'tokenize response') as TokenizeResponse;
}

/**
 * Validates a `GET /models` response.
 *
 * @example
 * parseModelList({ object: 'list', data: [{ id: 'qwen' }] }).data[0].id // 'qwen'
 */
export function parseModelList(value: unknown): ModelList {
  return check(modelsSchema, value, 'model list') as unknown as ModelList;
}
