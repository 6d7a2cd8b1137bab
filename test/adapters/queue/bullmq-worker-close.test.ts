// Stopping a worker while Redis is down, on a real redis-server: with no job running there is nothing to
// wait for, so `close` drops the connections at once (before, it sat out its whole grace); with a job running
// it still waits for the grace and says the job was cut off.
import { afterEach, describe, expect, it } from 'vitest';
import { type BullUnitWorker, startBullUnitWorker } from '../../../src/adapters/queue/bullmq-worker.js';
import type { RedisOutageEvent } from '../../../src/adapters/queue/redis-connection.js';
import {
  hasIoredis,
  hasRedisServer,
  type RedisServer,
  startRedisServer,
} from '../../support/redis-server.js';

const skip = !hasRedisServer() || !(await hasIoredis());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skip)('BullUnitWorker.close while Redis is down (real redis-server)', () => {
  let redis: RedisServer | undefined;
  let worker: BullUnitWorker | undefined;
  afterEach(async () => {
    await worker?.close({ graceMs: 100 }).catch(() => {});
    await redis?.stop().catch(() => {});
    worker = undefined;
    redis = undefined;
  });

  async function startWorker(process: (data: unknown) => Promise<unknown>) {
    const server = await startRedisServer();
    redis = server;
    const events: RedisOutageEvent[] = [];
    const started = await startBullUnitWorker({
      url: server.url,
      name: 'hsa-close-test',
      process: process as never,
      onRedisOutage: (event) => events.push(event),
    });
    worker = started;
    return { server, started, events };
  }

  it('no job running: it closes without waiting for the grace, and reports nothing cut off', async () => {
    const { server, started, events } = await startWorker(async () => 'done');
    await server.stop();
    while (!events.some((event) => event.state === 'down')) await sleep(20);
    // A grace longer than the test's own timeout: only the path that does not wait can pass.
    await expect(started.close({ graceMs: 600_000 })).resolves.toBe(true);
    worker = undefined;
  }, 60_000);

  it('a job running: it waits for the grace, then says the job was cut off', async () => {
    let release: () => void = () => {};
    let began = false;
    const { server, started, events } = await startWorker(async () => {
      began = true;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return 'done';
    });
    const { Queue } = await import('bullmq');
    const queue = new Queue('hsa-close-test', { connection: { url: server.url } as never });
    await queue.add('sft-unit', { unit: 0 });
    while (!began) await sleep(20);
    await queue.close();
    await server.stop();
    while (!events.some((event) => event.state === 'down')) await sleep(20);
    await expect(started.close({ graceMs: 300 })).resolves.toBe(false);
    worker = undefined;
    release();
  }, 60_000);
});
