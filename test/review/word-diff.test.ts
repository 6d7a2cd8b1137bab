import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxCells, wordDiff, wordTokens } from '../../src/review/word-diff.js';

const spell = (runs: ReturnType<typeof wordDiff>, side: 'base' | 'variant') =>
  runs
    .filter((run) => run.type === 'same' || run.type === (side === 'base' ? 'removed' : 'added'))
    .map((run) => run.text)
    .join('');

describe('wordDiff', () => {
  it('marks the words that changed, and only those', () => {
    expect(wordDiff('Quote the price before the coupon.', 'State the price after the coupon.')).toEqual([
      { type: 'removed', text: 'Quote' },
      { type: 'added', text: 'State' },
      { type: 'same', text: ' the price ' },
      { type: 'removed', text: 'before' },
      { type: 'added', text: 'after' },
      { type: 'same', text: ' the coupon.' },
    ]);
  });

  it('treats an added line as one added run and keeps identifiers whole', () => {
    expect(
      wordDiff('# Stock\n- Call `check_stock`.', '# Stock\nFollow every rule.\n- Call `look_up_stock`.'),
    ).toEqual([
      { type: 'same', text: '# Stock\n' },
      { type: 'added', text: 'Follow every rule.\n' },
      { type: 'same', text: '- Call `' },
      { type: 'removed', text: 'check_stock' },
      { type: 'added', text: 'look_up_stock' },
      { type: 'same', text: '`.' },
    ]);
  });

  it('reads a replaced phrase as one removal and one addition, not words matched across a space', () => {
    expect(wordDiff('State weights in kilograms.', 'Give every weight in kilograms.')).toEqual([
      { type: 'removed', text: 'State weights' },
      { type: 'added', text: 'Give every weight' },
      { type: 'same', text: ' in kilograms.' },
    ]);
  });

  it('cuts Chinese text character by character', () => {
    expect(wordTokens('不要承诺发货')).toEqual(['不', '要', '承', '诺', '发', '货']);
    expect(wordDiff('不要承诺发货', '不得承诺发货')).toEqual([
      { type: 'same', text: '不' },
      { type: 'removed', text: '要' },
      { type: 'added', text: '得' },
      { type: 'same', text: '承诺发货' },
    ]);
  });

  it('gives one run per side for a middle too large for the table', () => {
    const base = Array.from({ length: Math.ceil(Math.sqrt(maxCells)) + 2 }, (_, index) => `a${index}`).join(
      ' ',
    );
    const variant = Array.from(
      { length: Math.ceil(Math.sqrt(maxCells)) + 2 },
      (_, index) => `b${index}`,
    ).join(' ');
    const runs = wordDiff(`x ${base} y`, `x ${variant} y`);
    expect(runs.map((run) => run.type)).toEqual(['same', 'removed', 'added', 'same']);
  });

  it('spells both texts back, and the same texts give the same runs', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 60 }),
        fc.string({ unit: 'grapheme', maxLength: 60 }),
        (a, b) => {
          const runs = wordDiff(a, b);
          expect(spell(runs, 'base')).toBe(a);
          expect(spell(runs, 'variant')).toBe(b);
          expect(wordDiff(a, b)).toEqual(runs);
          if (a === b) expect(runs.every((run) => run.type === 'same')).toBe(true);
        },
      ),
    );
  });
});
