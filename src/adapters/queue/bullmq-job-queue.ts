// The pipeline's job queue on BullMQ: a run's units become jobs whose ids come from the run hash, the
// coordinator's output folder and the unit index (adding them again adds nothing), with BullMQ's own attempts and exponential backoff; results
// are the jobs' return values, awaited through QueueEvents, which also carry the progress.

import type { Job as BullJob } from 'bullmq';
import type { JobQueueV1, UnitJob } from '../../pipeline/job-queue.js';
import { unitJobId } from '../../pipeline/job-queue.js';
import { loadBullmq } from './load-bullmq.js';
import { defaultQueueName } from './queue-name.js';
import {
  describeRedisUrl,
  endRedisClient,
  probeRedis,
  type RedisOutageEvent,
  redisClient,
  watchRedisOutages,
} from './redis-connection.js';

/** The BullMQ job name of an SFT unit. */
export const unitJobName = 'sft-unit';

/**
 * Options of `createBullJobQueue`: the Redis URL and queue name, the retry policy of its jobs, and progress
 * callbacks.
 */
export interface BullJobQueueOptions {
  /** `redis://host:port[/db]`. */
  url: string;
  /** BullMQ queue name (default `hsa-sft`); workers must use the same. */
  name?: string;
  /** Tries per job before it fails for good (BullMQ `attempts`, default 3). */
  attempts?: number;
  /** First wait of the exponential backoff between tries, in ms (BullMQ `backoff`, default 1000). */
  backoffMs?: number;
  /** How long the first connection may take before the run stops with a usage error (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Called when a worker finishes a job of this queue (QueueEvents `completed`), for progress. */
  onCompleted?: (jobId: string) => void;
  /** Told once when Redis becomes unreachable during the run, and once when it is back. */
  onRedisOutage?: (event: RedisOutageEvent) => void;
}

/**
 * Opens the pipeline's BullMQ queue on Redis (failing fast when Redis cannot be reached).
 *
 * @example
 * const queue = await createBullJobQueue({ url: 'redis://127.0.0.1:6379' });
 * await runPipeline(config, dependencies, { queue });
 * await queue.close();
 */
export async function createBullJobQueue(options: BullJobQueueOptions): Promise<JobQueueV1> {
  const { Job, Queue, QueueEvents } = await loadBullmq();
  await probeRedis(options.url, options.connectTimeoutMs ? { timeoutMs: options.connectTimeoutMs } : {});
  const name = options.name ?? defaultQueueName;
  const outage = watchRedisOutages(options.url, options.onRedisOutage ?? (() => {}));
  const queueClient = await redisClient(options.url, { outage });
  const eventsClient = await redisClient(options.url, { outage });
  const queue = new Queue(name, {
    connection: queueClient as never,
    defaultJobOptions: {
      attempts: options.attempts ?? 3,
      backoff: { type: 'exponential', delay: options.backoffMs ?? 1000 },
      // Results stay until the merge has written them (then `forget` removes them); failures stay to read.
      removeOnComplete: false,
      removeOnFail: false,
    },
  });
  const events = new QueueEvents(name, { connection: eventsClient as never });
  // Reconnection errors are BullMQ's to retry; without a listener they would crash the process.
  queue.on('error', () => {});
  events.on('error', () => {});
  if (options.onCompleted) {
    const onCompleted = options.onCompleted;
    events.on('completed', ({ jobId }) => onCompleted(jobId));
  }
  await events.waitUntilReady();
  return {
    specificationVersion: 'v1',
    name: `${describeRedisUrl(options.url)} ${name}`,
    async add(jobs: readonly UnitJob[]) {
      await queue.addBulk(
        jobs.map((data) => ({
          name: unitJobName,
          data,
          opts: { jobId: unitJobId(data.runHash, data.unit, data.folder) },
        })),
      );
      // A job of this run that failed for good in an earlier try of the run gets its attempts again.
      const ids = new Set(jobs.map((data) => unitJobId(data.runHash, data.unit, data.folder)));
      for (const job of await queue.getFailed())
        if (job.id && ids.has(job.id)) await (job as BullJob).retry('failed');
    },
    async result(runHash, unit, resultOptions = {}) {
      const id = unitJobId(runHash, unit, resultOptions.folder);
      const job = await Job.fromId(queue, id);
      if (!job) throw new Error(`job ${id} is not in queue ${name} (removed while the run waited for it?)`);
      return job.waitUntilFinished(events);
    },
    async forget(runHash, units, forgetOptions = {}) {
      for (let start = 0; start < units.length; start += 100)
        await Promise.all(
          units
            .slice(start, start + 100)
            .map((unit) => queue.remove(unitJobId(runHash, unit, forgetOptions.folder))),
        );
    },
    async close() {
      await events.close();
      await queue.close();
      await Promise.all([endRedisClient(queueClient), endRedisClient(eventsClient)]);
    },
  };
}
