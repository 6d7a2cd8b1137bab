// A piscina pool of augment worker threads, for `hsa augment --workers N`. The worker module sits beside
// this file in the source tree (.ts, run through tsx) and in dist/cli/workers/ once built.
import { existsSync } from 'node:fs';
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
  // From source this module is augment-pool.ts. Built, it is in dist/cli/main.js or, loaded on demand, in a
  // chunk at dist/ (the CLI imports each command's code when it runs): the worker is dist/cli/workers/.
  if (import.meta.url.endsWith('.ts')) return new URL('./augment-worker.ts', import.meta.url).href;
  const built = ['./workers/augment-worker.js', './cli/workers/augment-worker.js'].map(
    (path) => new URL(path, import.meta.url),
  );
  return (built.find((url) => existsSync(url)) ?? (built[0] as URL)).href;
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
