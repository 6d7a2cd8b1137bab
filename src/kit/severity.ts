// The rules that turn an operator's severity into how much it changes: how many existing items, how many new
// ones, how far a number moves, and a rate between two bounds. Operators name one of these; none computes it
// itself. At severity 0 `defineOperator` returns the harness unchanged, so these only matter above 0.

/**
 * How many of `total` items an operator changes at a severity: none at 0, at least one above 0, all at 1
 * (the share `severity`, rounded).
 *
 * @example
 * affectedCount(0.5, 5) // 3
 * affectedCount(0.01, 40) // 1
 */
export function affectedCount(severity: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(total, severityStep(severity, total));
}

/**
 * How many new items an operator adds, at most `most`: none at 0, at least one above 0, `most` at 1 (the
 * share `severity` of `most`, rounded up, so each band of severity adds one more).
 *
 * @example
 * addedCount(0.3, 4) // 2
 * addedCount(1, 4) // 4
 */
export function addedCount(severity: number, most: number): number {
  if (!(severity > 0) || !(most > 0)) return 0;
  return Math.min(most, Math.max(1, Math.ceil(severity * most)));
}

/**
 * How far a number (a budget, a threshold) moves at a severity: 0 at 0, at least 1 above 0, `full` rounded
 * at 1.
 *
 * @example
 * severityStep(0.5, 3) // 2
 * severityStep(0.1, 3) // 1
 */
export function severityStep(severity: number, full: number): number {
  if (!(severity > 0)) return 0;
  return Math.max(1, Math.round(severity * full));
}

/**
 * A rate that grows with severity from `least` (just above 0) to `most` (at 1), linearly.
 *
 * @example
 * severityBetween(0.5, 0.5, 1) // 0.75
 */
export function severityBetween(severity: number, least: number, most: number): number {
  return least + (most - least) * severity;
}
