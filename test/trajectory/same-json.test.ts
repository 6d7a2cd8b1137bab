// `sameJson(a, b)` answers exactly `JSON.stringify(a) === JSON.stringify(b)`: checked on hand-picked edge
// cases and on every single-value change of a real trajectory.
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../src/trajectory/same-json.js';
import { baggageTrajectory } from '../support/travel-harness.js';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

describe('sameJson', () => {
  const values: unknown[] = [
    undefined,
    null,
    0,
    -0,
    1,
    1e21,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '',
    'null',
    '0',
    true,
    false,
    [],
    [undefined],
    [null],
    [() => 1],
    [1, 2],
    [2, 1],
    {},
    { a: undefined },
    { a: 1 },
    { a: 1, b: undefined },
    { b: undefined, a: 1 },
    { a: 1, b: 2 },
    { b: 2, a: 1 },
    { 1: 'x', a: 'y' },
    { a: 'y', 1: 'x' },
    { a: null },
    { a: Number.NaN },
    { a: [undefined] },
    { a: [null] },
    { toJSON: () => 1 },
    { toJSON: 'not a function' },
    new Date(0),
    new Number(1),
    new String('a'),
    Object.assign(Object.create(null), { a: 1 }),
    Object.assign([1], { extra: 2 }),
    () => 1,
    Symbol('s'),
  ];

  it('agrees with JSON.stringify on every pair of edge cases', () => {
    for (const a of values)
      for (const b of values)
        expect(sameJson(a, b), `${String(JSON.stringify(a))} / ${String(JSON.stringify(b))}`).toBe(
          same(a, b),
        );
  });

  it('agrees with JSON.stringify on every one-value change of a trajectory', () => {
    const original = baggageTrajectory();
    const copy = () => JSON.parse(JSON.stringify(original));
    expect(sameJson(copy(), original)).toBe(true);
    // Every leaf of the trajectory, changed in turn (a string gets a character, a number one more, a
    // value becomes undefined), and every object with its keys in another order.
    const paths: Array<Array<string | number>> = [];
    const walk = (value: unknown, path: Array<string | number>) => {
      if (typeof value === 'object' && value !== null) {
        paths.push(path);
        for (const [key, child] of Object.entries(value))
          walk(child, [...path, Array.isArray(value) ? Number(key) : key]);
      } else paths.push(path);
    };
    walk(original, []);
    for (const path of paths) {
      if (path.length === 0) continue;
      for (const change of ['string', 'undefined', 'reverse'] as const) {
        const changed = copy();
        const parent = path.slice(0, -1).reduce((node, key) => node[key], changed);
        const key = path.at(-1) as string | number;
        const value = parent[key];
        if (change === 'string') parent[key] = typeof value === 'number' ? value + 1 : `${String(value)}x`;
        else if (change === 'undefined') parent[key] = undefined;
        else if (typeof value === 'object' && value !== null && !Array.isArray(value))
          parent[key] = Object.fromEntries(Object.entries(value).reverse());
        expect(sameJson(changed, original), `${change} at ${path.join('.')}`).toBe(same(changed, original));
        expect(sameJson(original, changed), `${change} at ${path.join('.')}`).toBe(same(original, changed));
      }
    }
  });
});
