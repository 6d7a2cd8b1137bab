// A piscina pool of augment worker threads, for `hsa augment --workers N` and the pipeline's SFT stage
// (`augment.threads`). The worker module sits beside this file in the source tree (.ts, run through tsx)
// and in dist/workers/ once built.
//
// With a variant pool and `mainThreadWorks` (`hsa augment --workers N`), N workers are the main thread and
// N - 1 worker threads: the main thread, which holds the run's pool anyway (`local`), augments its share
// in process instead of waiting for the threads, so --workers 2 starts one thread, not two (a thread's
// start-up and its cold caches are what a run pays for threads). The pipeline keeps its main thread free
// for the teacher's requests: N threads. The run's variant pool is shared, and each entry has an owner:
// worker k of N (0: the main thread when it works) owns the k-th of N equal runs of indexes (`ownerOf`).
// An example's variant index goes to the owner of the entry it draws, which builds the entry itself on
// first use and keeps its facts (the certificate's caches are per thread and keyed on the entry's
// objects): every entry is built, and its facts derived, in one thread, as on one thread. An entry a
// thread reaches without owning it (an example's next attempt, across the end of a run) it asks of the
// main thread over the task's port; the main thread builds it once. Entries are built from their seeds
// alone, so rows do not depend on which thread built what.
import { existsSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ExampleResult } from '../../augment/augment.js';
import { drawnEntry, type PoolEntryData, type VariantPool } from '../../augment/variant-pool.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { AugmentThreadSetup, AugmentWorkerDone } from './augment-worker.js';
import { serveEntries } from './entry-requests.js';
import { sentValidation } from './sent-validation.js';
import { createPartReceiver } from './shared-parts.js';
import { workerExecArgv } from './worker-exec-argv.js';

export type { AugmentThreadSetup } from './augment-worker.js';

export interface AugmentPool {
  /** The results of variant indexes 0 … variants - 1, in order. */
  augmentVariants(trajectory: Trajectory): Promise<ExampleResult[]>;
  /** The result of one variant index (a pipeline unit). */
  augmentVariant(trajectory: Trajectory, variantIndex: number): Promise<ExampleResult>;
  /** Examples to keep in flight: enough to keep every thread busy. */
  concurrency: number;
  /** Pool entries built so far, by every thread together (an index counts once). */
  entriesBuilt(): number;
  /** Worker threads running (with a variant pool, the main thread is one of the workers besides them). */
  threads(): number;
  close(): Promise<void>;
}

function workerFile(): string {
  // From source this module is augment-pool.ts. Built, it is bundled into dist/index.js, dist/cli/main.js
  // or a chunk beside either (the CLI imports each command's code when it runs): the worker is dist/workers/.
  if (import.meta.url.endsWith('.ts')) return new URL('./augment-worker.ts', import.meta.url).href;
  const built = ['./workers/augment-worker.js', '../workers/augment-worker.js'].map(
    (path) => new URL(path, import.meta.url),
  );
  return (built.find((url) => existsSync(url)) ?? (built[0] as URL)).href;
}

/**
 * Augments examples under one setup with `workers` workers. `local` is the main thread's own pool of the
 * same run (the same base, plan and seed): it builds the entries threads ask for, and with
 * `mainThreadWorks` the main thread is worker 0 (it augments the variants whose entries it owns) beside
 * `workers - 1` worker threads; otherwise, and without a variant pool, `workers` threads do the work.
 *
 * @example
 * const pool = createAugmentPool(setup, 4, variantPoolFor(harness, options)); try { … } finally { await pool.close(); }
 */
export function createAugmentPool(
  setup: AugmentThreadSetup,
  workers: number,
  local: VariantPool | undefined,
  options: { mainThreadWorks?: boolean } = {},
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
  const execArgv = workerExecArgv(process.execArgv, loader);
  // With a variant pool, one piscina of one thread per owner but the main thread: a task goes to the
  // thread that owns its entries. Without one, one piscina of every thread: any free thread takes the next
  // example (an example that holds its thread never holds up the examples queued after it).
  const piscina = (count: number) =>
    new Piscina({ filename, minThreads: count, maxThreads: count, ...(execArgv ? { execArgv } : {}) });
  const mainWorks = local !== undefined && options.mainThreadWorks === true;
  /** Owner k's piscina is pools[k - first]: owner 0 is the main thread when it works. */
  const first = mainWorks ? 1 : 0;
  const onMain = (owner: number) => owner < first;
  const pools = local ? Array.from({ length: workers - first }, () => piscina(1)) : [piscina(workers)];
  const receiver = createPartReceiver();
  const size = local ? setup.variantPool : 0;
  /** Entries each worker thread has built (its latest report). */
  const builtBy = new Array<number>(pools.length).fill(0);
  // An entry a thread does not own: built here, once, and kept for the next thread that asks.
  const here = new Map<number, Promise<PoolEntryData>>();
  const entryHere = (index: number): Promise<PoolEntryData> => {
    let found = here.get(index);
    if (!found) {
      found = (local as VariantPool).entryData(index);
      here.set(index, found);
    }
    return found;
  };

  /** Worker 0's share: the main thread's own pool, in process (no copy of the example or its rows). */
  async function runHere(trajectory: Trajectory, variantIndexes: number[]): Promise<ExampleResult[]> {
    const results: ExampleResult[] = [];
    for (const variantIndex of variantIndexes) {
      // A turn of the event loop first: a thread's results and its requests for entries (messages) are
      // taken between the main thread's variants, not after every example in flight.
      await new Promise<void>((resolve) => setImmediate(resolve));
      results.push(await (local as VariantPool).augment(trajectory, variantIndex));
    }
    return results;
  }

  async function runOn(
    thread: number,
    trajectory: Trajectory,
    variantIndexes: number[],
  ): Promise<ExampleResult[]> {
    const pool = pools[thread - first] as Piscina;
    const owns = ownedRange(thread, workers, size);
    const channel = local ? new MessageChannel() : undefined;
    if (channel) serveEntries(channel.port1, entryHere);
    try {
      const validation = sentValidation(trajectory);
      const task = {
        setup,
        trajectory,
        variantIndexes,
        owns,
        ...(validation ? { validation } : {}),
        ...(channel ? { port: channel.port2 } : {}),
      };
      const done = (await pool.run(
        task,
        channel ? { transferList: [channel.port2] } : {},
      )) as AugmentWorkerDone;
      builtBy[thread - first] = done.built;
      // Decoded as each task's result arrives: a thread's results in the order it sent them.
      return done.results.map((result) => receiver.receive(result));
    } finally {
      // Only once the task has settled: the thread awaits every answer before it returns.
      channel?.port1.close();
    }
  }

  async function augmentAt(trajectory: Trajectory, variantIndexes: number[]): Promise<ExampleResult[]> {
    if (!local) return runOn(0, trajectory, variantIndexes);
    // The variant indexes by the owner of the entry each draws; the results back in the order asked.
    const byOwner = new Map<number, number[]>();
    for (const variantIndex of variantIndexes) {
      const owner = ownerOf(drawnEntry(setup.seed, trajectory.id, variantIndex, size), workers, size);
      byOwner.set(owner, [...(byOwner.get(owner) ?? []), variantIndex]);
    }
    // The threads' tasks are posted before the main thread starts on its own share, which holds it.
    const owners = [...byOwner].sort(([a], [b]) => Number(onMain(a)) - Number(onMain(b)));
    const parts = await Promise.all(
      owners.map(async ([owner, indexes]) => ({
        indexes,
        results: await (onMain(owner) ? runHere(trajectory, indexes) : runOn(owner, trajectory, indexes)),
      })),
    );
    const at = new Map<number, ExampleResult>();
    for (const { indexes, results } of parts)
      for (const [position, variantIndex] of indexes.entries())
        at.set(variantIndex, results[position] as ExampleResult);
    return variantIndexes.map((variantIndex) => at.get(variantIndex) as ExampleResult);
  }
  const allIndexes = Array.from({ length: setup.variants }, (_, index) => index);
  return {
    augmentVariants: (trajectory) => augmentAt(trajectory, allIndexes),
    augmentVariant: async (trajectory, variantIndex) =>
      (await augmentAt(trajectory, [variantIndex]))[0] as ExampleResult,
    concurrency: workers * 2,
    // The main thread's pool holds the entries it built for its share and for the threads that asked.
    entriesBuilt: () => builtBy.reduce((sum, count) => sum + count, 0) + (local?.built() ?? 0),
    threads: () => pools.reduce((sum, pool) => sum + pool.threads.length, 0),
    close: async () => {
      await Promise.all(pools.map((pool) => pool.destroy()));
    },
  };
}

/**
 * The thread that owns pool entry `index`: thread k of `threads` owns the k-th of equal runs of indexes.
 * Runs rather than every N-th index, so that an example's next attempts (the following indexes) stay
 * with the same owner but at the end of a run.
 *
 * @example
 * ownerOf(200, 2, 256) // 1
 */
export function ownerOf(index: number, threads: number, size: number): number {
  return Math.min(threads - 1, Math.floor((index * threads) / size));
}

/** The indexes thread `thread` owns, `[from, to)`. */
export function ownedRange(thread: number, threads: number, size: number): [number, number] {
  return [Math.ceil((thread * size) / threads), Math.ceil(((thread + 1) * size) / threads)];
}
