// A cache bounded by an estimate of the bytes it holds, not by its number of entries: the certificate's facts
// of a long run (texts, their protected items, content checks) are keyed by content, and a run of 100k rows
// must not grow with its rows. Least recently used entries go first (near enough: an entry is moved to the
// recent end only once it is in the older half, so a hit costs one lookup most of the time). A cache never
// decides an output: a miss recomputes the same value.

/**
 * A least-recently-used map whose entries are weighed by `sizeOf` (an estimate in bytes).
 *
 * @example
 * const cache = new BoundedCache<string, number>(1 << 20, (key) => 2 * key.length + 16);
 * cache.get('a') ?? cache.set('a', 1);
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; size: number; stamp: number }>();
  private bytes = 0;
  /** Counts moves to the recent end: an entry's `stamp` is the count when it was last moved. */
  private clock = 0;
  private found = 0;
  private missed = 0;

  /**
   * `name` lists the cache in `boundedCaches()` (for measuring; the list holds it for good, so name only
   * caches that live as long as the process).
   */
  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (key: K, value: V) => number,
    readonly name?: string,
  ) {
    if (name !== undefined) named.push(this as BoundedCache<unknown, unknown>);
  }

  get(key: K): V | undefined {
    const found = this.entries.get(key);
    if (!found) {
      this.missed++;
      return undefined;
    }
    this.found++;
    // Most recently used last: eviction takes the first entries of the map's insertion order. An entry
    // moved fewer than half the entries ago is still among the recent half and stays where it is.
    if (this.clock - found.stamp > this.entries.size >> 1) {
      this.entries.delete(key);
      found.stamp = ++this.clock;
      this.entries.set(key, found);
    }
    return found.value;
  }

  /** Stores the value and returns it. An entry larger than the whole budget is not kept. */
  set(key: K, value: V): V {
    const size = this.sizeOf(key, value);
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.size;
    }
    if (size > this.maxBytes) return value;
    this.entries.set(key, { value, size, stamp: ++this.clock });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.size;
    }
    return value;
  }

  /** Bytes held, by the estimate. */
  get size(): number {
    return this.bytes;
  }

  /** Entries held. */
  get entryCount(): number {
    return this.entries.size;
  }

  /** The budget in bytes, by the estimate. */
  get budget(): number {
    return this.maxBytes;
  }

  /** Lookups that found an entry, and those that did not, since the cache was made. */
  get lookups(): { hits: number; misses: number } {
    return { hits: this.found, misses: this.missed };
  }

  /** Drops every entry (the counts of lookups stay). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

const named: Array<BoundedCache<unknown, unknown>> = [];

/**
 * The caches made with a name, in the order they were made: what a memory measurement weighs.
 *
 * @example
 * for (const cache of boundedCaches()) console.log(cache.name, cache.size, cache.lookups);
 */
export function boundedCaches(): ReadonlyArray<BoundedCache<unknown, unknown>> {
  return named;
}
