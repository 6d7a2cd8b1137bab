// Scale-out on a real redis-server: `hsa pipeline run --queue` and three `hsa worker` processes, one killed
// with SIGKILL while it holds a job; the killed worker's job comes back through BullMQ's stalled-job check,
// and the merged output equals a single-process run byte for byte, with no duplicate and no missing unit.
// Also: an unreachable Redis is a one-line exit 2, and a job of another run hash fails with the reason.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullJobQueue } from '../../src/adapters/queue/bullmq-job-queue.js';
import { endRedisClient, type RedisClient, redisClient } from '../../src/adapters/queue/redis-connection.js';
import {
  freePort,
  hasIoredis,
  hasRedisServer,
  type RedisServer,
  startRedisServer,
} from '../support/redis-server.js';
import { hsaCli, projectRoot, runCli } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const missing = [
  ...(hasRedisServer() ? [] : ['redis-server (apt-get install redis-server)']),
  ...((await hasIoredis()) ? [] : ['the ioredis package, BullMQ’s Redis client (npm install ioredis)']),
];
// Only a developer's machine without them skips; CI installs both, and fails clearly when it did not.
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`cli-queue: skipped, missing ${missing.join(' and ')}`);

async function digest(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const result: Record<string, string> = {};
  for (const entry of entries.filter((item) => item.isFile()))
    result[relative(dir, join(entry.parentPath, entry.name))] = createHash('sha256')
      .update(await readFile(join(entry.parentPath, entry.name)))
      .digest('hex');
  return result;
}

function startHsa(args: string[]): {
  child: ChildProcess;
  exited: Promise<number | NodeJS.Signals>;
  stderr: () => string;
} {
  const child = spawn(process.execPath, [hsaCli(), ...args], {
    cwd: projectRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | NodeJS.Signals>((resolve) =>
    child.once('exit', (code, signal) => {
      if (code !== 0 && signal === null) console.error(`hsa ${args.join(' ')} exited ${code}:\n${stderr}`);
      resolve(signal ?? code ?? -1);
    }),
  );
  return { child, exited, stderr: () => stderr };
}

/** A queue and its events for the test to watch, on clients it ends itself (BullMQ leaves them open). */
async function watch(url: string) {
  const clients: RedisClient[] = [await redisClient(url), await redisClient(url)];
  const queue = new Queue('hsa-sft', { connection: clients[0] as never });
  const events = new QueueEvents('hsa-sft', { connection: clients[1] as never });
  await events.waitUntilReady();
  return {
    queue,
    events,
    async close() {
      await events.close();
      await queue.close();
      await Promise.all(clients.map(endRedisClient));
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skip)('hsa pipeline run --queue with hsa worker (real redis-server)', () => {
  let redis: RedisServer;
  let root: string;
  let config: string;
  const workers: Array<ReturnType<typeof startHsa>> = [];

  beforeAll(async () => {
    if (missing.length > 0) throw new Error(`the queue tests need ${missing.join(' and ')}`);
    redis = await startRedisServer();
    root = await mkdtemp(join(tmpdir(), 'hsa-queue-'));
    config = join(root, 'pipeline.yaml');
    await writeFile(
      config,
      [
        `harness: ${join(projectRoot, 'fixtures/livestream/harness.yaml')}`,
        'inputs: { simulate: { scenario: livestream, episodes: 12, seed: queue } }',
        'seed: 5',
        'augment: { policy: hat, variants: 2 }',
        'exports: [trl, openai]',
        'out: unused',
        '',
      ].join('\n'),
    );
  }, 60_000);

  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));
    await redis?.stop();
  }, 60_000);

  it('3 workers, one SIGKILLed holding a job: the merge equals a single-process run byte for byte', async () => {
    const single = await hsa(['pipeline', 'run', config, '--out', join(root, 'single')]);
    expect(single.status, single.stderr).toBe(0);

    const watched = await watch(redis.url);
    const { queue } = watched;
    const stalled = new Set<string>();
    watched.events.on('stalled', ({ jobId }) => stalled.add(jobId));
    // Short locks and stall checks (BullMQ options) so that the killed worker's job comes back in seconds;
    // several stalls allowed, since a loaded machine may miss a lock renewal.
    const workerArgs = ['--lock-duration', '2000', '--stalled-interval', '1000', '--max-stalled-count', '5'];
    for (let index = 0; index < 3; index++)
      workers.push(startHsa(['worker', '--queue', redis.url, '--quiet', ...workerArgs]));
    const coordinator = startHsa([
      'pipeline',
      'run',
      config,
      '--out',
      join(root, 'queued'),
      '--queue',
      redis.url,
    ]);
    let coordinatorDone = false;
    void coordinator.exited.then(() => {
      coordinatorDone = true;
    });

    // Mid-run: some units done, and a worker caught (stopped, so it cannot finish) holding an active job.
    const pids = new Set(workers.map((worker) => worker.child.pid));
    let victim: { pid: number; jobId: string } | undefined;
    while (!victim && !coordinatorDone) {
      await sleep(50);
      if ((await queue.getCompletedCount()) < 3) continue;
      for (const job of await queue.getActive()) {
        const pid = Number(job.processedBy?.split(':').at(-1));
        if (!pids.has(pid)) continue;
        process.kill(pid, 'SIGSTOP');
        await sleep(200);
        const state = await (await Job.fromId(queue, job.id as string))?.getState();
        if (state === 'active') {
          process.kill(pid, 'SIGKILL');
          victim = { pid, jobId: job.id as string };
        } else process.kill(pid, 'SIGCONT');
        break;
      }
    }
    expect(victim, 'the run finished before a worker could be killed holding a job').toBeDefined();
    const killed = workers.find((worker) => worker.child.pid === victim?.pid);
    expect(await killed?.exited).toBe('SIGKILL');

    expect(await coordinator.exited).toBe(0);
    expect(stalled.has(victim?.jobId as string), 'the killed worker’s job came back as stalled').toBe(true);
    expect(await digest(join(root, 'queued'))).toEqual(await digest(join(root, 'single')));
    const manifest = JSON.parse(await readFile(join(root, 'queued', 'manifest.json'), 'utf8'));
    const ids = (await readFile(join(root, 'queued', 'examples.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length + manifest.counts.rejected).toBe(manifest.counts.units);
    expect(manifest.counts.units).toBe(12 * 3);
    // The merge removed the run's jobs from Redis.
    expect(await queue.getCompletedCount()).toBe(0);
    await watched.close();
  }, 180_000);

  it('a coordinator SIGKILLed mid-merge and run again with --resume writes the same bytes', async () => {
    // The two workers left from the test above still run.
    const out = join(root, 'resumed');
    const args = ['pipeline', 'run', config, '--out', out, '--queue', redis.url];
    const first = startHsa(args);
    const merged = async () =>
      readFile(join(out, 'checkpoint.json'), 'utf8').then(
        (text) => (JSON.parse(text) as { units: number }).units,
        () => 0,
      );
    while ((await merged()) < 3) await sleep(10);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    expect(await merged(), 'the run finished before the kill').toBeLessThan(36);
    const second = startHsa([...args, '--resume']);
    expect(await second.exited).toBe(0);
    expect(await digest(out)).toEqual(await digest(join(root, 'single')));
  }, 120_000);

  it('two coordinators of one configuration into two folders, on one queue: each writes its own bytes', async () => {
    // Job ids carry the output folder's identity: without it, the second coordinator's jobs were the
    // first's, and the first one's merge removed them under the second (both failed).
    workers.push(startHsa(['worker', '--queue', redis.url, '--quiet']));
    const outs = [join(root, 'twin-a'), join(root, 'twin-b')];
    const coordinators = outs.map((out) =>
      startHsa(['pipeline', 'run', config, '--out', out, '--queue', redis.url]),
    );
    expect(await Promise.all(coordinators.map((coordinator) => coordinator.exited))).toEqual([0, 0]);
    const expected = await digest(join(root, 'single'));
    for (const out of outs) expect(await digest(out)).toEqual(expected);
  }, 180_000);

  it('Redis down during a run: the coordinator and a worker each log the outage once, then its end', async () => {
    const own = await startRedisServer();
    const watched = await watch(own.url);
    const coordinator = startHsa([
      'pipeline',
      'run',
      config,
      '--out',
      join(root, 'outage'),
      '--queue',
      own.url,
    ]);
    while ((await watched.queue.getWaitingCount()) === 0) await sleep(50);
    await watched.close();
    // On a queue of its own: it watches the same Redis, and takes none of the coordinator's jobs.
    const worker = startHsa(['worker', '--queue', own.url, '--queue-name', 'hsa-outage']);
    while (!worker.stderr().includes('waiting for jobs')) await sleep(50);
    await own.stop();
    const down = (text: string) => text.includes('is unreachable');
    while (!down(coordinator.stderr()) || !down(worker.stderr())) await sleep(50);
    // Several reconnection attempts (ioredis waits 50 ms, 100 ms, … up to 2 s between them).
    await sleep(3000);
    const restarted = await startRedisServer({ port: own.port });
    const up = (text: string) => text.includes('is back after');
    while (!up(coordinator.stderr()) || !up(worker.stderr())) await sleep(50);
    coordinator.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    await Promise.all([coordinator.exited, worker.exited]);
    await restarted.stop();
    for (const [who, text] of [
      ['coordinator', coordinator.stderr()],
      ['worker', worker.stderr()],
    ] as const) {
      // The outage reports only: a worker stopped under heavy load may also say, on its way out, that Redis
      // did not answer its close in time (its jobs go back as stalled), which is not an outage report.
      const lines = text.split('\n').filter((line) => /Redis at |ECONNREFUSED/.test(line));
      expect(lines, `${who}: ${JSON.stringify(lines)}`).toEqual([
        expect.stringMatching(
          new RegExp(
            `Redis at redis://127\\.0\\.0\\.1:${own.port} is unreachable \\(.*ECONNREFUSED.*\\); reconnecting$`,
          ),
        ),
        expect.stringMatching(
          new RegExp(`Redis at redis://127\\.0\\.0\\.1:${own.port} is back after [\\d.]+ s$`),
        ),
      ]);
    }
  }, 180_000);

  it('a job of another run hash fails at once, with the reason', async () => {
    const watched = await watch(redis.url);
    const { queue, events } = watched;
    const data = {
      version: 1,
      runHash: `sha256:${'0'.repeat(64)}`,
      unit: 0,
      config: {
        harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
        inputs: { simulate: { scenario: 'livestream', episodes: 2 } },
      },
    };
    const job = await queue.add('sft-unit', data, { jobId: `${'0'.repeat(64)}-0`, attempts: 3 });
    await expect(job.waitUntilFinished(events)).rejects.toThrow(
      /belongs to run sha256:0{64}, but this worker/,
    );
    const failed = await Job.fromId(queue, job.id as string);
    expect(failed?.attemptsMade).toBe(1);
    await watched.close();
  }, 60_000);

  it('adding a run’s jobs again (a coordinator restarted after a crash) adds none', async () => {
    const name = 'hsa-idempotence';
    const jobQueue = await createBullJobQueue({ url: redis.url, name });
    const runHash = `sha256:${'1'.repeat(64)}`;
    const jobs = [0, 1, 2, 3, 4].map((unit) => ({ version: 1 as const, runHash, unit, config: {} }));
    await jobQueue.add(jobs);
    await jobQueue.add(jobs.slice(2));
    await jobQueue.add(jobs);
    const clients: RedisClient[] = [await redisClient(redis.url)];
    const queue = new Queue(name, { connection: clients[0] as never });
    expect(await queue.getWaitingCount()).toBe(5);
    expect((await queue.getWaiting()).map((job) => job.id).sort()).toEqual(
      jobs.map((job) => `${'1'.repeat(64)}-${job.unit}`).sort(),
    );
    await jobQueue.forget?.(runHash, [0, 1, 2, 3, 4]);
    expect(await queue.getWaitingCount()).toBe(0);
    await queue.close();
    await Promise.all(clients.map(endRedisClient));
    await jobQueue.close();
  });

  it('an unreachable Redis is one line and exit 2, for the coordinator and a worker', async () => {
    const port = await freePort();
    for (const args of [
      ['pipeline', 'run', config, '--out', join(root, 'unreachable'), '--queue', `redis://127.0.0.1:${port}`],
      ['worker', '--queue', `redis://127.0.0.1:${port}`],
    ]) {
      const result = runCli([...args, '--connect-timeout', '3000'], { timeout: 60_000 });
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(`^hsa: cannot reach Redis at redis://127\\.0\\.0\\.1:${port}: .+\\n$`),
      );
    }
  }, 120_000);
});

describe('hsa pipeline run --queue, the URL', () => {
  it('refuses a URL that is not redis:// with exit 2 and one line', () => {
    const result = runCli(['worker', '--queue', 'http://127.0.0.1:6379']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'hsa: --queue: "http://127.0.0.1:6379" is not a Redis URL; expected redis://host:port or rediss://host:port\n',
    );
  });
});
