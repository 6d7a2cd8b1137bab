// V8 lets the old generation grow to several times the live heap between full collections; on a long
// `hsa augment` run the live heap stays flat (~125 MB with `hat`) while peak RSS climbed past 700 MB at
// 10k rows. A 30% growing factor keeps the peak near the live heap at no measured CPU cost
// (docs/decisions/0012-heap-growing-factor.md). A factor the user sets (`node --heap-growing-percent=N`) wins;
// Node refuses the flag in NODE_OPTIONS, so the command line is the one place to look.
import { setFlagsFromString } from 'node:v8';

/** The heap growing factor `hsa` runs with, unless the process was started with one. */
export const heapGrowingPercent = 30;

/**
 * Sets V8's heap growing factor for this process (threads included) unless it was set at start. V8 reads
 * the factor at each full collection, so setting it at run time takes effect from the next one.
 *
 * @example
 * limitHeapGrowth(); // before any work
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  const given = execArgv.some((argument) => /^--heap[-_]growing[-_]percent/.test(argument));
  if (!given) setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
}
