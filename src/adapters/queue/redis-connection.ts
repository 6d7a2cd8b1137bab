// Connections to Redis for BullMQ: the URL checked, one short probe that fails fast (exit 2, one line)
// when the server cannot be reached or is older than BullMQ needs, then one ioredis client per BullMQ
// object, as BullMQ asks (`maxRetriesPerRequest: null`, reconnecting).
import { HarnessAugmentError } from '../../harness/issues.js';

/** The parts of an ioredis client that this adapter calls. */
export interface RedisClient {
  connect(): Promise<void>;
  info(section: string): Promise<string>;
  quit(): Promise<unknown>;
  disconnect(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
}

type RedisConstructor = new (url: string, options: Record<string, unknown>) => RedisClient;

/** BullMQ's oldest supported Redis. */
const minimumVersion = [6, 2, 0];

const usage = (message: string) => new HarnessAugmentError(message, { kind: 'usage' });

let redisConstructor: Promise<RedisConstructor> | undefined;

/** ioredis, BullMQ's Redis client (an optional peer of bullmq), loaded only when a queue is used. */
function loadRedis(): Promise<RedisConstructor> {
  redisConstructor ??= (async () => {
    const specifier = 'ioredis';
    try {
      const module = (await import(specifier)) as { default?: unknown; Redis?: unknown };
      return (module.Redis ?? module.default) as RedisConstructor;
    } catch {
      throw usage('the queue needs the ioredis package, the Redis client BullMQ drives: npm install ioredis');
    }
  })();
  return redisConstructor;
}

/**
 * Checks a Redis URL (`redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS).
 *
 * @example
 * checkRedisUrl('redis://127.0.0.1:6379') // 'redis://127.0.0.1:6379'
 */
export function checkRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usage(`--queue: "${url}" is not a URL; expected redis://host:port`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw usage(`--queue: "${url}" is not a Redis URL; expected redis://host:port or rediss://host:port`);
  if (!parsed.hostname) throw usage(`--queue: "${url}" names no host`);
  return url;
}

/** The URL without its password, for messages. */
export function describeRedisUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString().replace(/\/$/, '');
}

const olderThan = (version: number[], minimum: number[]) => {
  for (let index = 0; index < minimum.length; index++) {
    const part = version[index] ?? 0;
    const floor = minimum[index] ?? 0;
    if (part !== floor) return part < floor;
  }
  return false;
};

/**
 * Connects to Redis once, without retries, within `timeoutMs`: the server must answer and be at least
 * Redis 6.2. Throws a usage error (one line) otherwise.
 *
 * @example
 * await probeRedis('redis://127.0.0.1:6379');
 */
export async function probeRedis(url: string, options: { timeoutMs?: number } = {}): Promise<void> {
  checkRedisUrl(url);
  const Redis = await loadRedis();
  const timeoutMs = options.timeoutMs ?? 5000;
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let lastError: Error | undefined;
  client.on('error', (error) => {
    lastError = error;
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const info = await Promise.race([
      client.connect().then(() => client.info('server')),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    const version = /redis_version:([\d.]+)/.exec(info)?.[1];
    if (version && olderThan(version.split('.').map(Number), minimumVersion))
      throw usage(
        `Redis at ${describeRedisUrl(url)} is version ${version}; BullMQ needs ${minimumVersion.join('.')} or newer`,
      );
    await client.quit().catch(() => {});
  } catch (error) {
    client.disconnect();
    if (HarnessAugmentError.isInstance(error)) throw error;
    const reason = (lastError ?? (error as Error)).message || String(error);
    throw usage(`cannot reach Redis at ${describeRedisUrl(url)}: ${reason}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ends a client that BullMQ was given: BullMQ does not close a connection passed in as an instance.
 *
 * @example
 * await queue.close(); await endRedisClient(client);
 */
export async function endRedisClient(client: RedisClient): Promise<void> {
  await client.quit().catch(() => client.disconnect());
}

/**
 * A client for one BullMQ object (a queue, a worker, queue events), reconnecting as BullMQ expects.
 *
 * @example
 * const queue = new Queue('hsa-sft', { connection: await redisClient(url) as never });
 */
export async function redisClient(
  url: string,
  options: { name?: string; outage?: RedisOutageWatch } = {},
): Promise<RedisClient> {
  const Redis = await loadRedis();
  const client = new Redis(checkRedisUrl(url), {
    maxRetriesPerRequest: null,
    ...(options.name ? { connectionName: options.name } : {}),
  });
  // A listener, so that ioredis does not print "Unhandled error event" at every reconnection attempt.
  if (options.outage) options.outage.watch(client);
  else client.on('error', () => {});
  return client;
}

/** The start or the end of a Redis outage, as a process's clients saw it. */
export type RedisOutageEvent =
  | { state: 'down'; url: string; reason: string }
  | { state: 'up'; url: string; downMs: number };

/** Watches clients of one URL and reports an outage once when it starts (a client's first error) and once when it ends (every client ready again). */
export interface RedisOutageWatch {
  watch(client: RedisClient): void;
  /** Whether a watched client has failed and not yet been ready again. */
  isDown(): boolean;
}

/**
 * Reports each outage of a Redis server once, then its end, however many clients and reconnection attempts
 * it spans.
 *
 * @example
 * const outage = watchRedisOutages(url, (event) => console.error(describeRedisOutage(event)));
 * const client = await redisClient(url, { outage });
 */
export function watchRedisOutages(url: string, report: (event: RedisOutageEvent) => void): RedisOutageWatch {
  const down = new Set<RedisClient>();
  let since = 0;
  return {
    watch(client) {
      client.on('error', (error) => {
        if (down.has(client)) return;
        down.add(client);
        if (down.size > 1) return;
        since = Date.now();
        report({ state: 'down', url: describeRedisUrl(url), reason: error.message || String(error) });
      });
      client.on('ready', () => {
        if (!down.delete(client) || down.size > 0) return;
        report({ state: 'up', url: describeRedisUrl(url), downMs: Date.now() - since });
      });
    },
    isDown: () => down.size > 0,
  };
}

/**
 * One log line for an outage event.
 *
 * @example
 * describeRedisOutage({ state: 'up', url: 'redis://127.0.0.1:6379', downMs: 4200 }) // 'Redis at redis://127.0.0.1:6379 is back after 4.2 s'
 */
export function describeRedisOutage(event: RedisOutageEvent): string {
  return event.state === 'down'
    ? `Redis at ${event.url} is unreachable (${event.reason}); reconnecting`
    : `Redis at ${event.url} is back after ${(event.downMs / 1000).toFixed(1)} s`;
}
