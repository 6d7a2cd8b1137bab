// Text into hashed features: words (split by the library's one identifier splitter, `identifierWords`, so
// camelCase, snake_case and kebab-case split in any script; digits folded to `#`; each CJK character a word),
// hashed with FNV-1a into a fixed number of buckets. The same function serves every run, every domain and
// both learners, so nothing here can prefer one harness or one route.

import { identifierWords } from '../augment/identifier-words.js';

/** Buckets of the hashed feature tables (a power of two). */
export const featureBuckets = 1 << 16;

/** A feature token inside one identifier word: a CJK character, a run of letters (with their marks), or of digits. */
const featureToken = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{M}]+|\p{N}+/gu;
const digitsOnly = /^\p{N}+$/u;

/**
 * The words of a text, lower-cased: identifiers split as `identifierWords` splits them (case humps in any
 * cased script, underscores, hyphens and every other non-letter), then letters apart from digits, runs of
 * digits (in any script) folded to `#`, CJK characters one word each.
 *
 * @example
 * words('get_price_and_coupons for link 4') // ['get', 'price', 'and', 'coupons', 'for', 'link', '#']
 * words('prixÉté 价格') // ['prix', 'été', '价', '格']
 */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const word of identifierWords(text))
    for (const match of word.matchAll(featureToken)) out.push(digitsOnly.test(match[0]) ? '#' : match[0]);
  return out;
}

/**
 * FNV-1a (32-bit) of a string, as an unsigned integer.
 *
 * @example
 * fnv1a('a') // 3826002220
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The bucket of a feature name.
 *
 * @example
 * bucket('action/u:price') // an integer in [0, featureBuckets)
 */
export function bucket(feature: string): number {
  return fnv1a(feature) & (featureBuckets - 1);
}

/**
 * A memo of feature computations for one learner (or one training file): long texts such as a system prompt
 * or a skill body recur at every decision of a conversation and in every row of a bench. Every entry is a
 * pure function of its key, so a hit gives what a miss computes; the memo only saves time. Bounded: it
 * starts over when full.
 *
 * @example
 * const cache = new FeatureCache();
 * hashedWords('action/p', systemPrompt, 256, cache);
 */
export class FeatureCache {
  private readonly spaces = new Map<string, Map<string, unknown>>();
  private entries = 0;

  constructor(private readonly limit = 1 << 16) {}

  /** The value of `compute` for `key` in `space`, computed once. */
  memo<T>(space: string, key: string, compute: () => T): T {
    let entries = this.spaces.get(space);
    if (!entries) {
      entries = new Map();
      this.spaces.set(space, entries);
    }
    if (entries.has(key)) return entries.get(key) as T;
    if (this.entries >= this.limit) {
      this.spaces.clear();
      this.entries = 0;
      entries = new Map();
      this.spaces.set(space, entries);
    }
    const value = compute();
    entries.set(key, value);
    this.entries++;
    return value;
  }
}

/**
 * The distinct buckets of a text's words under a prefix, in first-seen order, at most `limit`.
 *
 * @example
 * hashedWords('action/u', 'link 4 price?') // Int32Array of 3 buckets
 */
export function hashedWords(prefix: string, text: string, limit = 256, cache?: FeatureCache): Int32Array {
  if (!cache) return hashWords(prefix, text, limit);
  return cache.memo(`w\u0000${prefix}\u0000${limit}`, text, () => hashWords(prefix, text, limit));
}

function hashWords(prefix: string, text: string, limit: number): Int32Array {
  const seen = new Set<number>();
  for (const word of words(text)) {
    if (seen.size >= limit) break;
    seen.add(bucket(`${prefix}:${word}`));
  }
  return Int32Array.from(seen);
}

function hashParts(parts: ReadonlyArray<readonly [string, string]>, limit: number): Int32Array {
  const seen = new Set<number>();
  for (const [prefix, text] of parts)
    for (const word of words(text)) {
      if (seen.size >= limit) break;
      seen.add(bucket(`${prefix}:${word}`));
    }
  return Int32Array.from(seen);
}

/**
 * The distinct buckets of several (prefix, text) parts, in order, at most `limit`.
 *
 * @example
 * hashedParts([['n', 'get_price'], ['d', 'Live price of a link']])
 */
export function hashedParts(
  parts: ReadonlyArray<readonly [string, string]>,
  limit = 256,
  cache?: FeatureCache,
): Int32Array {
  if (!cache) return hashParts(parts, limit);
  // Length-prefixed, so that no two lists of parts share a key.
  const key = parts.map(([prefix, text]) => `${prefix.length}:${prefix}${text.length}:${text}`).join('');
  return cache.memo(`p\u0000${limit}`, key, () => hashParts(parts, limit));
}
