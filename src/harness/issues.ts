// Issues are data problems, collected and reported together; HarnessAugmentError carries them across an API boundary.

/** A JSON path: object keys and array indexes from the document root. */
export type JsonPath = ReadonlyArray<string | number>;

/**
 * One problem found in user data. `code` is stable snake_case, `path` points into the document,
 * `file` and `line` say where the document came from when it was read from disk.
 *
 * @example
 * const issue: Issue = { code: 'unknown_tool', path: ['messages', 2, 'tool_calls', 0], message: 'tool "x" does not exist' };
 */
export interface Issue {
  code: string;
  path: JsonPath;
  message: string;
  file?: string;
  line?: number;
}

const marker = Symbol.for('harness-augment.error');

/**
 * The single error class of the library. It carries the issues that caused it; check for it with
 * `HarnessAugmentError.isInstance(error)`, which works across copies of the package.
 *
 * @example
 * try { parseHarness(data); } catch (error) { if (HarnessAugmentError.isInstance(error)) console.log(error.issues); }
 */
export class HarnessAugmentError extends Error {
  readonly [marker] = true;
  readonly issues: Issue[];
  /** `usage` for a bad call or unreadable input, `invalid` for data that breaks a rule. */
  readonly kind: 'usage' | 'invalid';

  constructor(
    message: string,
    options: { issues?: Issue[]; kind?: 'usage' | 'invalid'; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HarnessAugmentError';
    this.issues = options.issues ?? [];
    this.kind = options.kind ?? 'invalid';
  }

  static isInstance(value: unknown): value is HarnessAugmentError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}

/** The outcome of a `safe…` call: the value, or the issues that prevented it. */
export type SafeResult<T> = { success: true; data: T } | { success: false; issues: Issue[] };

/**
 * The value a JSON path leads to in `root` (own keys only), or undefined where it leads nowhere.
 *
 * @example
 * valueAtPath({ tools: { items: [{ name: 'x' }] } }, ['tools', 'items', 0, 'name']) // 'x'
 */
export function valueAtPath(root: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>(
    (node, key) =>
      typeof node === 'object' && node !== null && Object.hasOwn(node, key)
        ? (node as Record<string | number, unknown>)[key]
        : undefined,
    root,
  );
}

/**
 * Formats a JSON path the way jq and JSON Schema tools print it: `$.skills[3].body`.
 *
 * @example
 * formatPath(['tools', 0, 'parameters']) // '$.tools[0].parameters'
 */
export function formatPath(path: JsonPath): string {
  let out = '$';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * Formats an issue as one `location: message` line, the location being file, line and JSON path.
 *
 * @example
 * formatIssue({ code: 'unknown_tool', path: ['messages', 2], message: 'no tool "x"', file: 't.jsonl', line: 7 })
 * // 't.jsonl:7 $.messages[2]: no tool "x" [unknown_tool]'
 */
export function formatIssue(issue: Issue): string {
  const where = [issue.file, issue.line].filter((part) => part !== undefined).join(':');
  const location = where ? `${where} ${formatPath(issue.path)}` : formatPath(issue.path);
  return `${truncateText(location)}: ${truncateText(issue.message)} [${issue.code}]`;
}

/** The longest piece of user data an error message quotes; the rest is cut and counted. */
export const quoteLimit = 200;

/**
 * Cuts text longer than `limit` characters, saying how much was cut, so that a message quoting a 20 MB
 * argument stays one readable line.
 *
 * @example
 * truncateText('x'.repeat(500), 10) // 'xxxxxxxxxx… (490 more characters)'
 */
export function truncateText(text: string, limit = 4 * quoteLimit): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}

// Control characters (C0 but tab, DEL, C1), line and paragraph separators and bidirectional overrides.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const unprintable = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

/**
 * One line for a terminal: every control character (a NUL, an escape sequence, a newline from an endpoint's
 * body) written as `\u00XX`, so that nothing read from a file or a server moves the cursor, recolours the
 * terminal or splits the line.
 *
 * @example
 * printableLine('bad\u0000\u001b[2J') // 'bad\\u0000\\u001b[2J'
 */
export function printableLine(text: string): string {
  return text.replace(
    unprintable,
    (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Quotes user data for an error message: JSON-encoded, cut at `quoteLimit` characters.
 *
 * @example
 * quote('get_price') // '"get_price"'
 */
export function quote(value: unknown, limit = quoteLimit): string {
  const text = typeof value === 'string' ? value : String(value);
  const cut = text.length > limit ? text.slice(0, limit) : text;
  const quoted = JSON.stringify(cut);
  return text.length > limit ? `${quoted.slice(0, -1)}…" (${text.length} characters)` : quoted;
}
