// BullMQ, an optional peer dependency: loaded only by `--queue` and `hsa worker`, so that a library user
// installs neither it nor its native add-on; missing, it fails with one line saying what to install.
import type * as BullMQ from 'bullmq';
import { HarnessAugmentError } from '../../harness/issues.js';

/** The line printed when bullmq is not installed. */
export const missingBullmqMessage =
  'the queue (--queue, hsa worker) needs bullmq and ioredis, optional peer dependencies: npm install bullmq@^6 ioredis@^6';

let loaded: Promise<typeof BullMQ> | undefined;

/**
 * BullMQ's module, imported on first use.
 *
 * @example
 * const { Queue } = await loadBullmq();
 */
export function loadBullmq(): Promise<typeof BullMQ> {
  loaded ??= (async () => {
    // A variable, not a literal: the bundle must not resolve it at build time.
    const specifier = 'bullmq';
    try {
      return (await import(specifier)) as typeof BullMQ;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
        throw new HarnessAugmentError(missingBullmqMessage, { kind: 'usage' });
      throw error;
    }
  })();
  return loaded;
}
