// Shards: `{ index, count }` takes the items whose 0-based position modulo `count` equals `index`, so that
// `count` processes split one run and their outputs together are the unsharded run's.
import { HarnessAugmentError } from '../harness/issues.js';

export interface Shard {
  index: number;
  count: number;
}

/**
 * Throws a usage error unless `shard` is undefined or `{ index, count }` with 0 <= index < count.
 *
 * @example
 * checkShard({ index: 1, count: 4 });
 */
export function checkShard(shard: Shard | undefined): void {
  if (
    shard &&
    !(
      Number.isInteger(shard.count) &&
      shard.count >= 1 &&
      Number.isInteger(shard.index) &&
      shard.index >= 0 &&
      shard.index < shard.count
    )
  )
    throw new HarnessAugmentError(
      `shard must be { index, count } with 0 <= index < count, got ${JSON.stringify(shard)}`,
      {
        kind: 'usage',
      },
    );
}
