// A set of 128-bit digests in one flat typed array: what a long run must remember per row (the ids it has
// seen, the sidecar entries it has written) costs 16 bytes a slot, whatever the length of the id or hash it
// stands for, and no object per entry for the collector to walk. Two different keys share a digest with
// probability about n² / 2¹²⁹ (n = 10⁹ keys: ~10⁻²¹), the odds of a sha-256 prefix collision.
import { createHash } from 'node:crypto';

/** Slots in a new set; the table doubles when three quarters are taken. */
const initialSlots = 1024;
const wordsPerSlot = 4;

/**
 * An open-addressing hash set of 16-byte digests (linear probing over a `Uint32Array`). All-zero digests are
 * remembered apart, since a zero slot marks an empty one.
 *
 * @example
 * const seen = new DigestSet();
 * seen.add(digestOfText('example-1')) // true: new
 * seen.add(digestOfText('example-1')) // false: already there
 */
export class DigestSet {
  private table = new Uint32Array(initialSlots * wordsPerSlot);
  private count = 0;
  private zero = false;

  /** Adds a digest (its first 16 bytes); true when it was not in the set. */
  add(digest: Uint8Array): boolean {
    const words = wordsOf(digest);
    if (isZero(words)) {
      const added = !this.zero;
      this.zero = true;
      if (added) this.count++;
      return added;
    }
    if ((this.count + 1) * 4 > this.slots * 3) this.grow();
    const slot = this.find(this.table, words);
    if (
      this.table[slot] !== 0 ||
      this.table[slot + 1] !== 0 ||
      this.table[slot + 2] !== 0 ||
      this.table[slot + 3] !== 0
    )
      return false;
    this.table.set(words, slot);
    this.count++;
    return true;
  }

  /** Whether the digest (its first 16 bytes) is in the set. */
  has(digest: Uint8Array): boolean {
    const words = wordsOf(digest);
    if (isZero(words)) return this.zero;
    const slot = this.find(this.table, words);
    return (
      this.table[slot] !== 0 ||
      this.table[slot + 1] !== 0 ||
      this.table[slot + 2] !== 0 ||
      this.table[slot + 3] !== 0
    );
  }

  /** Digests held. */
  get size(): number {
    return this.count;
  }

  /** Bytes the table takes: 16 a slot, between 4/3 and 8/3 slots an entry once past the first 768. */
  get bytes(): number {
    return this.table.byteLength;
  }

  private get slots(): number {
    return this.table.length / wordsPerSlot;
  }

  /** The slot (word offset) holding `words`, or the empty slot where it would go. */
  private find(table: Uint32Array, words: Uint32Array): number {
    const mask = table.length / wordsPerSlot - 1;
    // A digest is uniform already: its first word picks the slot.
    for (let index = (words[0] as number) & mask; ; index = (index + 1) & mask) {
      const slot = index * wordsPerSlot;
      const a = table[slot] as number;
      const b = table[slot + 1] as number;
      const c = table[slot + 2] as number;
      const d = table[slot + 3] as number;
      if (a === 0 && b === 0 && c === 0 && d === 0) return slot;
      if (a === words[0] && b === words[1] && c === words[2] && d === words[3]) return slot;
    }
  }

  private grow(): void {
    const old = this.table;
    const table = new Uint32Array(old.length * 2);
    for (let slot = 0; slot < old.length; slot += wordsPerSlot) {
      const words = old.subarray(slot, slot + wordsPerSlot);
      if (!isZero(words)) table.set(words, this.find(table, words));
    }
    this.table = table;
  }
}

function wordsOf(digest: Uint8Array): Uint32Array {
  if (digest.length < 16) throw new RangeError(`a digest of ${digest.length} bytes: 16 are needed`);
  const words = new Uint32Array(wordsPerSlot);
  new Uint8Array(words.buffer).set(digest.subarray(0, 16));
  return words;
}

function isZero(words: Uint32Array): boolean {
  return words[0] === 0 && words[1] === 0 && words[2] === 0 && words[3] === 0;
}

/**
 * The 16-byte digest of a text: the first half of its sha-256 (UTF-8).
 *
 * @example
 * digestOfText('example-1').length // 16
 */
export function digestOfText(text: string): Uint8Array {
  return createHash('sha256').update(text, 'utf8').digest().subarray(0, 16);
}

/**
 * The 16-byte digest a content hash (`sha256:<64 hex digits>`) stands for: its first 16 bytes, since the
 * hash is a digest already.
 *
 * @example
 * digestOfContentHash(`sha256:${'ab'.repeat(32)}`).length // 16
 */
export function digestOfContentHash(hash: string): Uint8Array {
  const match = /^sha256:([0-9a-f]{64})$/.exec(hash);
  if (!match) throw new RangeError(`not a content hash (sha256:<64 hex digits>): ${hash.slice(0, 80)}`);
  return Buffer.from((match[1] as string).slice(0, 32), 'hex');
}
