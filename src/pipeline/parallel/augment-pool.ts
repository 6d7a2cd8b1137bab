// A piscina pool of augment worker threads, for `hsa augment --workers N` and the pipeline's SFT stage
// (`augment.threads`). The worker module sits beside this file in the source tree (.ts, run through tsx)
// and in dist/workers/ once built.
//
// The run's variant pool is shared, so N threads do its work once between them: before an example is
// sent, the main thread has a thread build each entry it draws first (a `build` task, once per entry);
// a thread asks the main thread, over the task's port, for each entry it does not hold yet (once per
// thread and entry), and the main thread builds itself, once, any entry not built yet (an example's next
// attempts). Entries are built from their seeds alone, so rows do not depend on which thread built what.
import { existsSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { Piscina, type PiscinaTask, type TaskQueue } from 'piscina';
import type { ExampleResult } from '../../augment/augment.js';
import { drawnEntry, type PoolEntryData, type VariantPool } from '../../augment/variant-pool.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { AugmentThreadSetup } from './augment-worker.js';
import { createPartReceiver, type SentResult } from './shared-parts.js';

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

/** Where a task stands in line: the sequence number of the example it serves (earlier examples first). */
interface Order {
  order: number;
}

/**
 * Piscina's queue, served in the order of the examples rather than of the tasks: an example's task
 * goes before the pool-entry builds of later examples, queued earlier. Without it a window of examples
 * queues its builds first, and the first example comes back only when every build is done.
 */
class ExampleOrderQueue implements TaskQueue {
  private readonly tasks: Array<{ task: PiscinaTask; order: number; pushed: number }> = [];
  private pushed = 0;
  get size(): number {
    return this.tasks.length;
  }
  push(task: PiscinaTask): void {
    const options = (task as unknown as Record<symbol, Order | null | undefined>)[Piscina.queueOptionsSymbol];
    const order = options?.order ?? Number.POSITIVE_INFINITY;
    const entry = { task, order, pushed: this.pushed++ };
    // Sorted by (order, pushed): the queue holds about a window of tasks, so an insertion is cheap.
    let at = this.tasks.length;
    while (at > 0 && (this.tasks[at - 1] as { order: number }).order > order) at--;
    this.tasks.splice(at, 0, entry);
  }
  shift(): PiscinaTask | null {
    return this.tasks.shift()?.task ?? null;
  }
  remove(task: PiscinaTask): void {
    const at = this.tasks.findIndex((entry) => entry.task === task);
    if (at >= 0) this.tasks.splice(at, 1);
  }
}

/** A task with its place in line (the symbol-keyed property is not sent to the thread). */
const inLine = <T extends object>(task: T, order: number): T => ({
  ...task,
  [Piscina.queueOptionsSymbol]: { order } satisfies Order,
});

/**
 * Starts `threads` worker threads that augment examples under one setup. `local` is the main thread's own
 * pool of the same run (the same base, plan and seed): it builds the entries threads ask for.
 *
 * @example
 * const pool = createAugmentPool(setup, 4, variantPoolFor(harness, options)); try { … } finally { await pool.close(); }
 */
export function createAugmentPool(
  setup: AugmentThreadSetup,
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
    taskQueue: new ExampleOrderQueue(),
  });
  let examples = 0;
  const receiver = createPartReceiver();
  // Decoded as each task's result arrives: a thread's results in the order it sent them.
  const received = (sent: unknown) => (sent as SentResult[]).map((result) => receiver.receive(result));
  const size = local ? setup.variantPool : 0;
  // Each entry once, by index: a thread's build task, or the main thread's own build.
  const entries = new Map<number, Promise<PoolEntryData>>();
  const done = new Map<number, PoolEntryData>();
  const once = (index: number, build: () => Promise<PoolEntryData>): Promise<PoolEntryData> => {
    let found = entries.get(index);
    if (!found) {
      found = build().then((entry) => {
        done.set(index, entry);
        return entry;
      });
      entries.set(index, found);
    }
    return found;
  };
  const inThread = (index: number, order: number) =>
    once(index, () => pool.run(inLine({ setup, build: index }, order)) as Promise<PoolEntryData>);
  // A thread asking for an entry holds its thread: it must never wait for a build task queued behind
  // others (every thread could be waiting so). An entry not built yet is built here (the main thread's
  // pool builds each once), even when a thread's build of it is still queued: both give the same data.
  const here = (index: number): Promise<PoolEntryData> => {
    const built = done.get(index);
    if (built) return Promise.resolve(built);
    return (local as VariantPool).entryData(index).then((entry) => {
      if (!entries.has(index)) entries.set(index, Promise.resolve(entry));
      done.set(index, entry);
      return entry;
    });
  };

  async function augmentAt(trajectory: Trajectory, variantIndexes: number[]): Promise<ExampleResult[]> {
    const order = examples++;
    if (!local) return received(await pool.run(inLine({ setup, trajectory, variantIndexes }, order)));
    const drawn = new Set<number>();
    for (const variantIndex of variantIndexes)
      drawn.add(drawnEntry(setup.seed, trajectory.id, variantIndex, size));
    // Built before the example is sent: a thread waiting for an entry must never wait for a free thread.
    await Promise.all([...drawn].map((index) => inThread(index, order)));
    const channel = new MessageChannel();
    channel.port1.on('message', ({ need }: { need: number }) => {
      here(need).then(
        (entry) => channel.port1.postMessage({ index: need, entry }),
        (error: Error) => channel.port1.postMessage({ index: need, error: error.message }),
      );
    });
    try {
      return received(
        await pool.run(inLine({ setup, trajectory, variantIndexes, port: channel.port2 }, order), {
          transferList: [channel.port2],
        }),
      );
    } finally {
      channel.port1.close();
    }
  }
  const allIndexes = Array.from({ length: setup.variants }, (_, index) => index);
  return {
    augmentVariants: (trajectory) => augmentAt(trajectory, allIndexes),
    augmentVariant: async (trajectory, variantIndex) =>
      (await augmentAt(trajectory, [variantIndex]))[0] as ExampleResult,
    concurrency: threads * 2,
    entriesBuilt: () => entries.size,
    close: () => pool.destroy(),
  };
}
