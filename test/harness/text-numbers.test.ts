// A numbering of texts for cache keys: one number per text while it is held, and a number never names two
// texts, also after a text was let go and seen again.
import { describe, expect, it } from 'vitest';
import { textNumbering } from '../../src/harness/text-numbers.js';

describe('textNumbering', () => {
  it('gives a text the same number while it is held, and another text another number', () => {
    const numberOf = textNumbering(1 << 20);
    const template = `## Tools\n${'{{toolList}} '.repeat(200)}`;
    const first = numberOf(template);
    expect(numberOf(`${template}`)).toBe(first);
    expect(numberOf(`${template} `)).not.toBe(first);
  });

  it('never gives two texts one number, also once the first was let go', () => {
    // A budget of about two texts: every third text pushes the oldest out.
    const numberOf = textNumbering(2 * (2 * 100 + 64));
    const texts = Array.from({ length: 30 }, (_, index) => `${index}`.padEnd(100, '.'));
    const seen = new Map<number, string>();
    for (const round of [0, 1])
      for (const text of texts) {
        const number = numberOf(text);
        expect(seen.get(number) ?? text, `round ${round}`).toBe(text);
        seen.set(number, text);
      }
    // The second round found every text let go: each got a new number.
    expect(seen.size).toBe(60);
  });
});
