// The one JSONL writer: a value as one line (`JSON.stringify`, or canonical JSON with sorted keys where a
// file is hashed or compared), a list of values as a JSONL text, and files of rows written atomically
// through the one file writer (./write-file-atomic.ts). Readers are in src/trajectory/read-jsonl.ts.
import { canonicalJson } from './canonical-json.js';
import { openAtomicFile, writeFileAtomic } from './write-file-atomic.js';

export interface JsonLineOptions {
  /** Canonical JSON (sorted keys) instead of `JSON.stringify`'s insertion order. Default false. */
  canonical?: boolean;
}

/**
 * One JSONL line: the value as compact JSON and a newline. A value JSON cannot hold (`undefined`, a
 * function) is an error rather than a line reading `undefined`.
 *
 * @example
 * jsonLine({ b: 1, a: 2 }) // '{"b":1,"a":2}\n'
 * jsonLine({ b: 1, a: 2 }, { canonical: true }) // '{"a":2,"b":1}\n'
 */
export function jsonLine(value: unknown, options: JsonLineOptions = {}): string {
  const text = options.canonical ? canonicalJson(value) : JSON.stringify(value);
  if (typeof text !== 'string') throw new TypeError(`jsonLine: a ${typeof value} is not JSON`);
  return `${text}\n`;
}

/**
 * A JSONL text: one line per value (the empty string for none).
 *
 * @example
 * jsonLines([{ id: 1 }, { id: 2 }]) // '{"id":1}\n{"id":2}\n'
 */
export function jsonLines(values: Iterable<unknown>, options: JsonLineOptions = {}): string {
  let text = '';
  for (const value of values) text += jsonLine(value, options);
  return text;
}

/**
 * Writes values as a JSONL file, atomically.
 *
 * @example
 * await writeJsonLines('out/rejects.jsonl', [{ id: 'a', reason: 'invalid_json' }]);
 */
export async function writeJsonLines(
  file: string,
  values: Iterable<unknown>,
  options: JsonLineOptions = {},
): Promise<void> {
  await writeFileAtomic(file, jsonLines(values, options));
}

/** A JSONL file being written row by row; it appears under its name only on `commit`. */
export interface JsonLinesFile {
  /** Appends one row; resolves when the stream can take more (back-pressure). */
  write(value: unknown): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Opens `file` for streaming JSONL rows, atomically (a temporary sibling renamed on `commit`).
 *
 * @example
 * const out = await openJsonLinesFile('out/train.jsonl');
 * await out.write({ messages: [] });
 * await out.commit();
 */
export async function openJsonLinesFile(file: string, options: JsonLineOptions = {}): Promise<JsonLinesFile> {
  const out = await openAtomicFile(file);
  return {
    write: (value) => out.write(jsonLine(value, options)),
    commit: () => out.commit(),
    abort: () => out.abort(),
  };
}
