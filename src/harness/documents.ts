// Reads JSON and YAML documents: syntax errors name the file, line and column; invalid UTF-8, duplicate
// keys, alias bombs and nesting deeper than `maxNestingDepth` are refused; `__proto__` keys are refused so
// that no later copy of the data can reach an object's prototype.
import { readFile } from 'node:fs/promises';
import YAML from 'yaml';
import { assertInputFile, cannotReadInput, firstInvalidUtf8 } from './input-file.js';
import { HarnessAugmentError, type Issue, type JsonPath } from './issues.js';
import { parseJsonLinesText } from './json-lines-text.js';
import { createJsonLineLocator } from './json-locator.js';
import { lineAndColumn } from './json-syntax.js';
import { parseJsonText } from './parse-json-text.js';
import { yamlDocumentValue } from './yaml-text.js';

/** The formats a harness, policy or config document may be written in. */
export type DocumentFormat = 'json' | 'yaml';

/**
 * The deepest nesting of arrays and objects accepted in user data. Every recursive walk over user data
 * (schemas, symbol tables, canonical JSON) relies on it: a deeper document is refused at the boundary.
 */
export const maxNestingDepth = 256;

/** A parsed document with what is needed to point back into its text. */
export interface ParsedDocument {
  value: unknown;
  text: string;
  format: DocumentFormat;
  file?: string;
  /** For a JSON Lines text read as the array of its records (`jsonLines`): the line of each record. */
  recordLines?: number[];
}

/** How a document is read. */
export interface ReadDocumentOptions {
  /**
   * Also read a JSON text of JSON Lines (one value a line, blank lines allowed), whatever the file's
   * extension, as the array of its values; a line that is not JSON is an error with its line.
   */
  jsonLines?: boolean;
}

/**
 * Guesses the format from a file name: `.yaml` and `.yml` are YAML, anything else JSON.
 *
 * @example
 * formatOf('harness.yaml') // 'yaml'
 */
export function formatOf(file: string): DocumentFormat {
  return /\.ya?ml$/i.test(file) ? 'yaml' : 'json';
}

/** The characters YAML 1.2 does not allow raw in a stream: C0 and C1 controls but tab, LF, CR and NEL; DEL; U+FFFE, U+FFFF. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const yamlUnprintable = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F\uFFFE\uFFFF]/u;

/**
 * Parses document text. Throws a `usage` HarnessAugmentError naming the position on a syntax error.
 *
 * @example
 * parseDocument('id: shop\n', { format: 'yaml' }).value // { id: 'shop' }
 */
export function parseDocument(
  text: string,
  options: { format: DocumentFormat; file?: string } & ReadDocumentOptions,
): ParsedDocument {
  const { format, file } = options;
  const where = file ?? '<input>';
  let value: unknown;
  let recordLines: number[] | undefined;
  if (format === 'json') {
    // JSON.parse, with the scanner's rules kept (./parse-json-text.ts): never the YAML parser.
    const parsed = parseJsonText(text, { maxDepth: maxNestingDepth });
    // Not one JSON document: JSON Lines, where the caller reads them and the first line is a value by itself.
    const records = !parsed.ok && options.jsonLines ? parseJsonLinesText(text, maxNestingDepth) : undefined;
    if (records?.ok) {
      value = records.values;
      recordLines = records.lines;
    } else if (records) {
      throw syntaxError(
        where,
        records.line,
        records.column,
        `invalid JSON on line ${records.line} of a JSON Lines file (one JSON value a line): ${records.message}`,
      );
    } else if (!parsed.ok) {
      const { line, column } = lineAndColumn(text, parsed.error.offset);
      throw syntaxError(where, line, column, `invalid JSON: ${parsed.error.message}`);
    } else value = parsed.value;
  } else {
    // YAML admits only printable characters (1.2, `c-printable`); the parser would keep a raw NUL in a scalar.
    const unprintable = yamlUnprintable.exec(text);
    if (unprintable) {
      const { line, column } = lineAndColumn(text, unprintable.index);
      const code = (unprintable[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      throw syntaxError(
        where,
        line,
        column,
        `invalid YAML: the control character U+${code} is not allowed in YAML; write it escaped in a double-quoted string ("\\u${code}")`,
      );
    }
    let document: YAML.Document.Parsed;
    try {
      document = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
    } catch (error) {
      throw tooDeep(where, error);
    }
    const first = document.errors[0];
    if (first) {
      if (/call stack/i.test(first.message)) throw tooDeep(where, new RangeError(first.message));
      const position = first.linePos?.[0] ?? { line: 1, col: 1 };
      throw syntaxError(where, position.line, position.col, `invalid YAML: ${first.message.split('\n')[0]}`);
    }
    const built = yamlDocumentValue(document);
    if (!built.ok) {
      if (built.code === 'too_deep') throw tooDeep(where, built.cause);
      throw new HarnessAugmentError(`${where}: invalid YAML: ${built.message}`, {
        kind: 'usage',
        issues: [{ code: 'alias_bomb', path: [], message: built.message, file: where }],
      });
    }
    value = built.value;
  }
  const forbidden = findForbiddenKeys(value);
  if (forbidden.length > 0) {
    const deep = forbidden.find((issue) => issue.code === 'too_deep');
    if (deep) throw tooDeep(where, deep.message);
    throw new HarnessAugmentError(`${where}: forbidden keys`, {
      issues: locateIssues(forbidden, {
        text,
        format,
        ...(file ? { file } : {}),
        ...(recordLines ? { recordLines } : {}),
      }),
    });
  }
  return { value, text, format, ...(file ? { file } : {}), ...(recordLines ? { recordLines } : {}) };
}

/**
 * Reads and parses a JSON or YAML file (with `jsonLines`, a file of JSON Lines too). I/O failures and syntax
 * errors throw `usage` errors.
 *
 * @example
 * const { value } = await readDocument('fixtures/livestream/harness.yaml');
 */
export async function readDocument(file: string, options: ReadDocumentOptions = {}): Promise<ParsedDocument> {
  const bytes = await readFileBytes(file);
  const text = decodeUtf8(bytes, file);
  return parseDocument(text.replace(/^\uFEFF/, ''), { format: formatOf(file), file, ...options });
}

/**
 * Reads a whole file as bytes; a missing file, a folder or an unreadable file is a `usage` error.
 *
 * @example
 * const bytes = await readFileBytes('harness.json');
 */
export async function readFileBytes(file: string): Promise<Buffer> {
  await assertInputFile(file);
  try {
    return await readFile(file);
  } catch (error) {
    throw cannotRead(file, error);
  }
}

/**
 * The one-line `usage` error for a file that cannot be read.
 *
 * @example
 * throw cannotRead('x.json', error)
 */
export const cannotRead = cannotReadInput;

/**
 * Decodes UTF-8, refusing invalid bytes (they would otherwise become U+FFFD silently) with the line and
 * column of the first one.
 *
 * @example
 * decodeUtf8(Buffer.from('id: x'), 'h.yaml') // 'id: x'
 */
export function decodeUtf8(bytes: Uint8Array, where: string): string {
  const valid = firstInvalidUtf8(bytes);
  if (valid === undefined) return new TextDecoder('utf-8').decode(bytes);
  const prefix = new TextDecoder('utf-8').decode(bytes.subarray(0, valid));
  const { line, column } = lineAndColumn(prefix, prefix.length);
  throw syntaxError(
    where,
    line,
    column,
    `invalid UTF-8 (byte 0x${(bytes[valid] ?? 0).toString(16)} at offset ${valid})`,
  );
}

function tooDeep(where: string, cause: unknown): HarnessAugmentError {
  if (cause instanceof Error && !(cause instanceof RangeError)) throw cause;
  return new HarnessAugmentError(`${where}: nesting deeper than ${maxNestingDepth} levels is not allowed`, {
    kind: 'usage',
    issues: [
      { code: 'too_deep', path: [], message: `nesting deeper than ${maxNestingDepth} levels`, file: where },
    ],
  });
}

function syntaxError(where: string, line: number, column: number, message: string) {
  return new HarnessAugmentError(`${where}:${line}:${column}: ${message}`, {
    kind: 'usage',
    issues: [{ code: 'syntax_error', path: [], message: `${message} (column ${column})`, file: where, line }],
  });
}

/**
 * Lists every `__proto__` key in a parsed value, and nesting deeper than `maxNestingDepth` (`too_deep`).
 * Such a key has no meaning in a harness or trajectory and is a known prototype-pollution vector for code
 * that copies data key by key; such depth would overflow the stack of a recursive walk. The walk itself is
 * iterative.
 *
 * @example
 * findForbiddenKeys(JSON.parse('{"a":{"__proto__":{}}}')) // [{ code: 'forbidden_key', path: ['a', '__proto__'], … }]
 */
export function findForbiddenKeys(value: unknown, path: JsonPath = [], maxDepth = maxNestingDepth): Issue[] {
  const issues: Issue[] = [];
  const stack: Array<{ value: unknown; path: JsonPath }> = [{ value, path }];
  while (stack.length > 0) {
    const current = stack.pop() as { value: unknown; path: JsonPath };
    if (typeof current.value !== 'object' || current.value === null) continue;
    if (current.path.length - path.length >= maxDepth) {
      issues.push({
        code: 'too_deep',
        path: current.path.slice(0, path.length + 8),
        message: `nesting deeper than ${maxDepth} levels is not allowed`,
      });
      // One issue is enough: the rest of that branch is as deep.
      return issues;
    }
    const children: Array<{ value: unknown; path: JsonPath }> = [];
    if (Array.isArray(current.value)) {
      // Only containers are visited: a path is built for nothing else (a 200,000-key object of numbers).
      for (const [index, item] of current.value.entries())
        if (typeof item === 'object' && item !== null)
          children.push({ value: item, path: [...current.path, index] });
    } else {
      for (const key of Object.keys(current.value)) {
        if (key === '__proto__') {
          issues.push({
            code: 'forbidden_key',
            path: [...current.path, key],
            message: 'the key "__proto__" is not allowed',
          });
        } else {
          const child = (current.value as Record<string, unknown>)[key];
          if (typeof child === 'object' && child !== null)
            children.push({ value: child, path: [...current.path, key] });
        }
      }
    }
    // Depth first, in document order.
    for (let index = children.length - 1; index >= 0; index--)
      stack.push(children[index] as (typeof children)[0]);
  }
  return issues;
}

/**
 * Returns a function that finds the line of the node at a JSON path in JSON or YAML text, or of its nearest
 * existing ancestor. The text is parsed once, on the first call.
 *
 * @example
 * createLineLocator({ text: 'a:\n  b: 1\n', format: 'yaml' })(['a', 'b']) // 2
 */
export function createLineLocator(
  document: Pick<ParsedDocument, 'text' | 'format' | 'recordLines'>,
): (path: JsonPath) => number | undefined {
  // JSON Lines: a record is one line, so the line of anything in it is the record's.
  const { recordLines } = document;
  if (recordLines) return (path) => recordLines[typeof path[0] === 'number' ? path[0] : 0];
  // JSON is located by its own linear scan: the YAML parser is quadratic in the keys of one JSON object.
  if (document.format === 'json') {
    const locate = createJsonLineLocator(document.text);
    return (path) => {
      try {
        return locate(path);
      } catch {
        return undefined;
      }
    };
  }
  let parsed: YAML.Document.Parsed | undefined;
  return (path) => {
    try {
      parsed ??= YAML.parseDocument(document.text);
    } catch {
      return undefined;
    }
    for (let length = path.length; length >= 0; length--) {
      const node = (length === 0 ? parsed.contents : parsed.getIn(path.slice(0, length), true)) as {
        range?: [number, number, number];
      } | null;
      if (node && typeof node === 'object' && node.range)
        return lineAndColumn(document.text, node.range[0]).line;
    }
    return undefined;
  };
}

/**
 * Adds the file name and the line of each issue's path in the document.
 *
 * @example
 * locateIssues(result.issues, await readDocument('harness.yaml'))
 */
export function locateIssues(
  issues: Issue[],
  document: Pick<ParsedDocument, 'text' | 'format' | 'file' | 'recordLines'>,
): Issue[] {
  const locate = createLineLocator(document);
  return issues.map((issue) => {
    const line = issue.line ?? locate(issue.path);
    return {
      ...issue,
      ...(document.file ? { file: document.file } : {}),
      ...(line === undefined ? {} : { line }),
    };
  });
}
