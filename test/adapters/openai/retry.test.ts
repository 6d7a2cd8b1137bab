// The retry policy as pure functions: retryable statuses, Retry-After in its three forms, backoff growth,
// cap and jitter, connection-error detection, and the abortable sleep.
import { describe, expect, it } from 'vitest';
import {
  abortableSleep,
  backoffDelay,
  isConnectionError,
  isRetryableStatus,
  retryAfterMs,
} from '../../../src/adapters/openai/retry.js';

describe('isRetryableStatus', () => {
  it('retries 408, 409, 429 and 5xx, never the other 4xx', () => {
    expect([408, 409, 429, 500, 502, 503, 504, 599].map(isRetryableStatus)).toEqual(Array(8).fill(true));
    expect([400, 401, 403, 404, 405, 413, 422].map(isRetryableStatus)).toEqual(Array(7).fill(false));
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7000);
  });

  it('prefers retry-after-ms, clamps past dates to 0, ignores garbage', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '120', 'retry-after': '9' }), now)).toBe(120);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('grows by the factor and stops at maxMs', () => {
    const options = { initialMs: 100, factor: 3, maxMs: 2000, jitter: 0 };
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, options, () => 0.9))).toEqual([
      100, 300, 900, 2000, 2000,
    ]);
  });

  it('takes away up to the jitter share', () => {
    expect(backoffDelay(1, { initialMs: 1000, jitter: 0.25 }, () => 0)).toBe(1000);
    expect(backoffDelay(1, { initialMs: 1000, jitter: 0.25 }, () => 0.5)).toBe(875);
    expect(backoffDelay(1, { initialMs: 1000, jitter: 0.25 }, () => 0.999)).toBe(750);
  });

  it('uses the server-requested wait without jitter, capped at maxRetryAfterMs', () => {
    expect(backoffDelay(3, { jitter: 1 }, () => 0.5, 1500)).toBe(1500);
    expect(backoffDelay(1, { maxRetryAfterMs: 5000 }, () => 0.5, 3_600_000)).toBe(5000);
  });
});

describe('isConnectionError', () => {
  it('recognises fetch failures and socket codes in the cause chain', () => {
    expect(isConnectionError(new TypeError('fetch failed'))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('x'), { cause: { code: 'ECONNRESET' } }))).toBe(true);
    expect(isConnectionError(new Error('socket hang up'))).toBe(true);
    expect(isConnectionError(new SyntaxError('Unexpected token'))).toBe(false);
    expect(isConnectionError(new Error('boom'))).toBe(false);
  });
});

describe('abortableSleep', () => {
  it('rejects with the abort reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
    await expect(abortableSleep(10, controller.signal)).rejects.toBe(reason);
  });
});
