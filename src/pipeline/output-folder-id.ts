// The identity of a run's output folder on a shared job queue: the host and the folder's real path,
// hashed. A run resumed into the same folder has the same identity (and finds its jobs again); the same
// configuration run into another folder, or on another machine, has another.
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { hostname } from 'node:os';

/**
 * 16 hex digits naming an output folder on this host (which must exist).
 *
 * @example
 * await outputFolderId('out/run-1') // e.g. '3f2a9c0d41b7e655'
 */
export async function outputFolderId(folder: string): Promise<string> {
  const path = await realpath(folder);
  return createHash('sha256').update(`${hostname()}\n${path}`).digest('hex').slice(0, 16);
}
