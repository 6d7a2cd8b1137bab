// Atomic file writes: a temporary file renamed into place, so that a reader never sees half a file and an
// interrupted run leaves the previous file intact.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes a text file atomically, creating its folder.
 *
 * @example
 * await writeFileAtomic('out/report.md', markdown);
 */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, content, 'utf8');
  await rename(temporary, file);
}
