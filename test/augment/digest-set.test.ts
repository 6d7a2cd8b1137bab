// The compact memory of a long run: a set of 16-byte digests answers like a Set of the keys it stands for,
// costs at most ~43 bytes a key whatever the key's length, and a sidecar writer remembers what it has written
// in one (not as 71-character hash strings).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DigestSet, digestOfContentHash, digestOfText } from '../../src/augment/digest-set.js';
import { createSidecarWriter } from '../../src/augment/variant-sidecar.js';
import { contentHash, hashHarness } from '../../src/harness/hash.js';
import type { Harness } from '../../src/harness/schema.js';
import type { Relabel } from '../../src/trajectory/relabel.js';
import { travelHarness } from '../support/travel-harness.js';

describe('DigestSet', () => {
  it('answers add and has as a Set of the texts does', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 3000 }), (texts) => {
        const set = new DigestSet();
        const reference = new Set<string>();
        for (const text of texts) {
          expect(set.has(digestOfText(text))).toBe(reference.has(text));
          expect(set.add(digestOfText(text))).toBe(!reference.has(text));
          reference.add(text);
        }
        expect(set.size).toBe(reference.size);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps an all-zero digest apart from the empty slots', () => {
    const set = new DigestSet();
    const zero = new Uint8Array(16);
    expect(set.has(zero)).toBe(false);
    expect(set.add(zero)).toBe(true);
    expect(set.add(zero)).toBe(false);
    expect(set.has(zero)).toBe(true);
    expect(set.size).toBe(1);
  });

  it('costs the same for long keys as for short ones, at most 43 bytes a key past the first table', () => {
    const short = new DigestSet();
    const long = new DigestSet();
    const keys = 100_000;
    for (let index = 0; index < keys; index++) {
      short.add(digestOfText(`e${index}`));
      long.add(digestOfText(`${'x'.repeat(1000)}-${index}`));
    }
    expect(short.size).toBe(keys);
    expect(long.bytes).toBe(short.bytes);
    expect(short.bytes / keys).toBeLessThanOrEqual(43);
  });

  it('refuses what is not a content hash, or a digest under 16 bytes', () => {
    expect(() => digestOfContentHash('sha256:abc')).toThrow(/content hash/);
    expect(() => new DigestSet().add(new Uint8Array(8))).toThrow(/16 are needed/);
  });
});

describe('the sidecar writer remembers written entries as digests', () => {
  const base = travelHarness();
  const harnesses = Array.from({ length: 7 }, (_, index) => ({ ...base, description: `variant ${index}` }));
  const relabelOf = (index: number) =>
    ({
      steps: [{ type: 'rename_tools', renames: { [`tool_${index}`]: `t${index}` } }],
    }) as unknown as Relabel;

  it('writes each entry once and keeps 16-byte slots, not hash strings, for 20k of them', () => {
    const writer = createSidecarWriter();
    const relabels = 20_000;
    let harnessLines = 0;
    let relabelLines = 0;
    for (let round = 0; round < 2; round++)
      for (let index = 0; index < relabels; index++) {
        const { sidecar } = writer.reference({
          harness: harnesses[index % harnesses.length] as Harness,
          relabel: relabelOf(index),
        });
        harnessLines += (sidecar.match(/"kind":"harness"/g) ?? []).length;
        relabelLines += (sidecar.match(/"kind":"relabel"/g) ?? []).length;
      }
    expect(harnessLines).toBe(harnesses.length);
    expect(relabelLines).toBe(relabels);
    expect(writer.known.entries).toBe(relabels + harnesses.length);
    // A Set of 20k 71-character strings takes ~100 bytes an entry; the digests' table at most 43.
    expect(writer.known.bytes / writer.known.entries).toBeLessThanOrEqual(43);
  });

  it('knows the hashes it is given (a resumed run) and writes none of them again', () => {
    const relabel = { steps: [] } as unknown as Relabel;
    const writer = createSidecarWriter({ known: [contentHash(relabel), hashHarness(base).harness] });
    expect(writer.reference({ harness: base, relabel }).sidecar).toBe('');
    expect(writer.known.entries).toBe(2);
  });
});
