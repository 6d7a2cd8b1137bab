import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Chunks } from '../../src/harness/utf8-chunks.js';

/** Every chunk `add` and `rest` return for the texts, in order. */
function chunksOf(texts: readonly string[], size: number): Buffer[] {
  const chunks = utf8Chunks(size);
  const out: Buffer[] = [];
  for (const text of texts) out.push(...chunks.add(text));
  const last = chunks.rest();
  if (last) out.push(last);
  return out;
}

// Texts of one, two, three and four UTF-8 bytes a character, lone surrogates included.
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', '{', 'é', '直', '播', '😀', '\uD800', '\uDC00'),
    fc.string({ unit: 'binary', maxLength: 1 }),
  ),
  maxLength: 40,
});

describe('utf8Chunks', () => {
  it('writes the bytes of each text encoded on its own, in order, whatever the chunk size', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 30 }), fc.integer({ min: 1, max: 64 }), (texts, size) => {
        const expected = Buffer.concat(texts.map((item) => Buffer.from(item)));
        expect(Buffer.concat(chunksOf(texts, size)).equals(expected)).toBe(true);
      }),
    );
  });

  it('returns no empty chunk and none larger than the size, but for a text longer than one', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 30 }), fc.integer({ min: 4, max: 64 }), (texts, size) => {
        const chunks = chunksOf(texts, size);
        const longest = Math.max(0, ...texts.map((item) => Buffer.byteLength(item)));
        for (const chunk of chunks) {
          expect(chunk.length).toBeGreaterThan(0);
          expect(chunk.length).toBeLessThanOrEqual(Math.max(size, longest));
        }
      }),
    );
  });

  it('keeps each returned chunk intact while it gathers the next ones (the stream may hold it)', () => {
    const chunks = utf8Chunks(8);
    const first = chunks.add('abcdefgh');
    expect(first).toHaveLength(1);
    const held = Buffer.from(first[0] as Buffer);
    chunks.add('ijklmnop');
    expect((first[0] as Buffer).equals(held)).toBe(true);
    expect(held.toString()).toBe('abcdefgh');
  });

  it('drops what it gathered on clear', () => {
    const chunks = utf8Chunks(64);
    expect(chunks.add('lost')).toHaveLength(0);
    chunks.clear();
    chunks.add('kept');
    expect(chunks.rest()?.toString()).toBe('kept');
    expect(chunks.rest()).toBeUndefined();
  });
});
