// Streams a JSONL file line by line with 1-based line numbers; a bad line becomes an issue, never a crash.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { cannotRead, findForbiddenKeys } from '../harness/documents.js';
import type { Issue } from '../harness/issues.js';
import { findJsonSyntaxError, lineAndColumn } from '../harness/json-syntax.js';

export type JsonlRecord = { line: number; value: unknown } | { line: number; issue: Issue };

/**
 * Parses one JSONL line; blank lines give undefined, bad lines give an issue with the column.
 *
 * @example
 * parseJsonlLine('{"id":1}', 3, 'rows.jsonl') // { line: 3, value: { id: 1 } }
 */
export function parseJsonlLine(text: string, line: number, file?: string): JsonlRecord | undefined {
  if (text.trim() === '') return undefined;
  const located = { line, ...(file ? { file } : {}) };
  const syntax = findJsonSyntaxError(text);
  if (syntax) {
    const { column } = lineAndColumn(text, syntax.offset);
    return {
      line,
      issue: {
        code: 'syntax_error',
        path: [],
        message: `invalid JSON at column ${column}: ${syntax.message}`,
        ...located,
      },
    };
  }
  const value: unknown = JSON.parse(text);
  const forbidden = findForbiddenKeys(value)[0];
  if (forbidden) return { line, issue: { ...forbidden, ...located } };
  return { line, value };
}

/**
 * Reads a JSONL file as an async iterable of records; memory stays bounded whatever the file size.
 *
 * @example
 * for await (const record of readJsonl('trajectories.jsonl')) if ('value' in record) use(record.value);
 */
export async function* readJsonl(file: string): AsyncGenerator<JsonlRecord> {
  try {
    if ((await stat(file)).isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
  } catch (error) {
    throw cannotRead(file, error);
  }
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw cannotRead(file, error);
  }
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const text of lines) {
    line++;
    const record = parseJsonlLine(line === 1 ? text.replace(/^\uFEFF/, '') : text, line, file);
    if (record) yield record;
  }
}
