// A cache's budget is only as good as its estimate: content-facts' facts were weighed at a quarter of what
// they held (18 MB on an 8 MB budget at 10k rows; docs/decisions/0006-caches-bounded-by-bytes.md). Space,
// not time: a child augments rows, then clears each named cache in turn and compares the heap it frees with
// the cache's own estimate.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('BoundedCache estimates', () => {
  it('weigh each cache within a factor of two of the heap its entries hold', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'test/augment/cache-estimates-probe.ts', '300'],
      { maxBuffer: 1 << 20 },
    );
    const caches = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; estimate: number; freed: number });
    // The caches this workload fills (a few small ones hold too little to weigh against GC noise).
    const weighed = caches.filter((cache) => cache.estimate >= 512 * 1024);
    expect(weighed.map((cache) => cache.name)).toEqual(
      expect.arrayContaining([
        'content-facts.factsCache',
        'content-facts.textEntries',
        'symbol-table.triesByContent',
      ]),
    );
    const ratios = weighed.map((cache) => `${cache.name} ${(cache.freed / cache.estimate).toFixed(2)}`);
    const off = weighed.filter(
      (cache) => cache.freed < cache.estimate / 2 || cache.freed > 2 * cache.estimate,
    );
    expect(
      off.map((cache) => cache.name),
      ratios.join(', '),
    ).toEqual([]);
  }, 120_000);
});
