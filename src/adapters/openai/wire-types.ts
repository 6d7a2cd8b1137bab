// The exact JSON shapes of the OpenAI Chat Completions wire protocol as OpenAI-compatible servers (vLLM,
// SGLang, hosted APIs) speak it, plus the vLLM extras we use (`prompt_logprobs`, `return_token_ids`,
// `/tokenize`, `max_model_len`). Types only: test/adapters/openai/wire-types.test.ts checks them against
// the `openai` SDK's own types, which are never imported at run time.
import type { ChatMessage, ChatRequest } from '../../runtime/chat-model.js';
import type { OfferedTool } from '../../trajectory/schema.js';

/** Why a choice stopped. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/** A function call the model made: `arguments` is the raw JSON text exactly as the model wrote it. */
export interface FunctionToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A call of a custom (free-text input) tool; OpenAI only, never produced for the tools we offer. */
export interface CustomToolCall {
  id: string;
  type: 'custom';
  custom: { name: string; input: string };
}

/** `response_format` of a request. */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: {
        name: string;
        description?: string;
        schema?: Record<string, unknown>;
        strict?: boolean | null;
      };
    };

/** The fields shared by streaming and non-streaming requests. */
export interface ChatCompletionRequestBase {
  model?: string;
  messages: ChatMessage[];
  tools?: OfferedTool[];
  tool_choice?: ChatRequest['tool_choice'];
  parallel_tool_calls?: boolean;
  temperature?: number | null;
  top_p?: number | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  seed?: number | null;
  stop?: string | string[] | null;
  n?: number | null;
  frequency_penalty?: number | null;
  presence_penalty?: number | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  response_format?: ResponseFormat;
  user?: string;
  /** vLLM: log-probabilities of the prompt tokens (that many per position). */
  prompt_logprobs?: number | null;
  /** vLLM: return `prompt_token_ids` and per-choice `token_ids`. */
  return_token_ids?: boolean | null;
  /** vLLM / SGLang sampling extras. */
  top_k?: number | null;
  min_p?: number | null;
  repetition_penalty?: number | null;
  /** vLLM / SGLang: keyword arguments for the chat template (e.g. `{ enable_thinking: false }`). */
  chat_template_kwargs?: Record<string, unknown>;
  skip_special_tokens?: boolean;
}

/** A non-streaming request body. */
export interface ChatCompletionRequestNonStreaming extends ChatCompletionRequestBase {
  stream?: false | null;
}

/** A streaming request body. */
export interface ChatCompletionRequestStreaming extends ChatCompletionRequestBase {
  stream: true;
  stream_options?: { include_usage?: boolean; continuous_usage_stats?: boolean } | null;
}

/** Any Chat Completions request body. */
export type ChatCompletionRequest = ChatCompletionRequestNonStreaming | ChatCompletionRequestStreaming;

/** One token's log-probability. */
export interface TokenLogprob {
  token: string;
  logprob: number;
  bytes: number[] | null;
  top_logprobs: Array<{ token: string; logprob: number; bytes: number[] | null }>;
}

/** `logprobs` of a choice. */
export interface ChoiceLogprobs {
  content: TokenLogprob[] | null;
  refusal?: TokenLogprob[] | null;
}

/** Token counts. */
export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** The assistant message of a non-streaming choice. */
export interface ChatCompletionResponseMessage {
  role: 'assistant';
  content: string | null;
  refusal?: string | null;
  tool_calls?: Array<FunctionToolCall | CustomToolCall>;
  /** vLLM / SGLang reasoning parsers (older name). */
  reasoning_content?: string | null;
  /** vLLM reasoning parser (newer name). */
  reasoning?: string | null;
}

/** A choice of a non-streaming response. */
export interface ChatCompletionResponseChoice {
  index: number;
  message: ChatCompletionResponseMessage;
  finish_reason: FinishReason | null;
  logprobs?: ChoiceLogprobs | null;
  /** vLLM: the stop string or token id that ended the choice. */
  stop_reason?: number | string | null;
  /** vLLM with `return_token_ids`. */
  token_ids?: number[] | null;
}

/** vLLM `prompt_logprobs`: per prompt position (the first is null), token id → log-probability. */
export type PromptLogprobs = Array<Record<
  string,
  { logprob: number; rank?: number | null; decoded_token?: string | null }
> | null>;

/** A non-streaming response body. */
export interface ChatCompletionResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatCompletionResponseChoice[];
  usage?: CompletionUsage | null;
  system_fingerprint?: string | null;
  service_tier?: string | null;
  prompt_logprobs?: PromptLogprobs | null;
  prompt_token_ids?: number[] | null;
}

/** A piece of a tool call in a stream; calls are told apart by `index`. */
export interface ToolCallDelta {
  index: number;
  /** Servers that repeat the fields on later deltas send null there (SGLang). */
  id?: string | null;
  type?: 'function' | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

/** What a chunk adds to a choice. */
export interface ChatCompletionChunkDelta {
  role?: 'developer' | 'system' | 'user' | 'assistant' | 'tool' | null;
  content?: string | null;
  refusal?: string | null;
  tool_calls?: ToolCallDelta[] | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
}

/** A choice of a streamed chunk. */
export interface ChatCompletionChunkChoice {
  index: number;
  delta: ChatCompletionChunkDelta;
  finish_reason: FinishReason | null;
  logprobs?: ChoiceLogprobs | null;
  stop_reason?: number | string | null;
  token_ids?: number[] | null;
}

/** One `data:` payload of a streamed response. With `include_usage` the last one has no choices and the usage. */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: ChatCompletionChunkChoice[];
  usage?: CompletionUsage | null;
  system_fingerprint?: string | null;
  service_tier?: string | null;
  prompt_logprobs?: PromptLogprobs | null;
  prompt_token_ids?: number[] | null;
}

/** The error body OpenAI-compatible servers send with a 4xx/5xx (OpenAI nests it; vLLM may not). */
export interface ErrorBody {
  error?: { message?: string; type?: string; code?: string | number | null; param?: string | null };
  message?: string;
}

/** vLLM `/tokenize` of a plain prompt. */
export interface TokenizePromptRequest {
  model?: string;
  prompt: string;
  add_special_tokens?: boolean;
  return_token_strs?: boolean;
}

/** vLLM `/tokenize` of chat messages (rendered with the chat template). */
export interface TokenizeChatRequest {
  model?: string;
  messages: ChatMessage[];
  tools?: OfferedTool[];
  add_generation_prompt?: boolean;
  continue_final_message?: boolean;
  add_special_tokens?: boolean;
  chat_template_kwargs?: Record<string, unknown>;
  return_token_strs?: boolean;
}

/** A `/tokenize` request. */
export type TokenizeRequest = TokenizePromptRequest | TokenizeChatRequest;

/** A `/tokenize` response. */
export interface TokenizeResponse {
  count: number;
  max_model_len: number;
  tokens: number[];
  token_strs?: string[] | null;
}

/** One entry of `GET /models`. */
export interface ModelCard {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  /** vLLM: the model the served name points at, and its context length. */
  root?: string | null;
  parent?: string | null;
  max_model_len?: number | null;
}

/** `GET /models`. */
export interface ModelList {
  object: 'list';
  data: ModelCard[];
}
