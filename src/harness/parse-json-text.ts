// JSON text parsed by JSON.parse with every rule of the project's scanner (./json-syntax.ts) kept. The
// scanner walks the text character by character in JavaScript, many times slower than JSON.parse, so it
// runs only when its answer is needed: when JSON.parse throws (for the scanner's offset and wording, which
// must not change with Node), or when the parsed value cannot show what the scanner refuses and JSON.parse
// takes: a duplicate key (JSON.parse keeps the last), nesting deeper than the limit, a number longer than
// the scanner reads. The checks for those three are cheap and may say "maybe"; then the scanner decides.
import {
  defaultMaxJsonDepth,
  findJsonSyntaxError,
  type JsonSyntaxError,
  maxJsonNumberLength,
} from './json-syntax.js';

/** The parsed value, or the scanner's first syntax error. */
export type JsonTextResult = { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError };

/**
 * Parses JSON text; refuses exactly what `findJsonSyntaxError` refuses, with its error.
 *
 * @example
 * parseJsonText('{"a":1,"a":2}') // { ok: false, error: { offset: 7, message: 'duplicate key "a"' } }
 */
export function parseJsonText(text: string, options: { maxDepth?: number } = {}): JsonTextResult {
  const maxDepth = options.maxDepth ?? defaultMaxJsonDepth;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // The scanner and JSON.parse agree on the grammar (a property test holds them to it); the fallback
    // only keeps a disagreement from passing bad text as good.
    const syntax = findJsonSyntaxError(text, { maxDepth }) ?? {
      offset: 0,
      message: (error as Error).message,
    };
    return { ok: false, error: syntax };
  }
  if (scannerMayRefuse(text, value, maxDepth)) {
    const syntax = findJsonSyntaxError(text, { maxDepth });
    if (syntax) return { ok: false, error: syntax };
  }
  return { ok: true, value };
}

/** False only when the text, which JSON.parse took, has no duplicate key, no deep nesting and no long number. */
function scannerMayRefuse(text: string, value: unknown, maxDepth: number): boolean {
  const parsedKeys = keyCountWithin(value, maxDepth);
  if (parsedKeys === undefined) return true;
  const textKeys = keyTokenCount(text);
  // A duplicate key leaves fewer keys in the value than the text has key tokens.
  return textKeys === undefined || textKeys !== parsedKeys;
}

/** Every object's key count, summed; undefined when containers nest deeper than `maxDepth`. */
function keyCountWithin(value: unknown, maxDepth: number): number | undefined {
  if (typeof value !== 'object' || value === null) return 0;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  let keys = 0;
  while (nodes.length > 0) {
    const node = nodes.pop() as object;
    const depth = depths.pop() as number;
    if (depth > maxDepth) return undefined;
    const children = Array.isArray(node) ? node : Object.values(node);
    if (!Array.isArray(node)) keys += children.length;
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return keys;
}

/**
 * The number of key tokens (a string followed by `:`) in text that JSON.parse took; undefined when a run of
 * number characters outside strings is longer than the scanner reads. In valid JSON every `"` outside a
 * string opens one, so finding each string's closing quote with `indexOf` tokenizes the text exactly.
 */
function keyTokenCount(text: string): number | undefined {
  let keys = 0;
  let outsideFrom = 0;
  for (;;) {
    const open = text.indexOf('"', outsideFrom);
    const outsideTo = open < 0 ? text.length : open;
    if (outsideTo - outsideFrom > maxJsonNumberLength && hasLongNumberRun(text, outsideFrom, outsideTo))
      return undefined;
    if (open < 0) return keys;
    let close = text.indexOf('"', open + 1);
    while (close >= 0 && isEscaped(text, close)) close = text.indexOf('"', close + 1);
    if (close < 0) return undefined;
    let next = close + 1;
    while (isJsonSpace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) === 0x3a) keys++;
    outsideFrom = close + 1;
  }
}

/** Whether the quote at `index` is escaped: an odd number of backslashes before it. */
function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let at = index - 1; at >= 0 && text.charCodeAt(at) === 0x5c; at--) backslashes++;
  return backslashes % 2 === 1;
}

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Whether `text[from, to)` holds more than `maxJsonNumberLength` number characters in a row. */
function hasLongNumberRun(text: string, from: number, to: number): boolean {
  let run = 0;
  for (let at = from; at < to; at++) {
    const code = text.charCodeAt(at);
    const numeric =
      (code >= 0x30 && code <= 0x39) ||
      code === 0x2e ||
      code === 0x2b ||
      code === 0x2d ||
      code === 0x65 ||
      code === 0x45;
    run = numeric ? run + 1 : 0;
    if (run > maxJsonNumberLength) return true;
  }
  return false;
}
