import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numbersInWords } from '../../src/kit/index.js';

const small =
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(
    ' ',
  );
const tensWords = 'twenty thirty forty fifty sixty seventy eighty ninety'.split(' ');

/** English words for 0 … 999,999, as a text may write them (hyphens or spaces, "and" after hundreds or not). */
function inWords(n: number, hyphen: boolean, and: boolean): string {
  const belowHundred = (value: number) =>
    value < 20
      ? (small[value] as string)
      : `${tensWords[Math.floor(value / 10) - 2]}${value % 10 ? `${hyphen ? '-' : ' '}${small[value % 10]}` : ''}`;
  const belowThousand = (value: number) =>
    value < 100
      ? belowHundred(value)
      : `${small[Math.floor(value / 100)]} hundred${value % 100 ? `${and ? ' and' : ''} ${belowHundred(value % 100)}` : ''}`;
  if (n < 1000) return belowThousand(n);
  const rest = n % 1000;
  return `${belowThousand(Math.floor(n / 1000))} thousand${rest ? ` ${belowThousand(rest)}` : ''}`;
}

describe('numbersInWords', () => {
  it('reads the numbers a sentence writes in words, and counts of times', () => {
    expect(
      numbersInWords('No more than twelve calls; retry twice, at most one hundred and five characters.'),
    ).toEqual(['12', '2', '105']);
    expect(numbersInWords('Make no more than Twelve tool calls.')).toEqual(['12']);
    expect(numbersInWords('a hundred rows')).toEqual(['100']);
    expect(numbersInWords('No numbers here, and none written.')).toEqual([]);
    // Words that name members of every JavaScript object are words like any other.
    expect(numbersInWords('Call the constructor twice; valueOf and toString once.')).toEqual(['2', '1']);
  });

  it('keeps two numbers side by side apart', () => {
    expect(numbersInWords('five twenty')).toEqual(['5', '20']);
    expect(numbersInWords('twenty twenty')).toEqual(['20', '20']);
  });

  it('reads back every number from 0 to 999,999 however it is written', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999 }), fc.boolean(), fc.boolean(), (n, hyphen, and) => {
        expect(numbersInWords(`Allow ${inWords(n, hyphen, and)} calls.`)).toEqual([String(n)]);
      }),
    );
  });
});
