// Numbers that stand for long texts (a template, a context's JSON, a content key) in the keys of caches: a
// key then holds a few digits, not the kilobytes every lookup would read again. The texts asked about are
// mostly the same string objects each time, whose hash the engine keeps. A text let go and seen again gets
// a new number, so a number never names two texts; a cache keyed by an old number only misses.
import { BoundedCache } from './bounded-cache.js';

/**
 * A numbering of texts: the same number for the same text while it is held (`maxBytes` of texts, least
 * recently used let go first), a new one otherwise. `name` lists its cache in `boundedCaches()` (only for a
 * numbering that lives as long as the process).
 *
 * @example
 * const numberOf = textNumbering(4 << 20, 'render-prompt.textNumbers');
 * numberOf(template) === numberOf(template) // true
 */
export function textNumbering(maxBytes: number, name?: string): (text: string) => number {
  // Pure function of content across runs: a number per text (numbers are never reused).
  const numbers = new BoundedCache<string, number>(maxBytes, (text) => 2 * text.length + 64, name);
  let next = 0;
  return (text) => numbers.get(text) ?? numbers.set(text, next++);
}
