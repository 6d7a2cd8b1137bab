// Texts gathered into UTF-8 chunks for one stream write each. Each text is encoded into the chunk it lands
// in (`buffer.write`): concatenating the texts first and encoding the result (`Buffer.from` of a 64 KiB
// rope) cost ~8× the CPU on the JSONL rows of the exports (two-byte strings), the largest share of writing
// them. Each text is encoded on its own, as `stream.write(text)` encodes it.

/** What `add` returns when no chunk is full: shared, never written to. */
const none: readonly Buffer[] = Object.freeze([]);

/** A gatherer of texts into UTF-8 chunks of at least `size` bytes (the last one aside). */
export interface Utf8Chunks {
  /** Appends `text`; the chunks now ready to write, in order (mostly none). */
  add(text: string): readonly Buffer[];
  /** What is gathered and not yet returned, as one chunk (undefined when nothing is). */
  rest(): Buffer | undefined;
  /** Drops what is gathered. */
  clear(): void;
}

/**
 * Gathers texts into UTF-8 chunks: a chunk is returned once it holds `size` bytes, or when the next text
 * does not fit in it; a text longer than a chunk is a chunk of its own.
 *
 * @example
 * const chunks = utf8Chunks();
 * for (const line of lines) for (const chunk of chunks.add(line)) stream.write(chunk);
 * const last = chunks.rest();
 * if (last) stream.write(last);
 */
export function utf8Chunks(size = 1 << 16): Utf8Chunks {
  let buffer = Buffer.allocUnsafe(size);
  let used = 0;
  const take = (): Buffer => {
    const chunk = buffer.subarray(0, used);
    buffer = Buffer.allocUnsafe(size);
    used = 0;
    return chunk;
  };
  return {
    add(text) {
      // A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair 4 for 2 units): the exact length is
      // counted only near the end of a chunk.
      if (used + 3 * text.length > size) {
        const bytes = Buffer.byteLength(text);
        if (used + bytes > size) {
          const ready = used > 0 ? [take()] : [];
          if (bytes > size) return [...ready, Buffer.from(text)];
          used = buffer.write(text, 0);
          return ready;
        }
      }
      used += buffer.write(text, used);
      return used >= size ? [take()] : none;
    },
    rest() {
      return used > 0 ? take() : undefined;
    },
    clear() {
      used = 0;
    },
  };
}
