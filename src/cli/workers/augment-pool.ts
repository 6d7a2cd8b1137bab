// A piscina pool of augment worker threads, for `hsa augment --workers N`. The worker module sits beside
// this file in the source tree (.ts, run through tsx) and in dist/cli/workers/ once built.
//
// The run's variant pool is shared, so N threads do its work once between them: before an example is
// sent, the main thread has a thread build each entry it draws first (a `build` task, once per entry);
// a thread asks the main thread, over the task's port, for each entry it does not hold yet (once per
// thread and entry), and the main thread builds itself, once, any entry not built yet (an example's next
// attempts). Entries are built from their seeds alone, so rows do not depend on which thread built what.
import { existsSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ExampleResult } from '../../augment/augment.js';
import { drawnEntry, type PoolEntryData, type VariantPool } from '../../augment/variant-pool.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { AugmentWorkerSetup } from './augment-worker.js';

export interface AugmentPool {
  augmentVariants(trajectory: Trajectory): Promise<ExampleResult[]>;
  /** Examples to keep in flight: enough to keep every thread busy. */
  concurrency: number;
  /** Pool entries built so far, by every thread together (each entry is built once). */
  entriesBuilt(): number;
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
 * Starts `threads` worker threads that augment examples under one setup. `local` is the main thread's own
 * pool of the same run (the same base, plan and seed): it builds the entries threads ask for.
 *
 * @example
 * const pool = createAugmentPool(setup, 4, variantPoolFor(harness, options)); try { … } finally { await pool.close(); }
 */
export function createAugmentPool(
  setup: AugmentWorkerSetup,
  threads: number,
  local: VariantPool | undefined,
): AugmentPool {
  if (setup.variantPool > 0 && !local)
    throw new Error(
      "createAugmentPool: a run with a variant pool needs the main thread's copy of it (`local`)",
    );
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
  const size = local ? setup.variantPool : 0;
  // Each entry once, by index: a thread's build task, or the main thread's own build.
  const entries = new Map<number, Promise<PoolEntryData>>();
  const once = (index: number, build: () => Promise<PoolEntryData>): Promise<PoolEntryData> => {
    let found = entries.get(index);
    if (!found) {
      found = build();
      entries.set(index, found);
    }
    return found;
  };
  const inThread = (index: number) =>
    once(index, () => pool.run({ setup, build: index }) as Promise<PoolEntryData>);
  const here = (index: number) => once(index, () => (local as VariantPool).entryData(index));

  async function augmentVariants(trajectory: Trajectory): Promise<ExampleResult[]> {
    if (!local) return (await pool.run({ setup, trajectory })) as ExampleResult[];
    const drawn = new Set<number>();
    for (let variantIndex = 0; variantIndex < setup.variants; variantIndex++)
      drawn.add(drawnEntry(setup.seed, trajectory.id, variantIndex, size));
    // Built before the example is sent: a thread waiting for an entry must never wait for a free thread.
    await Promise.all([...drawn].map(inThread));
    const channel = new MessageChannel();
    channel.port1.on('message', ({ need }: { need: number }) => {
      here(need).then(
        (entry) => channel.port1.postMessage({ index: need, entry }),
        (error: Error) => channel.port1.postMessage({ index: need, error: error.message }),
      );
    });
    try {
      return (await pool.run(
        { setup, trajectory, port: channel.port2 },
        { transferList: [channel.port2] },
      )) as ExampleResult[];
    } finally {
      channel.port1.close();
    }
  }
  return {
    augmentVariants,
    concurrency: threads * 2,
    entriesBuilt: () => entries.size,
    close: () => pool.destroy(),
  };
}
