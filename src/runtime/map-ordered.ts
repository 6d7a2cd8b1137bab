// Runs an async function over items with bounded concurrency and yields the results in input order, so
// that output files are identical whatever the concurrency.

/**
 * @example
 * for await (const result of mapOrdered(episodes, 16, runEpisode)) write(result);
 */
export async function* mapOrdered<T, R>(
  items: Iterable<T> | AsyncIterable<T>,
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): AsyncGenerator<R> {
  const limit = Math.max(1, Math.floor(concurrency));
  const window: Array<Promise<R>> = [];
  let index = 0;
  for await (const item of items as AsyncIterable<T>) {
    const started = fn(item, index++);
    // A rejection is observed when its turn comes; until then it must not count as unhandled.
    started.catch(() => undefined);
    window.push(started);
    if (window.length >= limit) yield await window.shift()!;
  }
  while (window.length > 0) yield await window.shift()!;
}
