// The public surface of the OpenAI-compatible adapter (hand-curated: no `export *`).
export {
  createOpenAICompatible,
  type OpenAICompatibleClient,
  type OpenAICompatibleOptions,
  type OpenAICompatibleStats,
  type RetryInfo,
  type RetryReason,
} from './client.js';
export { OpenAICompatibleError, type OpenAICompatibleErrorCode } from './errors.js';
export {
  parseChatCompletion,
  parseChatCompletionChunk,
  parseModelList,
  parseTokenizeResponse,
} from './response-schemas.js';
export { type BackoffOptions, backoffDelay, isRetryableStatus, retryAfterMs } from './retry.js';
export { readServerSentEvents, type ServerSentEvent, ServerSentEventDecoder } from './sse.js';
export {
  assembleChatCompletion,
  ChatCompletionAccumulator,
  collectChatCompletion,
} from './tool-call-deltas.js';
export type {
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionChunkDelta,
  ChatCompletionRequest,
  ChatCompletionRequestNonStreaming,
  ChatCompletionRequestStreaming,
  ChatCompletionResponse,
  ChatCompletionResponseChoice,
  ChatCompletionResponseMessage,
  CompletionUsage,
  CustomToolCall,
  FinishReason,
  FunctionToolCall,
  ModelCard,
  ModelList,
  PromptLogprobs,
  TokenizeChatRequest,
  TokenizePromptRequest,
  TokenizeRequest,
  TokenizeResponse,
  TokenLogprob,
  ToolCallDelta,
} from './wire-types.js';
