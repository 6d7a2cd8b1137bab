import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { occursAsWord, textIndex } from '../../src/harness/text-index.js';

// Small alphabets so that words and substrings collide often: the index must answer as a scan would.
// Letters outside the BMP (`𝐀`, `𠮷`) are two UTF-16 units, neither a letter to the word rule.
const character = fc.constantFrom(
  'a',
  'b',
  '_',
  '-',
  ' ',
  '.',
  '\n',
  '1',
  'é',
  '`',
  '\u{1D400}',
  '\u{20BB7}',
);
const text = fc.string({ unit: character, maxLength: 40 });
const needle = fc.string({ unit: character, minLength: 1, maxLength: 8 });

describe('occursAsWord', () => {
  it('reads text a UTF-16 unit at a time, as the symbol table does, and an empty word as no word', () => {
    // Neither half of `𝐀` is a letter: `the-zqb` stands as a word in `𝐀the-zqb`, and the index finds it.
    expect(occursAsWord('\u{1D400}the-zqb', 'the-zqb')).toBe(true);
    expect(textIndex(['\u{1D400}the-zqb']).hasWord('the-zqb')).toBe(true);
    expect(textIndex(['x\u{20BB7}the-zqb\u{20BB7}']).containing('\u{20BB7}the-zqb\u{20BB7}')).toEqual([0]);
    expect(occursAsWord('athe-zqb', 'the-zqb')).toBe(false);
    expect(occursAsWord('a b', '')).toBe(false);
    expect(textIndex(['a', 'b c']).hasWord('')).toBe(false);
  });
});

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
