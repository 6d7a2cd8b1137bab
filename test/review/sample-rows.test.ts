import { describe, expect, it } from 'vitest';
import { sampleBySeed } from '../../src/review/sample-rows.js';

const ids = Array.from({ length: 200 }, (_, index) => `ex-${index}/0`);
const sample = (items: string[], size: number, seed: string) =>
  sampleBySeed(items, { size, seed, idOf: (id) => id });

describe('sampleBySeed', () => {
  it('draws `size` items, in stream order, the same for the same seed', async () => {
    const first = await sample(ids, 10, '7');
    expect(first).toHaveLength(10);
    expect(first.map((entry) => entry.position)).toEqual(
      [...first.map((entry) => entry.position)].sort((a, b) => a - b),
    );
    for (const entry of first) expect(entry.item).toBe(ids[entry.position - 1]);
    expect(await sample(ids, 10, '7')).toEqual(first);
  });

  it('draws other items under another seed', async () => {
    const a = (await sample(ids, 10, '7')).map((entry) => entry.item);
    const b = (await sample(ids, 10, '8')).map((entry) => entry.item);
    expect(a).not.toEqual(b);
  });

  it('draws the same items whatever their order in the stream', async () => {
    const forward = (await sample(ids, 10, '7')).map((entry) => entry.item).sort();
    const backward = (await sample([...ids].reverse(), 10, '7')).map((entry) => entry.item).sort();
    expect(backward).toEqual(forward);
  });

  it('keeps every item when there are fewer than `size`, and none for size 0', async () => {
    expect((await sample(ids.slice(0, 3), 10, '0')).map((entry) => entry.item)).toEqual(ids.slice(0, 3));
    expect(await sample(ids, 0, '0')).toEqual([]);
  });

  it('reads an async stream', async () => {
    async function* stream() {
      yield* ids;
    }
    const fromStream = await sampleBySeed(stream(), { size: 5, seed: 's', idOf: (id) => id });
    expect(fromStream).toEqual(await sample(ids, 5, 's'));
  });
});
