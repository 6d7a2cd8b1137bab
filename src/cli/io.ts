// Output for the CLI: atomic file writes, issue lines, and the exit codes users script against.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import YAML from 'yaml';
import { formatOf } from '../harness/documents.js';
import { formatIssue, type Issue } from '../harness/issues.js';

export const exitCodes = { ok: 0, invalid: 1, usage: 2, internal: 3 } as const;

/** Writes a file atomically (temporary file, then rename) so an interrupted run never leaves half a file. */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, content, 'utf8');
  await rename(temporary, file);
}

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
    ? YAML.stringify(value, { lineWidth: 0, aliasDuplicateObjects: false })
    : `${JSON.stringify(value, null, 2)}\n`;
}

/** Prints issues as `location: message` lines. */
export function printIssues(issues: readonly Issue[], stream: NodeJS.WritableStream = process.stdout): void {
  for (const issue of issues) stream.write(`${formatIssue(issue)}\n`);
}
