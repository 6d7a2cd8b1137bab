// The one error class of the OpenAI-compatible client: what went wrong (an HTTP status, a dropped
// connection, a timeout, a response that is not the protocol), whether retrying can help, and how many
// attempts were made. It is a HarnessAugmentError of kind `usage`, so the CLI prints it as one line and
// exits with the I/O code instead of printing a stack trace.
import { HarnessAugmentError } from '../../harness/issues.js';

/** What kind of failure it was. */
export type OpenAICompatibleErrorCode =
  | 'http_error'
  | 'connection_error'
  | 'timeout'
  | 'invalid_response'
  | 'stream_error';

const marker = Symbol.for('harness-augment.openai-compatible-error');

/** The longest response body an error keeps, in characters. */
export const maxErrorBodyLength = 2000;

export interface OpenAICompatibleErrorOptions {
  code: OpenAICompatibleErrorCode;
  method: string;
  url: string;
  isRetryable: boolean;
  attempts?: number;
  statusCode?: number;
  responseBody?: string;
  /** Milliseconds the server asked us to wait (`retry-after-ms` / `Retry-After`). */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * A failed call to an OpenAI-compatible endpoint. `attempts` counts every HTTP attempt made for the call,
 * retries included; `responseBody` is the server's answer, cut to {@link maxErrorBodyLength} characters.
 *
 * @example
 * try { await client.complete(request); }
 * catch (error) { if (OpenAICompatibleError.isInstance(error)) console.log(error.statusCode, error.attempts); }
 */
export class OpenAICompatibleError extends HarnessAugmentError {
  readonly [marker] = true;
  readonly code: OpenAICompatibleErrorCode;
  readonly method: string;
  readonly url: string;
  readonly isRetryable: boolean;
  readonly statusCode?: number;
  readonly responseBody?: string;
  readonly retryAfterMs?: number;
  /** HTTP attempts made for the call; set when the client gives up. */
  attempts: number;
  /** The message without the attempt count, so that the count can be updated. */
  private detail: string;

  constructor(detail: string, options: OpenAICompatibleErrorOptions) {
    super(detail, { kind: 'usage', cause: options.cause });
    this.name = 'OpenAICompatibleError';
    this.detail = detail;
    this.code = options.code;
    this.method = options.method;
    this.url = options.url;
    this.isRetryable = options.isRetryable;
    this.attempts = options.attempts ?? 1;
    if (options.statusCode !== undefined) this.statusCode = options.statusCode;
    if (options.responseBody !== undefined) this.responseBody = truncate(options.responseBody);
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    this.message = this.compose();
    this.issues.push({ code: this.code, path: [], message: this.message });
  }

  /** Records the final attempt count and refreshes the message. */
  withAttempts(attempts: number): this {
    this.attempts = attempts;
    this.message = this.compose();
    if (this.issues[0]) this.issues[0].message = this.message;
    return this;
  }

  /** Says that the call gave up because the next wait would pass its deadline; refreshes the message. */
  pastDeadline(deadlineMs: number, waitMs: number): this {
    this.detail = `${this.detail}; gave up: the next try (in ${waitMs} ms) would pass the call's deadline of ${deadlineMs} ms`;
    this.message = this.compose();
    if (this.issues[0]) this.issues[0].message = this.message;
    return this;
  }

  private compose(): string {
    const tries = this.attempts === 1 ? '1 attempt' : `${this.attempts} attempts`;
    return `${this.method} ${this.url}: ${this.detail} (${tries})`;
  }

  static override isInstance(value: unknown): value is OpenAICompatibleError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}

function truncate(text: string): string {
  return text.length <= maxErrorBodyLength ? text : `${text.slice(0, maxErrorBodyLength)}… [truncated]`;
}

/**
 * The server's own message in an error body (`{ error: { message } }` or `{ message }`), if it has one.
 *
 * @example
 * serverMessage('{"error":{"message":"bad model"}}') // 'bad model'
 */
export function serverMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === 'object' && typeof parsed.error?.message === 'string')
      return parsed.error.message;
    if (typeof parsed.error === 'string') return parsed.error;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // Not JSON: the caller shows the start of the raw body instead.
  }
  return undefined;
}
