// The hash of a file's bytes, streamed (a large input is never held in memory whole).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/**
 * The SHA-256 of a file's bytes as `sha256:<hex>`, the form of `contentHash`.
 *
 * @example
 * await fileHash('fixtures/livestream/trajectories.jsonl') // 'sha256:3f…'
 */
export async function fileHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex')}`;
}
