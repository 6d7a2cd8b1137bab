// Atomic file writes: a temporary file renamed into place, so that a reader never sees half a file and an
// interrupted run leaves the previous file intact; and a bounded `mkdir -p`.
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

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
  await makeFolder(dirname(file));
  const temporary = temporaryName(file, process.pid);
  await writeFile(temporary, content, 'utf8');
  await rename(temporary, file);
}

const temporaryName = (file: string, pid: number) => `${file}.${pid}.tmp`;

/**
 * Removes the temporaries that a killed `writeFileAtomic(file, …)` left beside `file` (any process's), so that
 * a resumed run leaves no stray files behind.
 *
 * @example
 * await removeAtomicTemporaries('out/pipeline/checkpoint.json');
 */
export async function removeAtomicTemporaries(file: string): Promise<void> {
  const name = basename(file);
  const folder = dirname(file);
  const entries = await readdir(folder).catch(() => [] as string[]);
  const pattern = /^\.\d+\.tmp$/;
  for (const entry of entries)
    if (entry.startsWith(name) && pattern.test(entry.slice(name.length)))
      await rm(join(folder, entry), { force: true });
}
