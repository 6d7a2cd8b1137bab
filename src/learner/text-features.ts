// Text into hashed features: words (camelCase, snake_case and kebab-case split; digits folded to `#`; each
// CJK character a word), hashed with FNV-1a into a fixed number of buckets. The same function serves every
// run, every domain and both learners, so nothing here can prefer one harness or one route.

/** Buckets of the hashed feature tables (a power of two). */
export const featureBuckets = 1 << 16;

/**
 * The words of a text, lower-cased: identifiers split at case changes, underscores and hyphens, runs of
 * digits folded to `#`, CJK characters one word each.
 *
 * @example
 * words('get_price_and_coupons for link 4') // ['get', 'price', 'and', 'coupons', 'for', 'link', '#']
 */
export function words(text: string): string[] {
  const spaced = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  const out: string[] = [];
  for (const match of spaced.matchAll(
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}]+|\d+/gu,
  )) {
    const word = match[0];
    out.push(/^\d+$/.test(word) ? '#' : word);
  }
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
 * The distinct buckets of a text's words under a prefix, in first-seen order, at most `limit`.
 *
 * @example
 * hashedWords('action/u', 'link 4 price?') // Int32Array of 3 buckets
 */
export function hashedWords(prefix: string, text: string, limit = 256): Int32Array {
  // Long texts (a system prompt, a skill body) recur at every decision of a conversation: hash them once.
  if (text.length < 64) return hashWords(prefix, text, limit);
  const key = `${prefix}\u0000${limit}\u0000${text}`;
  let cached = cache.get(key);
  if (!cached) {
    if (cache.size >= 4096) cache.clear();
    cached = hashWords(prefix, text, limit);
    cache.set(key, cached);
  }
  return cached;
}

const cache = new Map<string, Int32Array>();

function hashWords(prefix: string, text: string, limit: number): Int32Array {
  const seen = new Set<number>();
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
export function hashedParts(parts: ReadonlyArray<readonly [string, string]>, limit = 256): Int32Array {
  const seen = new Set<number>();
  for (const [prefix, text] of parts)
    for (const word of words(text)) {
      if (seen.size >= limit) break;
      seen.add(bucket(`${prefix}:${word}`));
    }
  return Int32Array.from(seen);
}
