// Output for the CLI: atomic file writes, issue lines, and the exit codes users script against.
import { formatOf } from '../harness/documents.js';
import { type AtomicFile, openAtomicFile, writeFileAtomic } from '../harness/write-file-atomic.js';
import { stringifyYaml } from '../harness/yaml-text.js';
import { prepareOutputFile } from './output.js';

export { exitCodes, finishCommand } from './exit-codes.js';

export { writeFileAtomic };

/** Writes to a file when one is named, else to standard output. */
export async function emit(text: string, file?: string): Promise<void> {
  const content = text.endsWith('\n') ? text : `${text}\n`;
  if (file) await writeFileAtomic(file, content);
  else process.stdout.write(content);
}

/** Serialises data as YAML or JSON, chosen by the output file's extension (YAML when printing). */
export function serialize(value: unknown, file?: string, fallback: 'json' | 'yaml' = 'yaml'): string {
  const format = file ? formatOf(file) : fallback;
  return format === 'yaml'
    ? stringifyYaml(value, { lineWidth: 0, aliasDuplicateObjects: false })
    : `${JSON.stringify(value, null, 2)}\n`;
}

// Issue lines are printed by ./output.ts (run.ts prints them without loading the YAML writer of this module).
export { printIssues } from './output.js';

/** A line stream to a temporary file that becomes `file` only on `commit`: an interrupted run leaves no half file. */
export type AtomicLineWriter = AtomicFile;

/** Opens `file` for atomic line writes, after the same checks as `prepareOutputFile`. */
export async function openAtomicLines(file: string): Promise<AtomicLineWriter> {
  await prepareOutputFile(file);
  return openAtomicFile(file);
}

// Numeric options: one parser, with bounds (./numeric-options.ts); re-exported for the commands.
export {
  boundedNumber,
  endpointTimeout,
  nonNegativeInteger,
  optionBounds,
  positiveInteger,
} from './numeric-options.js';

import { jsonLine } from '../harness/json-lines.js';

/**
 * The two outputs of a streaming command: rows and rejects, each written atomically. The rejects file is
 * kept when something was rejected or the user named it; otherwise it is not left behind.
 */
export interface RowOutputs {
  row(value: unknown): Promise<void>;
  reject(value: unknown): void;
  finish(keepRejects: boolean): Promise<void>;
  abort(): Promise<void>;
}

export async function openRowOutputs(rowsFile: string, rejectsFile: string): Promise<RowOutputs> {
  const rows = await openAtomicLines(rowsFile);
  const rejects = await openAtomicLines(rejectsFile);
  // Rejects arrive from a callback that cannot await: their writes are awaited with the next row.
  const pending: Array<Promise<void>> = [];
  let rejected = 0;
  return {
    async row(value) {
      await rows.write(jsonLine(value));
      await Promise.all(pending.splice(0));
    },
    reject(value) {
      rejected++;
      pending.push(rejects.write(jsonLine(value)));
    },
    async finish(keepRejects) {
      await Promise.all(pending.splice(0));
      await rows.commit();
      if (rejected > 0 || keepRejects) await rejects.commit();
      else await rejects.abort();
    },
    async abort() {
      await rows.abort();
      await rejects.abort();
    },
  };
}
