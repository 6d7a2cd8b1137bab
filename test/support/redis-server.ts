// A real redis-server for tests: started on 127.0.0.1 on a free port, in a temporary folder, with no
// persistence (`--save '' --appendonly no`); `stop()` ends it and removes the folder.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Whether `redis-server` is on PATH. */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** Whether the ioredis package (BullMQ's Redis client) can be loaded. */
export async function hasIoredis(): Promise<boolean> {
  const specifier = 'ioredis';
  return import(specifier).then(
    () => true,
    () => false,
  );
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts redis-server (on `port`, e.g. to restart a stopped one, or a free port) and resolves once it
 * accepts connections.
 *
 * @example
 * const redis = await startRedisServer(); … await redis.stop();
 */
export async function startRedisServer(options: { port?: number } = {}): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'hsa-redis-'));
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)),
    );
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
