import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sameCanonicalJson } from '../../src/harness/canonical-json.js';
import { contentHash, hashHarness } from '../../src/harness/hash.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { travelHarnessInput } from '../support/travel-harness.js';

/** Rebuilds every object of a JSON value with its keys in a permuted order. */
function permuteKeys(value: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => permuteKeys(item, order));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(order(Object.keys(record)).map((key) => [key, permuteKeys(record[key], order)]));
}

const reverse = (keys: string[]) => [...keys].reverse();

describe('canonicalJson', () => {
  it('sorts keys and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: undefined })).toBe('{"a":[true,null,"x"],"b":1}');
  });

  it('refuses values that are not JSON', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(/not a JSON number/);
    expect(() => canonicalJson(() => 1)).toThrow(/not JSON/);
  });

  it('is independent of key order and parses back to the same value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 1_000 }), (value, salt) => {
        const shuffle = (keys: string[]) =>
          [...keys].sort(
            (a, b) => ((a.length * 31 + salt) % 7) - ((b.length * 31 + salt) % 7) || b.localeCompare(a),
          );
        const text = canonicalJson(value);
        expect(canonicalJson(permuteKeys(value, shuffle))).toBe(text);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });
});

describe('content hashes', () => {
  it('are fixed values, the same on every machine', () => {
    // Golden: sha256 of the canonical text '{"a":1,"b":[2,"é"]}'.
    expect(contentHash({ b: [2, 'é'], a: 1 })).toBe(
      'sha256:992f8d0a5d6192a6c1c9dd35a695b4ce8c743eaa26836ab176d7367cf0bd62b1',
    );
  });

  it('of a harness ignore key order and editor metadata, and change with content', () => {
    const base = hashHarness(parseHarness(travelHarnessInput()));
    expect(hashHarness(parseHarness(permuteKeys(travelHarnessInput(), reverse)))).toEqual(base);
    expect(hashHarness(parseHarness({ ...travelHarnessInput(), $schema: './schema.json' }))).toEqual(base);
    const changed = travelHarnessInput();
    changed.tools.items[0]!.description = 'Find flights.';
    const hashes = hashHarness(parseHarness(changed));
    expect(hashes.tools).not.toBe(base.tools);
    expect(hashes.harness).not.toBe(base.harness);
    expect(hashes.skills).toBe(base.skills);
    expect(hashes.prompt).toBe(base.prompt);
  });

  it('do not depend on whether a default was written out', () => {
    const explicit = travelHarnessInput();
    explicit.skills.loader = {
      tool: 'load_skill',
      argument: 'skill_id',
      description: 'Load the full rules of a skill by its id before you use it.',
    };
    expect(hashHarness(parseHarness(explicit))).toEqual(hashHarness(parseHarness(travelHarnessInput())));
  });
});

// JSON values with the forms canonical JSON folds: undefined members and items, -0, permuted keys.
const looseJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -0, 1, 'a', 'b', ''),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string(),
    fc.array(fc.oneof(tie('value'), fc.constant(undefined)), { maxLength: 4 }),
    fc.dictionary(
      fc.constantFrom('a', 'b', 'c', '__proto__', 'x y'),
      fc.oneof(tie('value'), fc.constant(undefined)),
      {
        maxKeys: 4,
      },
    ),
  ),
})).value;

describe('sameCanonicalJson', () => {
  it('answers as comparing the two canonical texts does (property)', () => {
    fc.assert(
      fc.property(looseJson, looseJson, (a, b) => {
        expect(sameCanonicalJson(a, b)).toBe(canonicalJson(a) === canonicalJson(b));
      }),
    );
  });

  it('finds equal values equal whatever their key order, and a changed leaf different (property)', () => {
    fc.assert(
      fc.property(looseJson, (value) => {
        expect(sameCanonicalJson(value, permuteKeys(value, reverse))).toBe(true);
        expect(sameCanonicalJson({ v: value }, { v: value, w: 1 })).toBe(false);
      }),
    );
    expect(sameCanonicalJson({ a: [1, undefined], b: undefined }, { a: [1, null] })).toBe(true);
    expect(sameCanonicalJson({ a: -0 }, { a: 0 })).toBe(true);
    expect(sameCanonicalJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameCanonicalJson([], {})).toBe(false);
  });

  it('refuses scalars that are not JSON, as canonicalJson does', () => {
    expect(() => sameCanonicalJson(Number.NaN, Number.NaN)).toThrow(/not a JSON number/);
    expect(() => sameCanonicalJson({ a: () => 1 }, { a: () => 1 })).toThrow(/not JSON/);
  });
});
