// Turns a configured endpoint (src/pipeline/endpoint-config.ts) into a client and the request fields every
// call to it carries. Translation only.
import type { EndpointConfig } from '../pipeline/endpoint-config.js';
import type { ChatRequest } from '../runtime/chat-model.js';
import { createOpenAICompatible, type OpenAICompatibleClient } from './openai/index.js';

/**
 * The OpenAI-compatible client of a configured endpoint, with its API key read from `env`.
 *
 * @example
 * const client = endpointClient({ baseURL: 'http://127.0.0.1:8000/v1', model: 'qwen3-32b' }, process.env);
 */
export function endpointClient(
  endpoint: EndpointConfig,
  env: Record<string, string | undefined>,
): OpenAICompatibleClient {
  const apiKey = endpoint.apiKeyEnv ? env[endpoint.apiKeyEnv] : undefined;
  return createOpenAICompatible({
    baseURL: endpoint.baseURL,
    ...(apiKey ? { apiKey } : {}),
    ...(endpoint.timeoutMs !== undefined ? { timeoutMs: endpoint.timeoutMs } : {}),
    ...(endpoint.maxRetries !== undefined ? { maxRetries: endpoint.maxRetries } : {}),
    ...(endpoint.deadlineMs !== undefined ? { deadlineMs: endpoint.deadlineMs } : {}),
    ...(endpoint.backoff ? { backoff: endpoint.backoff } : {}),
  });
}

/**
 * The request fields of a configured endpoint: the model and its sampling options.
 *
 * @example
 * endpointRequest({ baseURL, model: 'qwen3-32b', temperature: 0 }) // { model: 'qwen3-32b', temperature: 0 }
 */
export function endpointRequest(endpoint: EndpointConfig): Omit<ChatRequest, 'messages' | 'tools'> {
  return {
    model: endpoint.model,
    ...(endpoint.temperature !== undefined ? { temperature: endpoint.temperature } : {}),
    ...(endpoint.maxTokens !== undefined ? { max_tokens: endpoint.maxTokens } : {}),
  };
}
