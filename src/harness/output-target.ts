// The one guard every writer calls before it writes a path: the path must be allowed (not an input of the
// command, not through a link inside its output folder: ./output-guard.ts); what it points to decides how it is
// written. A regular file (or a new name) is replaced atomically; a symbolic link is followed, so the file it
// points to is replaced and the link stays; a character device (`/dev/null`) or a pipe with a reader
// (`/dev/stdout | …`, `>(gzip)`) is written in place; anything else is refused before any work, because a
// temporary file renamed over it would destroy it (a device) or the write would never end (a FIFO nobody reads).
import { constants } from 'node:fs';
import { type FileHandle, lstat, open, readlink, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { HarnessAugmentError } from './issues.js';
import { assertOutputAllowed } from './output-guard.js';

/** Where and how a writer writes a named output path. */
export interface OutputTarget {
  /** The path to write: the named one, or the file at the end of its symbolic links. */
  path: string;
  /** `replace`: temporary sibling renamed over `path`; `in-place`: opened and written as is (a device, a pipe). */
  mode: 'replace' | 'in-place';
}

const maxLinkHops = 40;

/**
 * Decides how `file` is written; throws a `usage` error (exit 2) naming the path when it must not be.
 *
 * @example
 * await outputTarget('out/rows.jsonl') // { path: 'out/rows.jsonl', mode: 'replace' }
 */
export async function outputTarget(file: string): Promise<OutputTarget> {
  // Never an input of the command, never through a link inside an output folder (./output-guard.ts).
  await assertOutputAllowed(file);
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    if (error.code === 'ELOOP') throw cannotWrite(file, 'its symbolic links form a loop');
    // ENOTDIR, EACCES…: the folder check that follows names the reason.
    return undefined;
  });
  if (info === undefined) return { path: await danglingLinkTarget(file), mode: 'replace' };
  if (info.isFile()) return { path: await linkTarget(file), mode: 'replace' };
  if (info.isDirectory()) throw cannotWrite(file, 'it is a folder, not a file');
  if (info.isCharacterDevice()) return { path: file, mode: 'in-place' };
  if (info.isFIFO()) {
    await assertPipeHasReader(file);
    return { path: file, mode: 'in-place' };
  }
  throw cannotWrite(file, `it is ${info.isSocket() ? 'a socket' : 'a block device'}, not a regular file`);
}

/** The end of `file`'s chain of symbolic links (the file itself when it is none). */
async function linkTarget(file: string): Promise<string> {
  let current = file;
  for (let hop = 0; hop < maxLinkHops; hop++) {
    const info = await lstat(current).catch(() => undefined);
    if (!info?.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw cannotWrite(file, 'its symbolic links form a loop');
}

/** For a name that does not exist: itself, or, for a link to a missing file, the file the link names. */
async function danglingLinkTarget(file: string): Promise<string> {
  const info = await lstat(file).catch(() => undefined);
  return info?.isSymbolicLink() ? linkTarget(file) : file;
}

/**
 * The write ends the FIFO checks opened, kept open until the writer has the pipe open itself: closing one at
 * once would leave the pipe without a writer, and a reader already waiting (`head`, `gzip <fifo`) would read
 * an end of file and exit before the first line.
 */
// Process state, not a cache: the pipes this process holds open, one per path.
const heldPipes = new Map<string, FileHandle>();

/** Opening a FIFO for writing blocks until someone reads it; a non-blocking open fails at once instead. */
async function assertPipeHasReader(file: string): Promise<void> {
  if (heldPipes.has(file)) return;
  try {
    heldPipes.set(file, await open(file, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENXIO')
      throw cannotWrite(file, 'it is a FIFO that no process reads');
    throw cannotWrite(file, (error as Error).message);
  }
}

/**
 * Closes the write end `outputTarget` kept on a FIFO, once the writer holds the pipe open (or gave up);
 * nothing for any other path. A kept end that is never released closes when the process exits.
 *
 * @example
 * const target = await outputTarget(file); const out = await open(target.path, 'a'); await releasePipe(target.path);
 */
export async function releasePipe(path: string): Promise<void> {
  const handle = heldPipes.get(path);
  if (!handle) return;
  heldPipes.delete(path);
  await handle.close();
}

function cannotWrite(path: string, reason: string): HarnessAugmentError {
  return new HarnessAugmentError(`${path}: cannot write: ${reason}`, { kind: 'usage' });
}
