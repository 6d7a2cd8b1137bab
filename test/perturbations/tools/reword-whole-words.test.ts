// The protected words of tools/reword-descriptions are found by a trie scan that replaced one regular
// expression alternation per tool (tools × identifiers: minutes at 10,000 tools). The scan must find exactly
// the spans the alternation found, so that no description is reworded differently.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wholeWordSpans, wordTrie } from '../../../perturbations/tools/reword-descriptions.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The rule as it was written before: one alternation, longest word first, whole words only.
function alternationSpans(text: string, words: readonly string[]): Array<{ start: number; end: number }> {
  const alternatives = [...new Set(words.filter((word) => word.length > 0))]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
    .map(escapeRegExp);
  if (alternatives.length === 0) return [];
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
  return [...text.matchAll(pattern)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
}

// Small alphabets make overlaps, prefixes and word boundaries frequent; one astral character and CJK too.
const character = fc.constantFrom('a', 'b', '_', '-', ' ', '.', '1', 'é', '价', '😀', '(', ')');
const word = fc.string({ unit: character, minLength: 0, maxLength: 4 });
const text = fc.string({ unit: character, maxLength: 40 });

describe('tools/reword-descriptions: whole-word spans', () => {
  it('finds the spans the alternation found, for any words split over the two lists', () => {
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 6 }),
        fc.array(word, { maxLength: 3 }),
        text,
        (names, enums, sample) => {
          const found = wholeWordSpans(sample, [wordTrie(names), wordTrie(enums)]);
          expect(found).toEqual(alternationSpans(sample, [...names, ...enums]));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('prefers the longest word at a position and never a word inside a longer token', () => {
    const trie = wordTrie(['get', 'get_price', 'price']);
    expect(wholeWordSpans('call get_price, not get_prices or price', [trie])).toEqual([
      { start: 5, end: 14 },
      { start: 34, end: 39 },
    ]);
  });
});
