// A file a run wrote, as its manifest records it: the path relative to the output folder, size and sha256.
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileHash } from '../harness/file-hash.js';

/** A file the pipeline wrote, as its manifest lists it: path, size and SHA-256. */
export interface OutputFile {
  path: string;
  bytes: number;
  sha256: string;
}

/**
 * Describes a written file for the manifest.
 *
 * @example
 * await describeFile('out/pipeline', 'out/pipeline/examples.jsonl') // { path: 'examples.jsonl', bytes: …, sha256: 'sha256:…' }
 */
export async function describeFile(outDir: string, file: string): Promise<OutputFile> {
  return {
    path: relative(outDir, file).split('\\').join('/'),
    bytes: (await stat(file)).size,
    sha256: await fileHash(file),
  };
}
