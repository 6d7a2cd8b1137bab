// A seeded sample of rows read as a stream: each row gets a rank, the hash of (seed, its id), and the `size`
// rows of lowest rank are kept (the earlier one on a tie), so memory holds `size` rows whatever the file's
// length. Which rows are drawn depends on the seed and the ids only, not on the order of the file nor on how
// many rows it holds (a row drawn from a file stays drawn from a larger one while it ranks among the
// `size` lowest); the sample is given back in file order.
import { createHash } from 'node:crypto';

/** A sampled item with its position in the stream (1-based). */
export interface Sampled<T> {
  item: T;
  position: number;
}

/** The rank of an item under a seed: hex sha256 of the seed and its id. */
function rank(seed: string, id: string): string {
  return createHash('sha256').update(`${seed}\u0000${id}`).digest('hex');
}

type Entry<T> = Sampled<T> & { rank: string };
const byRank = <T>(x: Entry<T>, y: Entry<T>) =>
  x.rank < y.rank ? -1 : x.rank > y.rank ? 1 : x.position - y.position;

/**
 * Keeps a seeded sample of `size` items from a stream (all of them when there are fewer), in stream order.
 *
 * @example
 * const sample = await sampleBySeed(readRows('rows.jsonl'), { size: 20, seed: '0', idOf: (row) => row.id });
 */
export async function sampleBySeed<T>(
  items: AsyncIterable<T> | Iterable<T>,
  options: { size: number; seed: string; idOf: (item: T) => string },
): Promise<Array<Sampled<T>>> {
  const kept: Array<Entry<T>> = [];
  let position = 0;
  for await (const item of items) {
    position++;
    if (options.size <= 0) continue;
    const entry = { item, position, rank: rank(options.seed, options.idOf(item)) };
    if (kept.length < options.size) kept.push(entry);
    else if (entry.rank < (kept.at(-1) as Entry<T>).rank) kept[kept.length - 1] = entry;
    else continue;
    kept.sort(byRank);
  }
  return kept
    .sort((x, y) => x.position - y.position)
    .map(({ item, position: at }) => ({ item, position: at }));
}
