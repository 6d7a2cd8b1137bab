// A JSON Lines text read as one document: one JSON value a line (blank lines allowed) becomes the array of
// the values, with the line of each, so that an issue of a record points at its line. Used where a file may
// hold a list in either form (the OpenAI-tools door: BFCL and Gorilla ship one function object a line).
import { lineAndColumn } from './json-syntax.js';
import { parseJsonText } from './parse-json-text.js';

/** The records of a JSON Lines text and the line of each, or the first line that is not JSON. */
export type JsonLinesText =
  | { ok: true; values: unknown[]; lines: number[] }
  | { ok: false; line: number; column: number; message: string };

/**
 * Reads a text as JSON Lines. Undefined when the text is not JSON Lines at all: fewer than two non-blank
 * lines, or a first non-blank line that is not a JSON value by itself (a pretty-printed document); the
 * caller then reports the text's own syntax error.
 *
 * @example
 * parseJsonLinesText('{"name":"a"}\n\n{"name":"b"}\n') // { ok: true, values: [{ name: 'a' }, { name: 'b' }], lines: [1, 3] }
 */
export function parseJsonLinesText(text: string, maxDepth: number): JsonLinesText | undefined {
  const rows = text
    .split('\n')
    .map((row, index) => ({ row: row.replace(/\r$/, ''), line: index + 1 }))
    .filter(({ row }) => row.trim() !== '');
  if (rows.length < 2) return undefined;
  const values: unknown[] = [];
  const lines: number[] = [];
  for (const { row, line } of rows) {
    const parsed = parseJsonText(row, { maxDepth });
    if (!parsed.ok) {
      if (values.length === 0) return undefined;
      const { column } = lineAndColumn(row, parsed.error.offset);
      return { ok: false, line, column, message: parsed.error.message };
    }
    values.push(parsed.value);
    lines.push(line);
  }
  return { ok: true, values, lines };
}
