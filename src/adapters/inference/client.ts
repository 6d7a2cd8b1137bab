// The client of a served model: chat (the OpenAI-compatible client, as the agent loop uses it), plain
// completions with `prompt_logprobs`, `/tokenize`, the Prometheus `/metrics` scrape and the health wait,
// for vLLM or SGLang. Completions reuse the OpenAI-compatible client's retries; responses are checked.
import { z } from 'zod';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { ChatCallOptions } from '../../runtime/chat-model.js';
import {
  createOpenAICompatible,
  type OpenAICompatibleClient,
  type OpenAICompatibleOptions,
} from '../openai/client.js';
import type { TokenizeRequest, TokenizeResponse } from '../openai/wire-types.js';
import { type HealthWaitOptions, type HealthWaitResult, waitForHealthy } from './health.js';
import { parseServerMetrics, type ServerMetrics } from './metrics.js';
import type { InferenceEngine } from './tool-parsers.js';

/** A `/v1/completions` request; `prompt` may be token ids. */
export interface CompletionRequest {
  model?: string;
  prompt: string | number[];
  max_tokens?: number;
  temperature?: number;
  /** vLLM: log-probabilities of the prompt tokens (the number of top alternatives; 0 = the token only). */
  prompt_logprobs?: number;
  logprobs?: number;
  echo?: boolean;
  [extra: string]: unknown;
}

const PromptLogprobEntrySchema = z.looseObject({
  logprob: z.number(),
  rank: z.number().nullable().optional(),
  decoded_token: z.string().nullable().optional(),
});

/** vLLM's prompt log-probabilities: null for the first token, then the alternatives keyed by token id. */
export const PromptLogprobsSchema = z.array(z.record(z.string(), PromptLogprobEntrySchema).nullable());

const CompletionResponseSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().optional(),
        text: z.string(),
        finish_reason: z.string().nullable().optional(),
        prompt_logprobs: PromptLogprobsSchema.nullable().optional(),
      }),
    )
    .min(1),
  prompt_logprobs: PromptLogprobsSchema.nullable().optional(),
  usage: z.looseObject({ prompt_tokens: z.number(), completion_tokens: z.number() }).optional(),
});

export type CompletionResponse = z.infer<typeof CompletionResponseSchema>;
export type PromptLogprobs = z.infer<typeof PromptLogprobsSchema>;

export interface InferenceClientOptions extends Omit<OpenAICompatibleOptions, 'baseURL'> {
  engine: InferenceEngine;
  /** The server root (`http://127.0.0.1:8000`) or its OpenAI root (`…/v1`). */
  baseURL: string;
}

/** A served model: chat, completions, tokenize, metrics, health. */
export interface InferenceClient {
  readonly engine: InferenceEngine;
  /** The server root, without `/v1`. */
  readonly root: string;
  /** The OpenAI-compatible client (a ChatModel the agent loop can use). */
  readonly chat: OpenAICompatibleClient;
  /** POST /v1/completions. */
  completions(request: CompletionRequest, options?: ChatCallOptions): Promise<CompletionResponse>;
  /** POST /tokenize (vLLM), the OpenAI client's call. */
  tokenize(request: TokenizeRequest, options?: ChatCallOptions): Promise<TokenizeResponse>;
  /** GET /metrics, parsed. */
  metrics(options?: ChatCallOptions): Promise<ServerMetrics>;
  /** Polls GET /health until it answers 200. */
  waitHealthy(options?: HealthWaitOptions): Promise<HealthWaitResult>;
}

/**
 * Creates a client for a vLLM or SGLang server.
 *
 * @example
 * const client = createInferenceClient({ engine: 'vllm', baseURL: serve.baseURL, model: serve.servedModel });
 * await client.waitHealthy();
 * const { choices } = await client.completions({ prompt: [1, 2, 3], max_tokens: 1, prompt_logprobs: 0 });
 */
export function createInferenceClient(options: InferenceClientOptions): InferenceClient {
  const { engine, baseURL, ...rest } = options;
  const root = baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
  const chat = createOpenAICompatible({ ...rest, baseURL: `${root}/v1` });
  const fetchImpl = options.fetch ?? globalThis.fetch;
  return {
    engine,
    root,
    chat,
    async completions(request, callOptions) {
      const body = { ...request, model: request.model ?? options.model };
      if (body.model === undefined) delete body.model;
      const value = await chat.requestJson('/completions', body, callOptions);
      const parsed = CompletionResponseSchema.safeParse(value);
      if (!parsed.success)
        throw new HarnessAugmentError(
          `${engine} /v1/completions: unexpected response: ${parsed.error.issues[0]?.message ?? ''}`,
        );
      return parsed.data;
    },
    tokenize: (request, callOptions) => chat.tokenize(request, callOptions),
    async metrics(callOptions) {
      const response = await fetchImpl(
        `${root}/metrics`,
        callOptions?.signal ? { signal: callOptions.signal } : {},
      );
      if (!response.ok) {
        await response.body?.cancel();
        throw new HarnessAugmentError(`${root}/metrics answered HTTP ${response.status}`, { kind: 'usage' });
      }
      return parseServerMetrics(await response.text());
    },
    waitHealthy: (waitOptions) => waitForHealthy(`${root}/health`, { fetch: fetchImpl, ...waitOptions }),
  };
}
