// `--shard i/n`: only the items whose position modulo n is i, so that n processes split a run.
import { HarnessAugmentError } from '../harness/issues.js';

export function parseShard(text: string | undefined): { index: number; count: number } | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index >= count) {
    throw new HarnessAugmentError(`--shard must read i/n with 0 <= i < n, got "${text}"`, { kind: 'usage' });
  }
  return { index, count };
}
