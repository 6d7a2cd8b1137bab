// Content hashes bind a result to a harness commit: sha256 over canonical JSON of the parsed harness.
import { createHash } from 'node:crypto';
import { BoundedCache } from './bounded-cache.js';
import { canonicalJson, sameCanonicalJson } from './canonical-json.js';
import type { Harness, HarnessPartName } from './schema.js';

/** The content hashes of a harness and of each of its four parts, as `sha256:<hex>`. */
export interface HarnessHashes {
  harness: string;
  skills: string;
  hooks: string;
  prompt: string;
  tools: string;
}

/**
 * Hashes any JSON value: `sha256:` followed by the hex digest of its canonical JSON.
 *
 * @example
 * contentHash({ a: 1, b: 2 }) === contentHash({ b: 2, a: 1 }) // true
 */
export function contentHash(value: unknown): string {
  return sha256(canonicalJson(value));
}

/**
 * Hashes a parsed harness and each of its parts. The harness hash leaves out `$schema`, which is editor
 * metadata, and covers the id, the description and the four parts. The result is cached per object: do
 * not mutate a harness after hashing it (copy it instead).
 *
 * @example
 * const { harness, tools } = hashHarness(parseHarness(data));
 */
export function hashHarness(harness: Harness): HarnessHashes {
  // Harnesses are treated as immutable (operators return new objects), so a hash is computed once per object.
  const cached = hashes.get(harness);
  if (cached) return cached;
  const parts = {} as Record<HarnessPartName, string>;
  for (const name of partNames) parts[name] = partHash(harness[name]).hash;
  const { $schema: _editorOnly, ...content } = harness;
  // Rows of one pool entry differ in a small part (an example's hooks), so most harness objects hold content
  // hashed before: the parts' hashes and the other members name it without streaming every part again.
  const key = `${partNames.map((name) => parts[name]).join('')}${canonicalJson(harnessRest(harness))}`;
  const known = harnessHashByContent.get(key);
  if (known !== undefined) {
    const result = { harness: known, ...parts };
    hashes.set(harness, result);
    return result;
  }
  // The canonical JSON of the whole harness, hashed as it streams from the parts' cached canonical bytes:
  // the same bytes as canonicalJson(content), without serialising the parts a variant shares with its base
  // again, nor assembling (and encoding) the whole text for every variant.
  const digest = createHash('sha256').update('{');
  let first = true;
  for (const key of Object.keys(content).sort()) {
    const value = (content as Record<string, unknown>)[key];
    if (value === undefined) continue;
    digest.update(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if ((partNames as readonly string[]).includes(key))
      digest.update(partBytes(value as Harness[HarnessPartName]));
    else digest.update(canonicalJson(value), 'utf8');
  }
  const result = { harness: `sha256:${digest.update('}').digest('hex')}`, ...parts };
  harnessHashByContent.set(key, result.harness);
  hashes.set(harness, result);
  return result;
}
// Pure function of content across runs: a harness's hash, by its parts' hashes and its other members.
const harnessHashByContent = new BoundedCache<string, string>(
  1 << 20,
  (key, hash) => 2 * (key.length + hash.length) + 64,
);

/**
 * The hashes `hashHarness` has already made of this object, if it has; computes nothing.
 *
 * @example
 * knownHarnessHashes(structuredClone(harness)) // undefined: a copy is another object
 */
export function knownHarnessHashes(harness: Harness): HarnessHashes | undefined {
  return hashes.get(harness);
}

/**
 * Records `known` as the hashes of `copy`, a structured copy of a harness they were made of (in another
 * thread), so that `hashHarness(copy)` does not serialise the whole harness again. Only for exact copies:
 * the hashes are taken as they are.
 *
 * @example
 * adoptHarnessHashes(received, sent.hashes)
 */
export function adoptHarnessHashes(copy: Harness, known: HarnessHashes): void {
  if (!hashes.has(copy)) hashes.set(copy, known);
}

/**
 * Whether two harnesses have the same content hash (`hashHarness(a).harness === hashHarness(b).harness`),
 * told by walking the parts they do not share and the other members (`sameCanonicalJson`), without writing
 * or hashing either: a harness that is only a step on the way to a variant never needs its hash.
 *
 * @example
 * sameHarnessContent(base, structuredClone(base)) // true
 */
export function sameHarnessContent(a: Harness, b: Harness): boolean {
  if (a === b) return true;
  for (const name of partNames) if (a[name] !== b[name] && !sameCanonicalJson(a[name], b[name])) return false;
  return sameCanonicalJson(harnessRest(a), harnessRest(b));
}

/**
 * A hash of one part (any JSON object) as written, key order included, once per object: what is derived
 * from a part's texts is keyed by it, and `JSON.stringify` writes it several times faster than canonical
 * JSON. Two parts that differ only in key order get different keys (a cache miss, never a wrong answer).
 *
 * @example
 * writtenPartHash(variant.hooks) === writtenPartHash(structuredClone(variant.hooks)) // true
 */
export function writtenPartHash(part: object): string {
  let hash = writtenHashes.get(part);
  if (hash === undefined) {
    hash = createHash('sha256').update(JSON.stringify(part)).digest('base64');
    writtenHashes.set(part, hash);
  }
  return hash;
}
// Pure function of content across runs: a part object's hash as written.
const writtenHashes = new WeakMap<object, string>();

/**
 * What a harness holds beside its four parts, as the harness hash covers it (`$schema`, editor metadata,
 * left out): its id, description and any other member.
 */
export function harnessRest(harness: Harness): Record<string, unknown> {
  const {
    $schema: _editorOnly,
    skills: _skills,
    hooks: _hooks,
    prompt: _prompt,
    tools: _tools,
    ...rest
  } = harness;
  return rest;
}

const partNames = ['skills', 'hooks', 'prompt', 'tools'] as const;
// Pure function of content across runs: a harness object's hashes.
const hashes = new WeakMap<Harness, HarnessHashes>();
// Pure function of content across runs: a part object's content hash.
const parts = new WeakMap<object, { hash: string }>();
// A part's canonical text is needed again only to hash a harness that holds it: kept as UTF-8, by hash, in
// a bounded cache, not beside the hash of every live part object (the pool's variants held 12 MB of them).
// Pure function of content across runs: a part's canonical text as UTF-8, by its hash.
const canonicalBytes = new BoundedCache<string, Buffer>(
  4 << 20,
  (hash, bytes) => 2 * hash.length + bytes.byteLength + 64,
  'hash.canonicalBytes',
);

/** A text (as UTF-8) or bytes, hashed. */
const sha256 = (data: string | Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** A part's hash, once per part object (variants share untouched parts with their base). */
function partHash(part: Harness[HarnessPartName]): { hash: string } {
  const known = parts.get(part);
  if (known) return known;
  // A part written as one seen before (an example's hooks step makes such parts again and again) has its
  // hash: `JSON.stringify` writes it several times faster than canonical JSON.
  const written = writtenPartHash(part);
  const seen = canonicalHashByWritten.get(written);
  if (seen !== undefined) {
    const entry = { hash: seen };
    parts.set(part, entry);
    return entry;
  }
  const bytes = Buffer.from(canonicalJson(part), 'utf8');
  const entry = { hash: sha256(bytes) };
  canonicalBytes.set(entry.hash, bytes);
  canonicalHashByWritten.set(written, entry.hash);
  parts.set(part, entry);
  return entry;
}
// Pure function of content across runs: a part's content hash, by its hash as written.
const canonicalHashByWritten = new BoundedCache<string, string>(
  1 << 20,
  (written, hash) => 2 * (written.length + hash.length) + 64,
);

/** A part's canonical text as UTF-8: from the cache, or serialised again. */
function partBytes(part: Harness[HarnessPartName]): Buffer {
  const { hash } = partHash(part);
  return canonicalBytes.get(hash) ?? canonicalBytes.set(hash, Buffer.from(canonicalJson(part), 'utf8'));
}
