// Content hashes bind a result to a harness commit: sha256 over canonical JSON of the parsed harness.
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
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
  return `sha256:${createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex')}`;
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
  for (const name of ['skills', 'hooks', 'prompt', 'tools'] as const)
    parts[name] = contentHash(harness[name]);
  const { $schema: _editorOnly, ...content } = harness;
  const result = { harness: contentHash(content), ...parts };
  hashes.set(harness, result);
  return result;
}

const hashes = new WeakMap<Harness, HarnessHashes>();
