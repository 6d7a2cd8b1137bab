import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { occursAsWord, textIndex } from '../../src/harness/text-index.js';

// Small alphabets so that words and substrings collide often: the index must answer as a scan would.
const character = fc.constantFrom('a', 'b', '_', '-', ' ', '.', '\n', '1', 'é', '`');
const text = fc.string({ unit: character, maxLength: 40 });
const needle = fc.string({ unit: character, minLength: 1, maxLength: 8 });

describe('textIndex', () => {
  it('answers whole-word questions as a scan of every text does', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 6 }), fc.array(needle, { maxLength: 6 }), (texts, words) => {
        const index = textIndex(texts);
        for (const word of words)
          expect(index.hasWord(word)).toBe(texts.some((candidate) => occursAsWord(candidate, word)));
      }),
      { numRuns: 400 },
    );
  });

  it('finds every text holding a substring, and only those', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 6 }), fc.array(needle, { maxLength: 6 }), (texts, needles) => {
        const index = textIndex(texts);
        for (const sought of needles) {
          const expected = texts.flatMap((candidate, at) => (candidate.includes(sought) ? [at] : []));
          expect(index.containing(sought)).toEqual(expected);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('finds a line among thousands of texts by its words', () => {
    const texts = Array.from({ length: 3000 }, (_, at) => `- Quote the price of item ${at} before the link.`);
    expect(textIndex(texts).containing('price of item 1234 before')).toEqual([1234]);
    expect(textIndex(texts).hasWord('item')).toBe(true);
    expect(textIndex(texts).hasWord('ite')).toBe(false);
  });
});
