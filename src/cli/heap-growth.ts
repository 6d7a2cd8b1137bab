// V8 lets the old generation grow to several times the live heap between full collections; on a long
// `hsa augment` run the live heap stays flat (~125 MB with `hat`) while peak RSS climbed past 700 MB at
// 10k rows. A 30% growing factor keeps the peak near the live heap at no measured CPU cost
// (notes/memory.md). A factor the user sets (`node --heap-growing-percent=N`, NODE_OPTIONS) wins.
import { setFlagsFromString } from 'node:v8';

/** The heap growing factor `hsa` runs with, unless the process was started with one. */
export const heapGrowingPercent = 30;

/**
 * Sets V8's heap growing factor for this process (threads included) unless it was set at start.
 *
 * @example
 * limitHeapGrowth(); // before any work
 */
export function limitHeapGrowth(): void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((argument) =>
    /^--heap[-_]growing[-_]percent/.test(argument),
  );
  if (!given) setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
}
