// Reads JSON and YAML documents: syntax errors name the file, line and column; `__proto__` keys are
// refused so that no later copy of the data can reach an object's prototype.
import { readFile } from 'node:fs/promises';
import YAML from 'yaml';
import { HarnessAugmentError, type Issue, type JsonPath } from './issues.js';
import { findJsonSyntaxError, lineAndColumn } from './json-syntax.js';

export type DocumentFormat = 'json' | 'yaml';

/** A parsed document with what is needed to point back into its text. */
export interface ParsedDocument {
  value: unknown;
  text: string;
  format: DocumentFormat;
  file?: string;
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

/**
 * Parses document text. Throws a `usage` HarnessAugmentError naming the position on a syntax error.
 *
 * @example
 * parseDocument('id: shop\n', { format: 'yaml' }).value // { id: 'shop' }
 */
export function parseDocument(
  text: string,
  options: { format: DocumentFormat; file?: string },
): ParsedDocument {
  const { format, file } = options;
  const where = file ?? '<input>';
  let value: unknown;
  if (format === 'json') {
    const syntax = findJsonSyntaxError(text);
    if (syntax) {
      const { line, column } = lineAndColumn(text, syntax.offset);
      throw syntaxError(where, line, column, `invalid JSON: ${syntax.message}`);
    }
    value = JSON.parse(text);
  } else {
    const document = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
    const first = document.errors[0];
    if (first) {
      const position = first.linePos?.[0] ?? { line: 1, col: 1 };
      throw syntaxError(where, position.line, position.col, `invalid YAML: ${first.message.split('\n')[0]}`);
    }
    value = document.toJS({ maxAliasCount: 100 });
  }
  const forbidden = findForbiddenKeys(value);
  if (forbidden.length > 0) {
    throw new HarnessAugmentError(`${where}: forbidden keys`, {
      issues: locateIssues(forbidden, { text, format, ...(file ? { file } : {}) }),
    });
  }
  return { value, text, format, ...(file ? { file } : {}) };
}

/**
 * Reads and parses a JSON or YAML file. I/O failures and syntax errors throw `usage` errors.
 *
 * @example
 * const { value } = await readDocument('fixtures/livestream/harness.yaml');
 */
export async function readDocument(file: string): Promise<ParsedDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new HarnessAugmentError(`${file}: cannot read: ${reason}`, { kind: 'usage', cause: error });
  }
  return parseDocument(text.replace(/^\uFEFF/, ''), { format: formatOf(file), file });
}

function syntaxError(where: string, line: number, column: number, message: string) {
  return new HarnessAugmentError(`${where}:${line}:${column}: ${message}`, {
    kind: 'usage',
    issues: [{ code: 'syntax_error', path: [], message: `${message} (column ${column})`, file: where, line }],
  });
}

/**
 * Lists every `__proto__` key in a parsed value. Such a key has no meaning in a harness or trajectory and
 * is a known prototype-pollution vector for code that copies data key by key.
 *
 * @example
 * findForbiddenKeys(JSON.parse('{"a":{"__proto__":{}}}')) // [{ code: 'forbidden_key', path: ['a', '__proto__'], … }]
 */
export function findForbiddenKeys(value: unknown, path: JsonPath = []): Issue[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => findForbiddenKeys(item, [...path, index]));
  if (typeof value !== 'object' || value === null) return [];
  const issues: Issue[] = [];
  for (const key of Object.keys(value)) {
    if (key === '__proto__') {
      issues.push({
        code: 'forbidden_key',
        path: [...path, key],
        message: 'the key "__proto__" is not allowed',
      });
    } else {
      issues.push(...findForbiddenKeys((value as Record<string, unknown>)[key], [...path, key]));
    }
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
  document: Pick<ParsedDocument, 'text' | 'format'>,
): (path: JsonPath) => number | undefined {
  let parsed: YAML.Document.Parsed | undefined;
  return (path) => {
    // JSON is YAML 1.2, so one parser gives positions for both formats.
    parsed ??= YAML.parseDocument(document.text);
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
  document: Pick<ParsedDocument, 'text' | 'format' | 'file'>,
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
