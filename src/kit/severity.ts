// The one rule that turns an operator's severity into how many items it changes.

/**
 * How many of `total` items an operator changes at a severity: none at 0, at least one above 0, all at 1
 * (the share `severity`, rounded).
 *
 * @example
 * affectedCount(0.5, 5) // 3
 * affectedCount(0.01, 40) // 1
 */
export function affectedCount(severity: number, total: number): number {
  if (!(severity > 0) || !(total > 0)) return 0;
  return Math.min(total, Math.max(1, Math.round(severity * total)));
}
