// Type conformance with the openai SDK (a devDependency, imported for its types only): our requests are
// valid SDK requests, and whatever the SDK says a server may answer fits our response and chunk types.
// `tsc --noEmit` checks these; at run time the assertions are no-ops beyond the sample values below.
import type OpenAI from 'openai';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  ChatCompletionChunk,
  ChatCompletionRequestNonStreaming,
  ChatCompletionRequestStreaming,
  ChatCompletionResponse,
  CompletionUsage,
  ModelCard,
  ToolCallDelta,
} from '../../../src/adapters/openai/wire-types.js';
import type { ChatCompletion, ChatMessage, ChatRequest } from '../../../src/runtime/chat-model.js';
import type { OfferedTool, ToolCall } from '../../../src/trajectory/schema.js';

type Sdk = OpenAI.Chat.Completions.ChatCompletion;
type SdkNonStreaming = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type SdkStreaming = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;

describe('wire types conform to the openai SDK', () => {
  it('our requests (with a model) are SDK requests', () => {
    expectTypeOf<ChatCompletionRequestNonStreaming & { model: string }>().toExtend<SdkNonStreaming>();
    expectTypeOf<ChatCompletionRequestStreaming & { model: string }>().toExtend<SdkStreaming>();
    expectTypeOf<ChatMessage>().toExtend<OpenAI.Chat.Completions.ChatCompletionMessageParam>();
    expectTypeOf<OfferedTool>().toExtend<OpenAI.Chat.Completions.ChatCompletionTool>();
    expectTypeOf<ToolCall>().toExtend<OpenAI.Chat.Completions.ChatCompletionMessageToolCall>();
    expectTypeOf<
      NonNullable<ChatRequest['tool_choice']>
    >().toExtend<OpenAI.Chat.Completions.ChatCompletionToolChoiceOption>();
  });

  it('SDK responses, chunks and models fit ours', () => {
    expectTypeOf<Sdk>().toExtend<ChatCompletionResponse>();
    expectTypeOf<OpenAI.Chat.Completions.ChatCompletionChunk>().toExtend<ChatCompletionChunk>();
    expectTypeOf<OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall>().toExtend<ToolCallDelta>();
    expectTypeOf<OpenAI.CompletionUsage>().toExtend<CompletionUsage>();
    expectTypeOf<OpenAI.Models.Model>().toExtend<ModelCard>();
  });

  it('a function-call-only SDK completion is a runtime ChatCompletion (what the client returns)', () => {
    type FunctionOnly = Omit<Sdk, 'choices'> & {
      choices: Array<
        Omit<OpenAI.Chat.Completions.ChatCompletion.Choice, 'message'> & {
          message: Omit<OpenAI.Chat.Completions.ChatCompletionMessage, 'tool_calls'> & {
            tool_calls?: OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall[];
          };
        }
      >;
    };
    expectTypeOf<FunctionOnly>().toExtend<ChatCompletion>();
  });

  it('a sample request and chunk type-check both ways', () => {
    const request: ChatCompletionRequestStreaming & { model: string } = {
      model: 'Qwen/Qwen3-8B',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'developer', content: 'rules' },
        { role: 'user', content: 'link 3?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'get_price', arguments: '{"link_id":3}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: '{"price":99}' },
      ],
      tools: [{ type: 'function', function: { name: 'get_price', parameters: { type: 'object' } } }],
      tool_choice: 'auto',
      prompt_logprobs: 1,
      return_token_ids: true,
    };
    const sdkRequest: SdkStreaming = request;
    const sdkChunk: OpenAI.Chat.Completions.ChatCompletionChunk = {
      id: 'x',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, function: { arguments: '{' } }] },
          finish_reason: null,
        },
      ],
    };
    const ours: ChatCompletionChunk = sdkChunk;
    expectTypeOf(sdkRequest).toEqualTypeOf<SdkStreaming>();
    expectTypeOf(ours).toEqualTypeOf<ChatCompletionChunk>();
  });
});
