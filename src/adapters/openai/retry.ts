// The retry policy of the OpenAI-compatible client as pure functions: which failures are worth another
// attempt, how long to wait (exponential backoff with jitter, or what the server asked for), and an
// abortable sleep. The client's loop (client.ts) only strings these together.

/** Backoff settings; every field has a default. */
export interface BackoffOptions {
  /** Delay before the first retry, in milliseconds (default 500). */
  initialMs?: number;
  /** Upper bound of a computed delay (default 20000). */
  maxMs?: number;
  /** Growth per attempt (default 2). */
  factor?: number;
  /** Share of the delay taken away at random, 0..1 (default 0.25): delay × (1 − jitter × random()). */
  jitter?: number;
  /** Upper bound of a server-requested delay (`Retry-After`), in milliseconds (default 60000). */
  maxRetryAfterMs?: number;
}

export const defaultBackoff: Required<BackoffOptions> = {
  initialMs: 500,
  maxMs: 20_000,
  factor: 2,
  jitter: 0.25,
  maxRetryAfterMs: 60_000,
};

/**
 * True for the statuses that a later attempt can fix: 408, 409, 429 and every 5xx. 400, 401, 403, 404, 422
 * and the other 4xx fail at once.
 *
 * @example
 * isRetryableStatus(429) // true
 * isRetryableStatus(400) // false
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The delay a server asked for, in milliseconds: `retry-after-ms` first, then `Retry-After` as seconds or
 * as an HTTP date (relative to `now`). Undefined when there is none or it cannot be read.
 *
 * @example
 * retryAfterMs(new Headers({ 'retry-after': '2' })) // 2000
 * retryAfterMs(new Headers({ 'retry-after-ms': '150' })) // 150
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null) {
    const value = Number(milliseconds.trim());
    if (milliseconds.trim() !== '' && Number.isFinite(value) && value >= 0) return value;
  }
  const header = headers.get('retry-after');
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The wait before retry number `retry` (1 for the first retry): the server's request when it made one
 * (capped at `maxRetryAfterMs`, no jitter), else `initialMs × factor^(retry−1)` capped at `maxMs`, less a
 * random share of up to `jitter`.
 *
 * @example
 * backoffDelay(3, { initialMs: 100, jitter: 0 }, () => 0.5) // 400
 * backoffDelay(1, {}, () => 0, 2000) // 2000 (Retry-After: 2)
 */
export function backoffDelay(
  retry: number,
  options: BackoffOptions,
  random: () => number,
  requestedMs?: number,
): number {
  const settings = { ...defaultBackoff, ...options };
  if (requestedMs !== undefined) return Math.min(requestedMs, settings.maxRetryAfterMs);
  const base = Math.min(settings.maxMs, settings.initialMs * settings.factor ** (retry - 1));
  const jitter = Math.min(1, Math.max(0, settings.jitter));
  return Math.round(base * (1 - jitter * random()));
}

/**
 * Waits `ms` milliseconds; rejects with the signal's reason as soon as it aborts.
 *
 * @example
 * await abortableSleep(500, controller.signal);
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const connectionCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * True when an error thrown by `fetch` or by reading a response body means the connection failed or was
 * cut: fetch's `TypeError` ("fetch failed", "terminated"), a socket error code anywhere in the cause
 * chain, or "socket hang up".
 *
 * @example
 * isConnectionError(new TypeError('fetch failed')) // true
 */
export function isConnectionError(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') break;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && connectionCodes.has(code)) return true;
    if (typeof message === 'string' && /socket hang up|other side closed|terminated/i.test(message))
      return true;
    current = cause;
  }
  return false;
}
