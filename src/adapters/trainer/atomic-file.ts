// A file written through a temporary sibling and renamed into place on commit, so a trainer never reads a
// half-written dataset and an interrupted export leaves the previous file intact. (The CLI has its own
// line writer; adapters may not import the CLI, so this is the small copy the exporters need.)
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makeFolder } from '../../harness/write-file-atomic.js';

let sequence = 0;

/**
 * A temporary path in the same folder as `file`, unique within this process.
 *
 * @example
 * temporaryPath('out/train.jsonl') // 'out/train.jsonl.4242.1.partial'
 */
export function temporaryPath(file: string): string {
  sequence += 1;
  return `${file}.${process.pid}.${sequence}.partial`;
}

/** A text file being written; it appears under its name only on `commit`. */
export interface AtomicFile {
  /** Appends text; resolves when the stream can take more. */
  write(text: string): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Opens `file` for atomic writing, creating its folder.
 *
 * @example
 * const out = await openAtomicFile('out/train.jsonl');
 * await out.write('{"messages":[]}\n');
 * await out.commit();
 */
export async function openAtomicFile(file: string): Promise<AtomicFile> {
  await makeFolder(dirname(file));
  const temporary = temporaryPath(file);
  const stream = createWriteStream(temporary, { encoding: 'utf8' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure = error;
  });
  const end = () =>
    new Promise<void>((resolve, reject) =>
      stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  return {
    write(text) {
      if (failure) return Promise.reject(failure);
      return stream.write(text) ? Promise.resolve() : new Promise((resolve) => stream.once('drain', resolve));
    },
    async commit() {
      await end();
      if (failure) throw failure;
      await rename(temporary, file);
    },
    async abort() {
      await end().catch(() => {});
      await rm(temporary, { force: true });
    },
  };
}
