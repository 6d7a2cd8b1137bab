// parseJsonText refuses exactly what the project's scanner refuses, with the scanner's error, and runs the
// scanner only when its answer is needed: never on valid JSON without duplicate keys, deep nesting or a
// number longer than the scanner reads.
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { findJsonSyntaxError } from '../../src/harness/json-syntax.js';
import { parseJsonText } from '../../src/harness/parse-json-text.js';

// The real scanner, wrapped so that the test can count its runs.
vi.mock('../../src/harness/json-syntax.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/harness/json-syntax.js')>();
  return { ...actual, findJsonSyntaxError: vi.fn(actual.findJsonSyntaxError) };
});
const scans = vi.mocked(findJsonSyntaxError);

const space = fc.constantFrom('', ' ', '\n', '\t ', '\r\n');
const key = fc.constantFrom(
  '"a"',
  '"b"',
  '"\\u0061"',
  '"a\\""',
  '"\\\\"',
  '"__proto__"',
  '"x:"',
  '"\\\\\\""',
);
/** Objects whose keys often repeat, spelled or escaped, with colons and escaped quotes around them. */
const objectText: fc.Arbitrary<string> = fc.letrec<{ value: string; object: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.json({ maxDepth: 1 }),
    tie('object'),
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
  ),
  object: fc
    .array(fc.tuple(space, key, space, tie('value')), { maxLength: 4 })
    .map((members) => `{${members.map(([a, k, b, v]) => `${a}${k}${b}:${b}${v}`).join(',')}}`),
})).object;
const nested = fc
  .tuple(fc.integer({ min: 250, max: 262 }), fc.constantFrom('[', '{"k":'), fc.json({ maxDepth: 0 }))
  .map(([depth, open, leaf]) => `${open.repeat(depth)}${leaf}${(open === '[' ? ']' : '}').repeat(depth)}`);
const longNumber = fc
  .tuple(
    fc.integer({ min: 395, max: 405 }),
    fc.constantFrom('', '-'),
    fc.constantFrom('', '.5', 'e+7', '.25E-3'),
    fc.constantFrom(
      (n: string) => n,
      (n: string) => `[1,${n},"x"]`,
      (n: string) => `{"n":${n}}`,
      (n: string) => `"${n}"`,
    ),
  )
  .map(([digits, sign, tail, wrap]) => wrap(`${sign}1${'0'.repeat(digits - 1)}${tail}`));
const soup = fc.string({
  unit: fc.constantFrom('{', '}', '[', ']', ':', ',', '"', '1', 'a', ' ', '\\', 'n', 'u', 'e', '-', '.'),
});
const jsonish = fc.oneof(
  fc.json(),
  fc.json().map((text) => text.slice(0, Math.max(0, text.length - 1))),
  objectText,
  objectText.map((text) => text.slice(0, Math.max(0, text.length - 2))),
  nested,
  longNumber,
  soup,
);

/** What the scanner and JSON.parse together said before parseJsonText. */
function scannerAnswer(text: string, maxDepth?: number) {
  const error = findJsonSyntaxError(text, maxDepth === undefined ? {} : { maxDepth });
  return error ? { ok: false, error } : { ok: true, value: JSON.parse(text) as unknown };
}

describe('parseJsonText', () => {
  beforeEach(() => scans.mockClear());

  it('gives the scanner’s answer on arbitrary text, at the default and at a small depth limit (property)', () => {
    fc.assert(
      fc.property(jsonish, fc.constantFrom(undefined, 2, 5), (text, maxDepth) => {
        const expected = scannerAnswer(text, maxDepth);
        expect(parseJsonText(text, maxDepth === undefined ? {} : { maxDepth })).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
  });

  it('does not run the scanner on valid JSON without duplicate keys (property)', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        scans.mockClear();
        expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) });
        expect(scans).not.toHaveBeenCalled();
      }),
      { numRuns: 500 },
    );
  });

  it('runs the scanner for what JSON.parse takes and the scanner refuses, and for bad text', () => {
    const refused: Array<[string, string]> = [
      ['{"a":1, "b":{"c":2}, "a":3}', 'duplicate key "a"'],
      ['{"a":1,"\\u0061":2}', 'duplicate key "a"'],
      [`${'['.repeat(257)}${']'.repeat(257)}`, 'nesting deeper than 256 levels is not allowed'],
      [`[${'9'.repeat(401)}]`, "expected ',' or ']'"],
      ['{"a": }', 'expected a value'],
    ];
    for (const [text, message] of refused) {
      scans.mockClear();
      const result = parseJsonText(text);
      expect(result.ok ? undefined : result.error.message).toBe(message);
      expect(scans).toHaveBeenCalledTimes(1);
    }
    // At the limits the scanner is asked and agrees: no error.
    for (const text of [`${'['.repeat(256)}${']'.repeat(256)}`, `[${'9'.repeat(400)}]`]) {
      scans.mockClear();
      expect(parseJsonText(text).ok).toBe(true);
    }
  });

  it('counts keys through escaped quotes and colons inside strings', () => {
    // Two keys in the text, two in the value: no scan, though the strings hold `":` and `\"`.
    const text = '{"a\\":":"\\\\", "b":"x\\":y"}';
    expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) });
    expect(scans).not.toHaveBeenCalled();
  });
});
