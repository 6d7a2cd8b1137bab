// The model interface of the runtime: one Chat Completions request in, one completion out, in the exact
// OpenAI wire shapes, so that an OpenAI-compatible endpoint (vLLM, SGLang, a hosted API), the scripted
// oracle and a test double are interchangeable. Implementations live in adapters (network) or in the
// simulator (scripted); the runtime only calls `complete`.
import type { OfferedTool, ToolCall } from '../trajectory/schema.js';

/** A message as sent to a Chat Completions endpoint (trajectory markers stripped). */
export type ChatMessage =
  | { role: 'system' | 'developer'; content: string; name?: string }
  | { role: 'user'; content: string; name?: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[]; name?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The Chat Completions request body (the fields the runtime sets; endpoints may accept more). */
export interface ChatRequest {
  model?: string;
  messages: ChatMessage[];
  tools?: OfferedTool[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
  parallel_tool_calls?: boolean;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  seed?: number;
  stop?: string | string[];
  n?: number;
  /** Extra body fields passed through unchanged (vLLM: `prompt_logprobs`, `return_token_ids`, …). */
  [extra: string]: unknown;
}

/** The assistant message of a completion choice. */
export interface ChatCompletionMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ToolCall[];
  /** Reasoning text some servers return separately (vLLM/SGLang reasoning parsers). */
  reasoning_content?: string | null;
}

/** One choice of a Chat Completions response: the message and why it finished. */
export interface ChatCompletionChoice {
  index: number;
  message: ChatCompletionMessage;
  finish_reason: 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call' | null;
  logprobs?: unknown;
}

/** The token counts of a Chat Completions response. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** The Chat Completions response body. */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatCompletionChoice[];
  usage?: ChatUsage;
  /** vLLM extras when requested. */
  prompt_logprobs?: unknown;
  prompt_token_ids?: number[];
  [extra: string]: unknown;
}

/** Per-call options of a `ChatModel`: an abort signal. */
export interface ChatCallOptions {
  signal?: AbortSignal;
}

/** Anything that answers a Chat Completions request. */
export interface ChatModel {
  complete(request: ChatRequest, options?: ChatCallOptions): Promise<ChatCompletion>;
}
