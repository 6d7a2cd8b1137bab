// Runs an async function over items with bounded concurrency and yields the results in input order, so
// that output files are identical whatever the concurrency. A slow item does not hold back the others: up
// to `concurrency` items run at once while finished results wait (at most `buffer` items are held, running
// or finished) for their turn to be yielded.

export interface MapOrderedOptions {
  /** Most items held at once, running or finished but not yet yielded (default 4 × concurrency). */
  buffer?: number;
}

interface Slot<R> {
  promise: Promise<R>;
  settled: boolean;
}

/**
 * @example
 * for await (const result of mapOrdered(episodes, 16, runEpisode)) write(result);
 */
export async function* mapOrdered<T, R>(
  items: Iterable<T> | AsyncIterable<T>,
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
  options: MapOrderedOptions = {},
): AsyncGenerator<R> {
  const limit = Math.max(1, Math.floor(concurrency));
  const buffer = Math.max(limit, Math.floor(options.buffer ?? limit * 4));
  const iterator =
    Symbol.asyncIterator in items
      ? (items as AsyncIterable<T>)[Symbol.asyncIterator]()
      : (items as Iterable<T>)[Symbol.iterator]();
  const queue: Array<Slot<R>> = [];
  let running = 0;
  let exhausted = false;
  let index = 0;
  let wake: (() => void) | undefined;
  try {
    for (;;) {
      while (!exhausted && running < limit && queue.length < buffer) {
        const next = await iterator.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        running++;
        const slot = { settled: false } as Slot<R>;
        slot.promise = fn(next.value, index++).finally(() => {
          slot.settled = true;
          running--;
          wake?.();
        });
        // A rejection is observed when its turn comes; until then it must not count as unhandled.
        slot.promise.catch(() => undefined);
        queue.push(slot);
      }
      const head = queue[0];
      if (!head) return;
      if (!head.settled) {
        // Wait until any running item settles, then start more or yield the head.
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      queue.shift();
      yield await head.promise;
    }
  } finally {
    await iterator.return?.();
  }
}
