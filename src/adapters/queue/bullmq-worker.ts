// A BullMQ worker for the pipeline's units: it takes jobs from the queue and runs each through the
// processor it is given. Retries, backoff, stalled-job recovery (a job whose worker died comes back to the
// queue) and the completion events behind progress are BullMQ's: its `attempts`, `backoff`, `lockDuration`,
// `stalledInterval` and `maxStalledCount`. A job its processor refuses for good (not an hsa job, another
// run's files) fails at once, with the reason, through BullMQ's UnrecoverableError.
import { hostname } from 'node:os';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { UnitJobProcessor } from '../../pipeline/job-queue.js';
import { loadBullmq } from './load-bullmq.js';
import { defaultQueueName } from './queue-name.js';
import {
  endRedisClient,
  probeRedis,
  type RedisOutageEvent,
  redisClient,
  watchRedisOutages,
} from './redis-connection.js';

/**
 * Options of `startBullUnitWorker`: the queue to serve, how many jobs at once, BullMQ's lock and stall
 * settings, and the processor.
 */
export interface BullUnitWorkerOptions {
  /** `redis://host:port[/db]`, the Redis the pipeline's queue is on. */
  url: string;
  /** BullMQ queue name (default `hsa-sft`). */
  name?: string;
  /** Jobs run at once by this worker (default 1). */
  concurrency?: number;
  /** How long a job's lock lasts without renewal, in ms (BullMQ `lockDuration`, default 30000). */
  lockDuration?: number;
  /** How often this worker looks for stalled jobs, in ms (BullMQ `stalledInterval`, default 30000). */
  stalledInterval?: number;
  /** How many times a job may stall before it fails (BullMQ `maxStalledCount`, default 1). */
  maxStalledCount?: number;
  /** How long the first connection may take before the worker fails to start (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Runs one SFT unit job and returns its result. */
  process: UnitJobProcessor;
  /** Told of each finished or failed job, for a log line. */
  onJob?: (event: { id: string; state: 'completed' | 'failed'; reason?: string }) => void;
  /** Told once when Redis becomes unreachable, and once when it is back. */
  onRedisOutage?: (event: RedisOutageEvent) => void;
}

/** A running worker, as `startBullUnitWorker` returns it: its name and how to stop it. */
export interface BullUnitWorker {
  /** The worker's name in BullMQ (`host:pid`), which a job records as `processedBy`. */
  readonly name: string;
  /**
   * Stops taking jobs, waits up to `graceMs` (default 10 s) for the running ones, and disconnects; past that
   * (Redis gone, a job stuck) it drops the connections, and the jobs it held come back to the queue as
   * stalled. While Redis is unreachable and no job is running there is nothing to wait for: it drops the
   * connections at once. Resolves to whether no running job was cut off (false: the grace ran out); after
   * dropped connections BullMQ may still hold timers, so a process should exit.
   */
  close(options?: { graceMs?: number }): Promise<boolean>;
}

/**
 * Starts a worker on the pipeline's queue.
 *
 * @example
 * const worker = await startBullUnitWorker({ url: 'redis://127.0.0.1:6379', process: processor.process });
 */
export async function startBullUnitWorker(options: BullUnitWorkerOptions): Promise<BullUnitWorker> {
  const { UnrecoverableError, Worker } = await loadBullmq();
  await probeRedis(options.url, options.connectTimeoutMs ? { timeoutMs: options.connectTimeoutMs } : {});
  const name = `${hostname()}:${process.pid}`;
  const outage = watchRedisOutages(options.url, options.onRedisOutage ?? (() => {}));
  const client = await redisClient(options.url, { name, outage });
  let running = 0;
  const worker = new Worker(
    options.name ?? defaultQueueName,
    async (job) => {
      running++;
      try {
        return await options.process(job.data);
      } catch (error) {
        // Bad content or a run this machine cannot reproduce: another attempt would fail the same way.
        if (HarnessAugmentError.isInstance(error)) throw new UnrecoverableError(error.message);
        throw error;
      } finally {
        running--;
      }
    },
    {
      connection: client as never,
      name,
      concurrency: options.concurrency ?? 1,
      ...(options.lockDuration !== undefined ? { lockDuration: options.lockDuration } : {}),
      ...(options.stalledInterval !== undefined ? { stalledInterval: options.stalledInterval } : {}),
      ...(options.maxStalledCount !== undefined ? { maxStalledCount: options.maxStalledCount } : {}),
    },
  );
  worker.on('error', () => {});
  worker.on('completed', (job) => options.onJob?.({ id: String(job.id), state: 'completed' }));
  worker.on('failed', (job, error) =>
    options.onJob?.({ id: String(job?.id), state: 'failed', reason: error.message }),
  );
  await worker.waitUntilReady();
  return {
    name,
    async close(closeOptions = {}) {
      const drop = () => {
        // BullMQ's own close waits for Redis; the connections are dropped instead.
        void worker.close(true).catch(() => {});
        client.disconnect();
      };
      if (running === 0 && outage.isDown()) {
        drop();
        return true;
      }
      let timer: NodeJS.Timeout | undefined;
      const clean = await Promise.race([
        worker.close().then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), closeOptions.graceMs ?? 10_000);
        }),
      ]);
      clearTimeout(timer);
      if (clean) await endRedisClient(client);
      else drop();
      return clean;
    },
  };
}
