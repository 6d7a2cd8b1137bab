// A piscina pool of augment worker threads, for `hsa augment --workers N`. The worker module sits beside
// this file in the source tree (.ts, run through tsx) and in dist/cli/workers/ once built.
import { Piscina } from 'piscina';
import type { ExampleResult } from '../../augment/augment.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { AugmentWorkerSetup } from './augment-worker.js';

export interface AugmentPool {
  augmentVariants(trajectory: Trajectory): Promise<ExampleResult[]>;
  /** Examples to keep in flight: enough to keep every thread busy. */
  concurrency: number;
  close(): Promise<void>;
}

function workerFile(): string {
  // From source this module is augment-pool.ts; bundled, it is part of dist/cli/main.js.
  return import.meta.url.endsWith('.ts')
    ? new URL('./augment-worker.ts', import.meta.url).href
    : new URL('./workers/augment-worker.js', import.meta.url).href;
}

/**
 * Starts `threads` worker threads that augment examples under one setup.
 *
 * @example
 * const pool = createAugmentPool(setup, 4); try { … } finally { await pool.close(); }
 */
export function createAugmentPool(setup: AugmentWorkerSetup, threads: number): AugmentPool {
  const filename = workerFile();
  // From source (tests, `tsx`), a worker needs the TypeScript loader unless the process already has one.
  const loader =
    filename.endsWith('.ts') && !process.execArgv.some((argument) => argument.includes('tsx'))
      ? ['--import', 'tsx']
      : [];
  const pool = new Piscina({
    filename,
    minThreads: threads,
    maxThreads: threads,
    execArgv: [...process.execArgv, ...loader],
  });
  return {
    augmentVariants: (trajectory) => pool.run({ setup, trajectory }) as Promise<ExampleResult[]>,
    concurrency: threads * 2,
    close: () => pool.destroy(),
  };
}
