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
  // 1 MiB reads: a run's manifest hashes every file it wrote (~450 MB for `npm start`), and the stream's
  // default 64 KiB chunks took ~1.5× the CPU for the same bytes (reads and the stream's bookkeeping).
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex')}`;
}
