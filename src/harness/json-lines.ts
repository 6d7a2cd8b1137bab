// The one JSONL writer: a value as one line (`JSON.stringify`, or canonical JSON with sorted keys where a
// file is hashed or compared), a list of values as a JSONL text, and files of rows written atomically
// through the one file writer (./write-file-atomic.ts). Readers are in src/trajectory/read-jsonl.ts.
import { BoundedCache } from './bounded-cache.js';
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

/** A string field at least this long is quoted through `quotedLongStrings`. */
const longStringFrom = 2048;
// Pure function of content across runs: a long string as JSON (quoted, escaped). The exports write the same
// tools column (one JSON text per variant harness, ~10 KB) into every format's rows and into each line of a
// prompt-completion row: it is escaped once for all of them. Four MB: a few examples' worth, since the
// export stage hands each example to every sink before the next.
const quotedLongStrings = new BoundedCache<string, string>(
  1 << 22,
  (key, value) => 2 * (key.length + value.length) + 64,
);

function quotedLong(text: string): string {
  let quoted = quotedLongStrings.get(text);
  if (quoted === undefined) {
    quoted = JSON.stringify(text);
    quotedLongStrings.set(text, quoted);
  }
  return quoted;
}

/** Objects already written as JSON, by identity: valid while none of them changes (see `rowLine`). */
export type WrittenObjects = Map<object, string>;

/** An array field as JSON, each object element written once per `written` (JSON.stringify's text). */
function arrayJson(items: readonly unknown[], written: WrittenObjects): string | undefined {
  let text = '[';
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    let json: string | undefined;
    if (typeof item === 'object' && item !== null) {
      if (typeof (item as { toJSON?: unknown }).toJSON === 'function') return undefined;
      json = written.get(item);
      if (json === undefined) {
        json = JSON.stringify(item);
        written.set(item, json);
      }
    } else json = JSON.stringify(item);
    // What JSON.stringify writes for undefined, a function or a symbol in an array.
    text += `${index === 0 ? '' : ','}${json ?? 'null'}`;
  }
  return `${text}]`;
}

/**
 * `jsonLine` of a data row, byte for byte, for rows whose parts repeat: a long string field (a tools column as
 * JSON text, the same for every row of a variant and every format) is escaped once, and an object in an array
 * field that `written` already holds (the messages a prompt-completion row's prompts share) is not written
 * again. `written` belongs to one batch of rows the caller does not change while it writes them. Anything but
 * a plain object of JSON data is written by `jsonLine`.
 *
 * @example
 * const written = new Map();
 * rows.map((row) => rowLine(row, written)).join('') === jsonLines(rows) // true
 */
export function rowLine(row: unknown, written: WrittenObjects = new Map()): string {
  if (typeof row !== 'object' || row === null || Object.getPrototypeOf(row) !== Object.prototype)
    return jsonLine(row);
  const record = row as Record<string, unknown>;
  let text = '';
  // Object.keys gives JSON.stringify's order (integer keys first, then insertion order).
  for (const key of Object.keys(record)) {
    const value = record[key];
    let json: string | undefined;
    if (typeof value === 'string')
      json = value.length >= longStringFrom ? quotedLong(value) : JSON.stringify(value);
    else if (typeof value === 'object' && value !== null) {
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return jsonLine(row);
      json = Array.isArray(value) ? arrayJson(value, written) : JSON.stringify(value);
      if (json === undefined) return jsonLine(row);
    } else json = JSON.stringify(value);
    // What JSON.stringify leaves out of an object: undefined, functions, symbols.
    if (json === undefined) continue;
    text += `${text === '' ? '{' : ','}${JSON.stringify(key)}:${json}`;
  }
  return `${text === '' ? '{' : text}}\n`;
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
