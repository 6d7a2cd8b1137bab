// A job queue held in this process: the same contract as the Redis one (idempotent job ids, results as
// JSON, failures as reasons), run by a processor with bounded concurrency. For tests and for trying the
// queued path of the pipeline without a Redis server.
import { type JobQueueV1, type UnitJob, type UnitJobProcessor, unitJobId } from './job-queue.js';

/** An in-process job queue (`createMemoryJobQueue`) and how many jobs it accepted. */
export interface MemoryJobQueue extends JobQueueV1 {
  /** Jobs ever accepted (a job added twice counts once). */
  readonly accepted: number;
}

/**
 * Makes an in-process job queue whose jobs `process` runs, `concurrency` at a time.
 *
 * @example
 * const queue = createMemoryJobQueue({ process: createUnitProcessor({ dependencies }).process });
 * await runPipeline(config, dependencies, { queue });
 */
export function createMemoryJobQueue(options: {
  process: UnitJobProcessor;
  concurrency?: number;
}): MemoryJobQueue {
  const limit = Math.max(1, options.concurrency ?? 4);
  const results = new Map<string, Promise<unknown>>();
  const waiting: Array<() => void> = [];
  let running = 0;
  let accepted = 0;
  const slot = async () => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
  };
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  const start = async (job: UnitJob) => {
    await slot();
    try {
      // Through JSON, as a result stored in Redis is.
      return JSON.parse(JSON.stringify(await options.process(job))) as unknown;
    } finally {
      release();
    }
  };
  return {
    specificationVersion: 'v1',
    name: 'memory',
    get accepted() {
      return accepted;
    },
    async add(jobs) {
      for (const job of jobs) {
        const id = unitJobId(job.runHash, job.unit, job.folder);
        if (results.has(id)) continue;
        accepted++;
        const result = start(structuredClone(job));
        result.catch(() => {});
        results.set(id, result);
      }
    },
    async result(runHash, unit, options = {}) {
      const id = unitJobId(runHash, unit, options.folder);
      const result = results.get(id);
      if (!result) throw new Error(`no job ${id} in the queue`);
      return result;
    },
    async forget(runHash, units, options = {}) {
      for (const unit of units) results.delete(unitJobId(runHash, unit, options.folder));
    },
    async close() {
      results.clear();
    },
  };
}
