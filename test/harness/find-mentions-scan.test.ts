// findMentions scans each text once for all symbols: it agrees with the per-symbol definition (every
// whole-word occurrence of every name, in the form its kind accepts) except that, where several names start
// at one position, only the longest qualifying one is reported.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mentionStandsAlone } from '../../src/harness/mention-boundary.js';
import {
  findMentions,
  isDistinctiveIdentifier,
  type Mention,
  namedByKindWord,
  type SymbolEntry,
} from '../../src/harness/symbol-table.js';

/** The definition, one symbol at a time (as main's `findMentions` had it): quadratic, but obviously right. */
function reference(text: string, symbols: readonly SymbolEntry[]): Mention[] {
  const all: Mention[] = [];
  const seen = new Set<string>();
  const memberSuffixes = new Map<string, string[]>();
  for (const symbol of symbols) {
    if (symbol.kind !== 'parameter' || symbol.tool === undefined) continue;
    memberSuffixes.set(symbol.tool, [...(memberSuffixes.get(symbol.tool) ?? []), `.${symbol.name}`]);
  }
  for (const symbol of symbols) {
    const key = `${symbol.kind}/${symbol.tool ?? ''}/${symbol.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (let start = text.indexOf(symbol.name); start >= 0; start = text.indexOf(symbol.name, start + 1)) {
      const end = start + symbol.name.length;
      const code = text[start - 1] === '`' && text[end] === '`';
      const qualifier = symbol.kind === 'parameter' && symbol.tool !== undefined ? `${symbol.tool}.` : '';
      const qualified =
        qualifier !== '' && start >= qualifier.length && text.startsWith(qualifier, start - qualifier.length);
      const context = {
        code,
        ...(qualified ? { prefixes: [qualifier] } : {}),
        ...(symbol.kind === 'tool' ? { suffixes: memberSuffixes.get(symbol.name) ?? [] } : {}),
      };
      if (!mentionStandsAlone(text, start, end, context)) continue;
      const plain = !isDistinctiveIdentifier(symbol.name) && !namedByKindWord(text, start, end, symbol.kind);
      if (!code && !qualified && (symbol.kind === 'parameter' || plain)) continue;
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
  .array(
    fc.constantFrom(
      ...names,
      'lookup',
      ' ',
      '`',
      '.',
      '_',
      '-',
      'x',
      '\n',
      'é',
      '/',
      ':',
      'http://',
      ' folder',
      ' skill',
      ' tool',
      ' skills',
      'price',
    ),
    { maxLength: 30 },
  )
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
      { kind: 'tool', name: 'look_up', definedAt: [] },
      { kind: 'parameter', name: 'look_up now', tool: 'lookup', definedAt: [] },
    ];
    const found = findMentions({ path: [], text: 'look_up now, please' }, symbols);
    expect(found.map((mention) => [mention.name, mention.start, mention.end])).toEqual([['look_up', 0, 7]]);
  });

  it('keeps the boundary rule: no mention inside a path, a URL or a longer token', () => {
    const symbols: SymbolEntry[] = [{ kind: 'tool', name: 'get_price', definedAt: [] }];
    const text = 'see ./get_price/x, https://a.example/get_price, get_price.md, get_price-v2 and get_price.';
    const found = findMentions({ path: [], text }, symbols);
    expect(found.map((mention) => mention.start)).toEqual([text.lastIndexOf('get_price')]);
  });
});
