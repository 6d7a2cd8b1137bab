// Streams a JSONL file line by line with 1-based line numbers; a bad line (bad JSON, invalid UTF-8, longer
// than the line limit of ../harness/input-file.ts) becomes an issue, never a crash.
import { findForbiddenKeys, maxNestingDepth } from '../harness/documents.js';
import { readInputLines } from '../harness/input-file.js';
import type { Issue } from '../harness/issues.js';
import { lineAndColumn } from '../harness/json-syntax.js';
import { parseJsonText } from '../harness/parse-json-text.js';

/** One JSONL line read: its value, or the issue that says why it does not parse. */
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
  const parsed = parseJsonText(text, { maxDepth: maxNestingDepth });
  if (!parsed.ok) {
    const syntax = parsed.error;
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
  const { value } = parsed;
  // A key is "__proto__" only when the text spells it or escapes a character (`\u`), so the walk that finds
  // it runs only then; its other rule, nesting deeper than `maxNestingDepth`, the syntax check has applied.
  if (text.includes('__proto__') || text.includes('\\u')) {
    const forbidden = findForbiddenKeys(value)[0];
    if (forbidden) return { line, issue: { ...forbidden, ...located } };
  }
  return { line, value };
}

/**
 * Reads a JSONL file as an async iterable of records; memory stays bounded whatever the file size.
 *
 * @example
 * for await (const record of readJsonl('trajectories.jsonl')) if ('value' in record) use(record.value);
 */
export async function* readJsonl(file: string): AsyncGenerator<JsonlRecord> {
  for await (const entry of readInputLines(file)) {
    if ('issue' in entry) {
      yield entry;
      continue;
    }
    const record = parseJsonlLine(
      entry.line === 1 ? entry.text.replace(/^\uFEFF/, '') : entry.text,
      entry.line,
      file,
    );
    if (record) yield record;
  }
}
