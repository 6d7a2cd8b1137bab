// Where a JSON path lies in JSON text, found without a second parser: JSON is read by JSON.parse, and the
// YAML parser (whose flow-collection resolution is quadratic in the keys of one object: a 200,000-key object
// never finished) is never asked to locate anything in it. Each object or array is indexed the first time a
// path goes through it (its members' offsets, one scan), so locating any number of issues costs time linear
// in the text; lines come from a table of line starts, by binary search.
import type { JsonPath } from './issues.js';

/**
 * Returns a function that gives the 1-based line of the value at a JSON path in `text` (a valid JSON
 * document), or of its nearest existing ancestor.
 *
 * @example
 * createJsonLineLocator('{\n "a": {\n  "b": 1\n }\n}')(['a', 'b']) // 3
 */
export function createJsonLineLocator(text: string): (path: JsonPath) => number {
  const length = text.length;
  const members = new Map<number, Map<string, number>>();
  let lineStarts: number[] | undefined;

  const skipSpace = (from: number): number => {
    let index = from;
    while (index < length) {
      const code = text.charCodeAt(index);
      if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) break;
      index++;
    }
    return index;
  };
  /** `from` is at a quote; returns the offset after the closing one. */
  const skipString = (from: number): number => {
    let index = from + 1;
    while (index < length) {
      const code = text.charCodeAt(index);
      if (code === 0x5c) index += 2;
      else if (code === 0x22) return index + 1;
      else index++;
    }
    return length;
  };
  const skipValue = (from: number): number => {
    let index = skipSpace(from);
    const first = text.charCodeAt(index);
    if (first === 0x22) return skipString(index);
    if (first !== 0x7b && first !== 0x5b) {
      while (index < length && !',}] \t\r\n'.includes(text[index] as string)) index++;
      return index;
    }
    let depth = 0;
    while (index < length) {
      const code = text.charCodeAt(index);
      if (code === 0x22) {
        index = skipString(index);
        continue;
      }
      if (code === 0x7b || code === 0x5b) depth++;
      else if (code === 0x7d || code === 0x5d) {
        depth--;
        if (depth === 0) return index + 1;
      }
      index++;
    }
    return length;
  };
  /** The offsets of the members of the object or array that starts at `start`, by key or index. */
  const indexOf = (start: number): Map<string, number> => {
    const known = members.get(start);
    if (known) return known;
    const found = new Map<string, number>();
    const isObject = text.charCodeAt(start) === 0x7b;
    let index = start + 1;
    for (let position = 0; ; position++) {
      index = skipSpace(index);
      let key = String(position);
      if (isObject) {
        if (text.charCodeAt(index) !== 0x22) break;
        const end = skipString(index);
        key = JSON.parse(text.slice(index, end)) as string;
        index = skipSpace(end) + 1;
      } else if (index >= length || text.charCodeAt(index) === 0x5d) break;
      index = skipSpace(index);
      if (!found.has(key)) found.set(key, index);
      index = skipSpace(skipValue(index));
      if (text.charCodeAt(index) !== 0x2c) break;
      index++;
    }
    members.set(start, found);
    return found;
  };
  const lineOf = (offset: number): number => {
    if (!lineStarts) {
      lineStarts = [0];
      for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1))
        lineStarts.push(index + 1);
    }
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((lineStarts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  return (path) => {
    let offset = skipSpace(0);
    for (const segment of path) {
      const code = text.charCodeAt(offset);
      if (code !== 0x7b && code !== 0x5b) break;
      const next = indexOf(offset).get(String(segment));
      if (next === undefined) break;
      offset = next;
    }
    return lineOf(offset);
  };
}
