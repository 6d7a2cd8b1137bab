// findMentions scans each text once for all symbols: it agrees with the per-symbol definition (every
// whole-word occurrence of every name, in the form its kind accepts) except that, where several names start
// at one position, only the longest qualifying one is reported.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findMentions,
  isDistinctiveIdentifier,
  type Mention,
  type SymbolEntry,
} from '../../src/harness/symbol-table.js';

const wordCharacter = /[\p{L}\p{N}_]/u;
const boundary = (text: string, index: number) =>
  index < 0 || index >= text.length || !wordCharacter.test(text[index] as string);

/** The definition, one symbol at a time: quadratic, but obviously right. */
function reference(text: string, symbols: readonly SymbolEntry[]): Mention[] {
  const all: Mention[] = [];
  const seen = new Set<string>();
  for (const symbol of symbols) {
    const key = `${symbol.kind}/${symbol.tool ?? ''}/${symbol.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (let start = text.indexOf(symbol.name); start >= 0; start = text.indexOf(symbol.name, start + 1)) {
      const end = start + symbol.name.length;
      if (!boundary(text, start - 1) || !boundary(text, end)) continue;
      const code = text[start - 1] === '`' && text[end] === '`';
      const qualified =
        symbol.kind === 'parameter' &&
        symbol.tool !== undefined &&
        start > symbol.tool.length &&
        text.startsWith(`${symbol.tool}.`, start - symbol.tool.length - 1);
      if (!code && !qualified && (symbol.kind === 'parameter' || !isDistinctiveIdentifier(symbol.name)))
        continue;
      all.push({
        kind: symbol.kind,
        name: symbol.name,
        ...(symbol.tool !== undefined ? { tool: symbol.tool } : {}),
        path: [],
        start,
        end,
        form: qualified ? 'qualified' : code ? 'code' : 'bare',
      });
    }
  }
  // At one position only the longest name stays.
  const longest = new Map<number, number>();
  for (const mention of all)
    longest.set(mention.start, Math.max(longest.get(mention.start) ?? 0, mention.end));
  return all
    .filter((mention) => mention.end === longest.get(mention.start))
    .sort((a, b) => a.start - b.start);
}

const names = ['get', 'get_price', 'get_price.v2', 'price', 'link_id', 'link', 'size', 'a-b', 'a-b-c', 'b-c'];
const symbolArbitrary = fc.oneof(
  fc.record({ kind: fc.constantFrom('tool' as const, 'skill' as const), name: fc.constantFrom(...names) }),
  fc.record({
    kind: fc.constant('parameter' as const),
    name: fc.constantFrom(...names),
    tool: fc.constantFrom('get_price', 'lookup'),
  }),
);
const textArbitrary = fc
  .array(fc.constantFrom(...names, 'lookup', ' ', '`', '.', '_', '-', 'x', '\n', 'é'), { maxLength: 30 })
  .map((parts) => parts.join(''));

describe('findMentions, one scan for all symbols', () => {
  it('agrees with the per-symbol definition, longest name first at a position', () => {
    fc.assert(
      fc.property(fc.array(symbolArbitrary, { maxLength: 8 }), textArbitrary, (raw, text) => {
        const symbols: SymbolEntry[] = raw.map((symbol) => ({ ...symbol, definedAt: [] }));
        expect(findMentions({ path: [], text }, symbols)).toEqual(reference(text, symbols));
      }),
      { numRuns: 300 },
    );
  });

  it('never reports a shorter name inside a longer one at the same position', () => {
    const symbols: SymbolEntry[] = [
      { kind: 'tool', name: 'get_price', definedAt: [] },
      { kind: 'tool', name: 'get_price.v2', definedAt: [] },
    ];
    const found = findMentions({ path: [], text: 'call `get_price.v2` or get_price' }, symbols);
    expect(found.map((mention) => [mention.name, mention.start])).toEqual([
      ['get_price.v2', 6],
      ['get_price', 23],
    ]);
  });

  it('falls back to a shorter name when the longer one is not in a form its kind accepts', () => {
    const symbols: SymbolEntry[] = [
      { kind: 'tool', name: 'get_price', definedAt: [] },
      { kind: 'parameter', name: 'get_price.v2', tool: 'lookup', definedAt: [] },
    ];
    const found = findMentions({ path: [], text: 'get_price.v2 is bare' }, symbols);
    expect(found.map((mention) => [mention.name, mention.start, mention.end])).toEqual([['get_price', 0, 9]]);
  });
});
