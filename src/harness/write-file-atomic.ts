// The one file writer: a temporary sibling renamed into place, so that a reader never sees half a file and
// an interrupted run leaves the previous file intact; every path first goes through `outputTarget` (links
// followed, devices and pipes written in place, other special files refused). Also a bounded `mkdir -p`.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { outputTarget, releasePipe } from './output-target.js';
import { utf8Chunks } from './utf8-chunks.js';

/**
 * Creates a folder and its missing parents, one level at a time. Node's `mkdir(…, { recursive: true })`
 * never returns on some paths (under `/proc`, for one); this fails with the first level that cannot be made.
 *
 * @example
 * await makeFolder('out/run-1/exports');
 */
export async function makeFolder(folder: string): Promise<void> {
  const missing: string[] = [];
  let current = resolve(folder);
  for (;;) {
    const info = await stat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (info) {
      if (!info.isDirectory())
        throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${current}'`), {
          code: 'ENOTDIR',
          syscall: 'mkdir',
          path: current,
        });
      break;
    }
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const path of missing.reverse()) {
    await mkdir(path).catch(async (error: NodeJS.ErrnoException) => {
      // Another process made it meanwhile: fine when it is a folder.
      if (error.code === 'EEXIST' && (await stat(path)).isDirectory()) return;
      throw error;
    });
  }
}

/**
 * Writes a text file atomically, creating its folder.
 *
 * @example
 * await writeFileAtomic('out/report.md', markdown);
 */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const target = await outputTarget(file);
  if (target.mode === 'in-place') {
    try {
      await writeFile(target.path, content, 'utf8');
    } finally {
      await releasePipe(target.path);
    }
    return;
  }
  await makeFolder(dirname(target.path));
  await removeStaleTemporaries(target.path);
  const temporary = temporaryPath(target.path);
  try {
    await writeFile(temporary, content, 'utf8');
    await rename(temporary, target.path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Replaces one file atomically again and again (a run's checkpoint after every batch of units): the first write is
 * `writeFileAtomic`'s (the target resolved, its folder made, stale temporaries swept); later ones only
 * write a temporary and rename it, so a unit does not pay a folder listing (the output folder may hold
 * thousands of files). A later write that finds the folder gone does the first write's work again.
 *
 * @example
 * const save = atomicFileRewriter('out/run.checkpoint.json'); await save(text); await save(next);
 */
export function atomicFileRewriter(file: string): (content: string) => Promise<void> {
  let path: string | undefined;
  return async (content) => {
    if (path === undefined) {
      await writeFileAtomic(file, content);
      const target = await outputTarget(file);
      // A device or pipe is written in place every time, as writeFileAtomic does.
      if (target.mode !== 'in-place') path = target.path;
      return;
    }
    const temporary = temporaryPath(path);
    try {
      await writeFile(temporary, content, 'utf8');
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      path = undefined;
      await writeFileAtomic(file, content);
    }
  };
}

let sequence = 0;

/**
 * A temporary path in the same folder as `file`, unique within this process; its process id lets a later
 * run tell a dead writer's leftovers from a live one's.
 *
 * @example
 * temporaryPath('out/train.jsonl') // 'out/train.jsonl.4242.1.partial'
 */
export function temporaryPath(file: string): string {
  sequence += 1;
  return `${file}.${process.pid}.${sequence}.partial`;
}

/** `<name>.<pid>.partial`, `<name>.<pid>.<n>.partial` and the older `<name>.<pid>.tmp`. */
const temporarySuffix = /^\.(\d+)(?:\.\d+)?\.(?:partial|tmp)$/;

/**
 * Whether a file name is a temporary of this writer (whatever file it was for), for sweeping a folder.
 *
 * @example
 * isAtomicTemporary('train.jsonl.4242.1.partial') // true
 */
export function isAtomicTemporary(name: string): boolean {
  return /\.\d+(?:\.\d+)?\.(?:partial|tmp)$/.test(name);
}

async function temporariesOf(file: string): Promise<Array<{ path: string; pid: number }>> {
  const name = basename(file);
  const folder = dirname(file);
  const entries = await readdir(folder).catch(() => [] as string[]);
  const found: Array<{ path: string; pid: number }> = [];
  for (const entry of entries) {
    const match = entry.startsWith(name) ? temporarySuffix.exec(entry.slice(name.length)) : null;
    if (match) found.push({ path: join(folder, entry), pid: Number(match[1]) });
  }
  return found;
}

/**
 * Removes the temporaries that a killed writer of `file` left beside it (any process's), so that a resumed
 * run leaves no stray files behind.
 *
 * @example
 * await removeAtomicTemporaries('out/pipeline/checkpoint.json');
 */
export async function removeAtomicTemporaries(file: string): Promise<void> {
  for (const { path } of await temporariesOf(file)) await rm(path, { force: true });
}

/** Removes the temporaries of `file` whose writer process no longer runs; a live writer's are left alone. */
async function removeStaleTemporaries(file: string): Promise<void> {
  for (const { path, pid } of await temporariesOf(file))
    if (pid !== process.pid && !processRuns(pid)) await rm(path, { force: true });
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A path to write a file at (by a library that opens the file itself); it appears under its name on `commit`. */
export interface AtomicPath {
  /** Where to write: a temporary sibling, or the target itself for a device or pipe. */
  readonly path: string;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Reserves a temporary path for `file`, for writers that take a path rather than text (a parquet writer):
 * the same guard, folder and temporaries as `writeFileAtomic`.
 *
 * @example
 * const out = await openAtomicPath('out/verl/train.parquet');
 * writeParquet(out.path, rows);
 * await out.commit();
 */
export async function openAtomicPath(file: string): Promise<AtomicPath> {
  const target = await outputTarget(file);
  if (target.mode === 'in-place') {
    const release = () => releasePipe(target.path);
    return { path: target.path, commit: release, abort: release };
  }
  await makeFolder(dirname(target.path));
  await removeStaleTemporaries(target.path);
  const temporary = temporaryPath(target.path);
  return {
    path: temporary,
    commit: () => rename(temporary, target.path),
    abort: () => rm(temporary, { force: true }),
  };
}

/** A text file being written; it appears under its name only on `commit`. */
export interface AtomicFile {
  /** Appends text; resolves when the stream can take more (back-pressure). */
  write(text: string): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** Bytes a temporary gathers before one stream write. */
// 1 MiB: `npm start` writes ~450 MB of exports, and 64 KiB writes took twice the CPU (system calls and the
// stream's bookkeeping) for the same bytes. Twelve export files open at once hold 12 MiB.
const chunkSize = 1 << 20;

/**
 * Opens `file` for atomic streaming writes, creating its folder; a device or pipe is written in place.
 *
 * @example
 * const out = await openAtomicFile('out/train.jsonl');
 * await out.write('{"messages":[]}\n');
 * await out.commit();
 */
export async function openAtomicFile(file: string): Promise<AtomicFile> {
  const target = await outputTarget(file);
  const inPlace = target.mode === 'in-place';
  if (!inPlace) {
    await makeFolder(dirname(target.path));
    await removeStaleTemporaries(target.path);
  }
  const temporary = inPlace ? target.path : temporaryPath(target.path);
  const stream: WriteStream = createWriteStream(temporary, { encoding: 'utf8' });
  // Open now: a path that cannot be written fails here, not as a write that never drains.
  try {
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
  } finally {
    if (inPlace) await releasePipe(target.path);
  }
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure = error;
  });
  const end = () =>
    new Promise<void>((resolve, reject) =>
      stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  // A temporary is seen by nobody before `commit`: its lines are gathered into UTF-8 chunks of
  // `chunkSize` bytes, one stream write each (a write per JSONL line cost more CPU than making the line;
  // see utf8-chunks.ts for the encoding). A device or pipe is written line by line, so a reader sees each
  // line when it is written.
  const pending = utf8Chunks(chunkSize);
  const push = (text: string | Buffer): Promise<void> =>
    stream.write(text)
      ? Promise.resolve()
      : new Promise((resolve, reject) => {
          // Both listeners go when either fires: a long run must not pile them up.
          const onDrain = () => {
            stream.off('error', onError);
            resolve();
          };
          const onError = (error: Error) => {
            stream.off('drain', onDrain);
            reject(error);
          };
          stream.once('drain', onDrain);
          stream.once('error', onError);
        });
  return {
    write(text) {
      if (failure) return Promise.reject(failure);
      if (inPlace) return push(text);
      const ready = pending.add(text);
      if (ready.length === 0) return Promise.resolve();
      // Every chunk is handed to the stream; the last one's answer is the back-pressure.
      for (const chunk of ready.slice(0, -1)) stream.write(chunk);
      return push(ready[ready.length - 1] as Buffer);
    },
    async commit() {
      const last = pending.rest();
      if (last && !failure) await push(last);
      await end();
      if (failure) throw failure;
      if (!inPlace) await rename(temporary, target.path);
    },
    async abort() {
      pending.clear();
      await end().catch(() => {});
      if (!inPlace) await rm(temporary, { force: true });
    },
  };
}
