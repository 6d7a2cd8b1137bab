// The environment server's only shared mutable state: the live episodes by id, with a capacity cap and an
// idle timeout. Expiry is a lazy sweep that runs on every request against an injectable clock, so there are
// no timers to leak and tests decide time themselves. Ids are sequential (deterministic for a given request
// order); an optional instance tag keeps a restarted server from answering for a previous one's ids.
import { EnvError } from './env-error.js';

/** What the store needs to know about an episode. */
export interface StoreEntry {
  readonly id: string;
  /** Clock time of the last request that touched the episode. */
  lastUsed: number;
  /** A step is running: the episode is neither expired nor evicted meanwhile. */
  busy: boolean;
  /** Finished episodes are kept for `/get_reward` but give way first when the store is full. */
  done: boolean;
  /** Frees what the episode holds (aborts tools still running). */
  close(): void;
}

export interface EpisodeStoreOptions {
  /** Most episodes held at once, running and finished (default 1024). */
  maxEpisodes?: number;
  /** An episode untouched for this long is dropped (default 10 minutes). */
  idleMs?: number;
  /** Clock in milliseconds (default `Date.now`). */
  now?: () => number;
  /** Episode ids are `${idPrefix}${n}` (default `ep-`). */
  idPrefix?: string;
}

/** How many ids of dropped episodes are remembered, to answer "expired" rather than "unknown". */
const rememberedGone = 4096;

/**
 * Episodes by id, with a cap and an idle timeout.
 *
 * @example
 * const store = new EpisodeStore<MyEntry>({ maxEpisodes: 8, idleMs: 60_000 });
 * const release = store.reserve();
 * store.add(entry, release);
 */
export class EpisodeStore<T extends StoreEntry> {
  readonly maxEpisodes: number;
  readonly idleMs: number;
  readonly now: () => number;
  private readonly idPrefix: string;
  private readonly entries = new Map<string, T>();
  private readonly gone = new Map<string, 'expired' | 'evicted'>();
  private pending = 0;
  private counter = 0;

  constructor(options: EpisodeStoreOptions = {}) {
    this.maxEpisodes = options.maxEpisodes ?? 1024;
    this.idleMs = options.idleMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
    this.idPrefix = options.idPrefix ?? 'ep-';
    if (!Number.isInteger(this.maxEpisodes) || this.maxEpisodes < 1)
      throw new EnvError(
        400,
        'invalid_request',
        `maxEpisodes must be a positive integer, got ${this.maxEpisodes}`,
      );
    if (!(this.idleMs > 0))
      throw new EnvError(400, 'invalid_request', `idleMs must be positive, got ${this.idleMs}`);
  }

  /** A fresh episode id. */
  nextId(): string {
    this.counter++;
    return `${this.idPrefix}${this.counter}`;
  }

  /** Drops the episodes idle for `idleMs` or longer (never one with a step running); returns their ids. */
  sweep(): string[] {
    const now = this.now();
    const dropped: string[] = [];
    for (const entry of this.entries.values()) {
      if (entry.busy || now - entry.lastUsed < this.idleMs) continue;
      dropped.push(entry.id);
    }
    for (const id of dropped) this.drop(id, true);
    return dropped;
  }

  /**
   * Holds a place for an episode being set up, so that concurrent resets cannot overshoot the cap. When the
   * store is full the oldest finished episode gives way; when every place is taken by a running episode the
   * call is refused with a 429. Returns the function that gives the place back (call it once the episode is
   * added, or when its setup fails).
   */
  reserve(): () => void {
    while (this.entries.size + this.pending >= this.maxEpisodes) {
      const oldest = this.oldestFinished();
      if (!oldest) {
        const idleMinutes = Math.round((this.idleMs / 60_000) * 10) / 10;
        throw new EnvError(
          429,
          'too_many_episodes',
          `the server already holds ${this.maxEpisodes} running episode(s), its maximum: finish some, let idle ones expire (after ${idleMinutes} min), or start the server with a higher limit`,
        );
      }
      this.drop(oldest.id, false);
    }
    this.pending++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.pending--;
    };
  }

  /** Adds an episode and gives back the place reserved for it. */
  add(entry: T, release: () => void): void {
    release();
    this.entries.set(entry.id, entry);
  }

  /** The episode with this id; a 404 that says whether it never existed or expired. */
  get(id: string): T {
    const entry = this.entries.get(id);
    if (entry) return entry;
    const gone = this.gone.get(id);
    if (gone === 'expired')
      throw new EnvError(
        404,
        'episode_expired',
        `episode "${id}" expired after ${Math.round(this.idleMs / 1000)} s without a request; call /reset for a new one`,
      );
    if (gone === 'evicted')
      throw new EnvError(
        404,
        'episode_expired',
        `episode "${id}" had finished and was dropped to make room for new episodes (the server holds at most ${this.maxEpisodes})`,
      );
    throw new EnvError(
      404,
      'unknown_episode',
      `no episode "${id}" on this server; call /reset for a new one`,
    );
  }

  /** The episode with this id, or undefined (no error). */
  find(id: string): T | undefined {
    return this.entries.get(id);
  }

  /** Marks an episode as used now. */
  touch(entry: T): void {
    entry.lastUsed = this.now();
  }

  /** Running and finished episodes held. */
  counts(): { running: number; finished: number } {
    let finished = 0;
    for (const entry of this.entries.values()) if (entry.done) finished++;
    return { running: this.entries.size - finished, finished };
  }

  /** Closes and forgets every episode. */
  clear(): void {
    for (const entry of this.entries.values()) entry.close();
    this.entries.clear();
  }

  private oldestFinished(): T | undefined {
    let oldest: T | undefined;
    // Map order is insertion order, so ties go to the episode created first: deterministic.
    for (const entry of this.entries.values())
      if (entry.done && !entry.busy && (!oldest || entry.lastUsed < oldest.lastUsed)) oldest = entry;
    return oldest;
  }

  private drop(id: string, expired: boolean): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.close();
    this.entries.delete(id);
    this.gone.set(id, expired ? 'expired' : 'evicted');
    if (this.gone.size > rememberedGone) {
      const first = this.gone.keys().next().value;
      if (first !== undefined) this.gone.delete(first);
    }
  }
}
