// The one identifier splitter: humps, snake, kebab and digits in any script, and the learner's text words
// built on it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CaseStyle, formatWords, identifierWords } from '../../src/augment/identifier-words.js';
import { words } from '../../src/learner/text-features.js';

/**
 * Lower-case letters whose upper case is one letter that lower-cases back (no ß, ı or final ς); words of two
 * or more, since camelCase cannot tell one-letter words from an acronym (`aAA`).
 */
const casedLetters = [...'abcdefghijklmnopqrstuvwxyzàéñöçαβγδεζηθλμπρστωабвгдежзиклмнопрстуфя'];
const casedWord = fc
  .array(fc.constantFrom(...casedLetters), { minLength: 2, maxLength: 6 })
  .map((letters) => letters.join(''));
const style = fc.constantFrom<CaseStyle>('snake', 'camel', 'kebab');

/** The learner's words as they were before they used `identifierWords`: ASCII humps only. */
function asciiWords(text: string): string[] {
  const spaced = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  return [...spaced.matchAll(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}]+|\d+/gu)].map(
    ([word]) => (/^\d+$/.test(word) ? '#' : word),
  );
}

describe('identifierWords', () => {
  it('splits humps, snake, kebab and other separators in any script', () => {
    expect(identifierWords('HTTPServer_status')).toEqual(['http', 'server', 'status']);
    expect(identifierWords('prixÉtéTotal')).toEqual(['prix', 'été', 'total']);
    expect(identifierWords('получитьЦену')).toEqual(['получить', 'цену']);
    expect(identifierWords('商品-价格_v2')).toEqual(['商品', '价格', 'v2']);
    expect(identifierWords('क़ीमत_देखें')).toEqual(['क़ीमत', 'देखें']);
  });

  it('reads back the words it was given, in every case style and script with letter case', () => {
    fc.assert(
      fc.property(fc.array(casedWord, { minLength: 1, maxLength: 5 }), style, (given, caseStyle) => {
        expect(identifierWords(formatWords(given, caseStyle))).toEqual(given);
      }),
    );
  });

  it('gives non-empty lower-case words without separators', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (name) => {
        for (const word of identifierWords(name)) {
          expect(word.length).toBeGreaterThan(0);
          expect(word).toBe(word.toLowerCase());
          expect(word).toMatch(/^[\p{L}\p{M}\p{N}]+$/u);
        }
      }),
    );
  });
});

describe("the learner's words", () => {
  it('split identifiers in any script, fold digits and keep marks inside a word', () => {
    expect(words('getPriceAndCoupons link_id 42 价格')).toEqual([
      'get',
      'price',
      'and',
      'coupons',
      'link',
      'id',
      '#',
      '价',
      '格',
    ]);
    expect(words('prixÉtéTotal получитьЦену ४२ देखें')).toEqual([
      'prix',
      'été',
      'total',
      'получить',
      'цену',
      '#',
      'देखें',
    ]);
  });

  it('are what they were on ASCII text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), (text) => {
        expect(words(text)).toEqual(asciiWords(text));
      }),
      { numRuns: 500 },
    );
  });
});
