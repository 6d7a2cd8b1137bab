import fc from 'fast-check';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../src/augment/random.js';

const draws = (next: () => number, count: number) => Array.from({ length: count }, next);

describe('createRandom', () => {
  it("draws ARC4's sequence of the seed, and a fork the sequence of `seed/label`", () => {
    fc.assert(
      fc.property(fc.string(), fc.oneof(fc.string(), fc.nat()), (seed, label) => {
        const expected = seedrandom(seed);
        expect(draws(createRandom(seed).next, 5)).toEqual(draws(() => expected.double(), 5));
        const forked = seedrandom(`${seed}/${label}`);
        expect(draws(createRandom(seed).fork(label).next, 5)).toEqual(draws(() => forked.double(), 5));
      }),
    );
  });

  it('gives a fork the same sequence whether its parent drew before, after or never', () => {
    const untouched = draws(createRandom('s').fork('a').next, 4);
    const parent = createRandom('s');
    parent.next();
    const late = parent.fork('a');
    parent.next();
    expect(draws(late.next, 4)).toEqual(untouched);
    const early = createRandom('s').fork('a');
    expect(draws(early.next, 4)).toEqual(untouched);
    expect(draws(createRandom('s').fork('a').fork('b').next, 2)).toEqual(
      draws(createRandom('s/a/b').next, 2),
    );
  });

  it('keeps one sequence across the helpers that draw from it', () => {
    const rng = createRandom('42/ls-0001/0');
    const expected = seedrandom('42/ls-0001/0');
    expect(rng.int(1, 6)).toBe(1 + Math.floor(expected.double() * 6));
    expect(rng.chance(0.5)).toBe(expected.double() < 0.5);
    expect(rng.pick(['a', 'b', 'c'])).toBe(['a', 'b', 'c'][Math.floor(expected.double() * 3)]);
  });
});
