// The one parser of numeric CLI options: every count, duration, rate and size is checked against a lower
// and an upper bound here, so that no option value can ask for a billion workers, a run of 30,000 years or
// an array larger than memory. A bad value is a usage error (exit 2) naming the option and the bound.
import { HarnessAugmentError, quote } from '../harness/issues.js';

/**
 * Parses a count option within `[0, max]`.
 *
 * @example
 * nonNegativeInteger('--variants', '8', 10_000) // 8
 */
export function nonNegativeInteger(name: string, text: string, max = 1_000_000): number {
  const value = /^\s*[\d.eE+]+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isInteger(value) && value > max) throw tooBig(name, text, max);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new HarnessAugmentError(`${name} must be a non-negative integer, got ${quote(text)}`, {
      kind: 'usage',
    });
  }
  return value;
}

/**
 * Parses a count option within `[1, max]`.
 *
 * @example
 * positiveInteger('--concurrency', '4', 1024) // 4
 */
export function positiveInteger(name: string, text: string, max = 1_000_000): number {
  const value = nonNegativeInteger(name, text, max);
  if (value < 1) throw new HarnessAugmentError(`${name} must be at least 1, got ${text}`, { kind: 'usage' });
  return value;
}

/**
 * Parses a real-number option (seconds, a rate, a temperature) within `(0, max]`, or `[min, max]` when
 * `min` is given.
 *
 * @example
 * boundedNumber('--duration', '90', { max: 86_400 }) // 90
 * boundedNumber('--temperature', '0', { min: 0, max: 2 }) // 0
 */
export function boundedNumber(name: string, text: string, bounds: { min?: number; max: number }): number {
  const value = /^\s*[-+]?[\d.]+(?:[eE][-+]?\d+)?\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value))
    throw new HarnessAugmentError(`${name} must be a number, got ${quote(text)}`, { kind: 'usage' });
  if (value > bounds.max) throw tooBig(name, text, bounds.max);
  if (bounds.min === undefined ? !(value > 0) : value < bounds.min)
    throw new HarnessAugmentError(
      `${name} must be ${bounds.min === undefined ? 'a positive number' : `at least ${bounds.min}`}, got ${quote(text)}`,
      { kind: 'usage' },
    );
  return value;
}

/** Upper bounds shared by several commands (each command's own bounds are in its option text). */
export const optionBounds = {
  /** Worker threads: each holds a copy of the harness and the operators; outputs do not depend on it. */
  workers: 64,
  /** Seconds of a timed run (`latency --duration`): one day. */
  durationSeconds: 86_400,
  /** Seconds of one request's timeout or deadline: one hour. */
  requestSeconds: 3_600,
} as const;

function tooBig(name: string, text: string, max: number): HarnessAugmentError {
  return new HarnessAugmentError(`${name} must be at most ${max}, got ${text}`, { kind: 'usage' });
}

/**
 * The client options of `--timeout <seconds>`: the deadline of one model call, retries and waits included;
 * no attempt lasts longer either. Absent: the client's defaults (60 s per call).
 *
 * @example
 * endpointTimeout('20') // { deadlineMs: 20000, timeoutMs: 20000 }
 */
export function endpointTimeout(text: string | undefined): { deadlineMs?: number; timeoutMs?: number } {
  if (text === undefined) return {};
  const ms = Math.round(boundedNumber('--timeout', text, { max: optionBounds.requestSeconds }) * 1000);
  return { deadlineMs: ms, timeoutMs: ms };
}
