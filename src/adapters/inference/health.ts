// Waits for an inference server to come up: GET its health URL until it answers 200, with a growing pause
// between polls, an overall deadline and the caller's abort. Loading a model takes minutes; a refused
// connection or a 503 while it loads is the normal answer, not an error.
import { HarnessAugmentError } from '../../harness/issues.js';
import { abortableSleep } from '../openai/retry.js';

export interface HealthWaitOptions {
  /** Give up after this long, in ms (default 15 minutes). */
  timeoutMs?: number;
  /** First pause between polls, in ms (default 250); it doubles up to `maxIntervalMs`. */
  intervalMs?: number;
  /** Longest pause between polls, in ms (default 5000). */
  maxIntervalMs?: number;
  /** Longest wait for one poll's answer, in ms (default 5000). */
  pollTimeoutMs?: number;
  signal?: AbortSignal;
  fetch?: typeof globalThis.fetch;
  /** Clock in ms (default `performance.now`). */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What the wait saw. */
export interface HealthWaitResult {
  polls: number;
  ms: number;
}

/**
 * Polls `url` until it answers 200; throws a usage error naming the last answer when the deadline passes.
 *
 * @example
 * const serve = buildVllmServeCommand({ model: 'Qwen/Qwen3-0.6B' });
 * spawn(serve.command, serve.args);
 * await waitForHealthy(serve.healthURL, { timeoutMs: 600_000 });
 */
export async function waitForHealthy(
  url: string,
  options: HealthWaitOptions = {},
): Promise<HealthWaitResult> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? abortableSleep;
  const timeoutMs = options.timeoutMs ?? 15 * 60_000;
  const maxInterval = options.maxIntervalMs ?? 5000;
  const pollTimeoutMs = options.pollTimeoutMs ?? 5000;
  const started = now();
  let interval = options.intervalMs ?? 250;
  let last = 'no answer yet';
  for (let polls = 1; ; polls++) {
    options.signal?.throwIfAborted();
    const signals = [AbortSignal.timeout(pollTimeoutMs), ...(options.signal ? [options.signal] : [])];
    try {
      const response = await fetchImpl(url, { signal: AbortSignal.any(signals) });
      await response.body?.cancel();
      if (response.status === 200) return { polls, ms: now() - started };
      last = `HTTP ${response.status}`;
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const cause = (error as { cause?: { code?: string } }).cause;
      last = cause?.code ?? (error as Error).message ?? String(error);
    }
    const left = timeoutMs - (now() - started);
    if (left <= 0)
      throw new HarnessAugmentError(
        `${url} did not answer 200 within ${Math.round(timeoutMs / 1000)} s (${polls} polls; last: ${last})`,
        { kind: 'usage' },
      );
    await sleep(Math.min(interval, left), options.signal);
    interval = Math.min(interval * 2, maxInterval);
  }
}
