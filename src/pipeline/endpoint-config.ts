// The configuration of an OpenAI-compatible endpoint, as the pipeline's teacher and judges and `hsa augment
// --judge` declare it.
import { z } from 'zod';

/**
 * An OpenAI-compatible endpoint: where, which model, the API key's environment variable, and the client's
 * time limits and retries.
 *
 * @example
 * EndpointSchema.parse({ baseURL: 'http://127.0.0.1:8000/v1', model: 'qwen3-32b', apiKeyEnv: 'JUDGE_API_KEY' });
 */
export const EndpointSchema = z.strictObject({
  baseURL: z.url().describe('OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1'),
  model: z.string().min(1),
  apiKeyEnv: z.string().min(1).optional().describe('Environment variable that holds the API key.'),
  /** Per request, ms (the client's default: 60 s). At most an hour. */
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
  maxRetries: z.number().int().min(0).max(20).optional(),
  /** The whole call, retries and waits included, ms (the client's default: 60 s). At most an hour. */
  deadlineMs: z.number().int().positive().max(3_600_000).optional(),
  /** Exponential backoff between retries (the client's defaults: 500 ms doubling up to 20 s). */
  backoff: z
    .strictObject({
      initialMs: z.number().int().min(0).max(600_000).optional(),
      maxMs: z.number().int().min(0).max(600_000).optional(),
    })
    .optional(),
  temperature: z.number().min(0).optional(),
  maxTokens: z.number().int().positive().max(10_000_000).optional(),
});

/** An OpenAI-compatible endpoint as a configuration declares it, defaults applied (`EndpointSchema`). */
export type EndpointConfig = z.output<typeof EndpointSchema>;
