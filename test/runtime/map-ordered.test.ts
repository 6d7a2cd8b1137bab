import { describe, expect, it } from 'vitest';
import { mapOrdered } from '../../src/runtime/map-ordered.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

describe('mapOrdered', () => {
  it('yields in input order whatever order the work finishes in', async () => {
    const delays = [30, 5, 20, 1, 10, 0, 15];
    const results = await collect(
      mapOrdered(delays, 3, async (delay, index) => {
        await sleep(delay);
        return index;
      }),
    );
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('keeps the other slots busy while the oldest item is slow', async () => {
    const started: number[] = [];
    let release!: () => void;
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const run = collect(
      mapOrdered(
        Array.from({ length: 10 }, (_, index) => index),
        2,
        async (item) => {
          started.push(item);
          if (item === 0) await slow;
          return item;
        },
      ),
    );
    // While item 0 hangs, the second slot works through the rest (up to the buffer of 4 × 2 items).
    await sleep(20);
    expect(started.length).toBeGreaterThanOrEqual(8);
    release();
    expect(await run).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('never runs more than `concurrency` at once and never holds more than `buffer` items', async () => {
    let running = 0;
    let most = 0;
    let pulled = 0;
    async function* source() {
      for (let index = 0; index < 40; index++) {
        pulled++;
        yield index;
      }
    }
    const seen: number[] = [];
    for await (const value of mapOrdered(
      source(),
      4,
      async (item) => {
        running++;
        most = Math.max(most, running);
        await sleep(item % 3);
        running--;
        return item;
      },
      { buffer: 6 },
    )) {
      // Items pulled from the source but not yet yielded: at most the buffer.
      expect(pulled - seen.length).toBeLessThanOrEqual(6);
      seen.push(value);
    }
    expect(most).toBeLessThanOrEqual(4);
    expect(seen).toEqual(Array.from({ length: 40 }, (_, index) => index));
  });

  it('rethrows a failure at its turn', async () => {
    const run = collect(
      mapOrdered([1, 2, 3], 2, async (item) => {
        if (item === 2) throw new Error('boom');
        return item;
      }),
    );
    await expect(run).rejects.toThrow('boom');
  });
});
