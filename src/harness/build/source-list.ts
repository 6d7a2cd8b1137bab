// What the file sources of `hsa harness build` share: a list given bare or under its part's key, and the
// rule that a key (section id, hook id) appears once per source.
import type { Issue, JsonPath } from '../issues.js';

/** The items a source file gives, or the issues that stop it (with file and line). */
export interface ItemsSource<T> {
  items: T[];
  issues: Issue[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The list a source document holds: the document itself when it is an array, else the array under `key`
 * (an object with any other key is refused, as the harness format refuses unknown keys).
 *
 * @example
 * listInDocument({ items: [hook] }, 'items') // { items: [hook], path: ['items'] }
 */
export function listInDocument(
  value: unknown,
  key: string,
): { items: unknown[]; path: JsonPath } | { issue: Issue } {
  if (Array.isArray(value)) return { items: value, path: [] };
  if (isPlainObject(value)) {
    const others = Object.keys(value).filter((name) => name !== key && name !== 'version');
    if (others.length > 0)
      return {
        issue: {
          code: 'unrecognized_keys',
          path: [],
          message: `unknown key(s): ${others.map((name) => `"${name}"`).join(', ')}; expected a list or { ${key}: [...] }`,
        },
      };
    if (Array.isArray(value[key])) return { items: value[key], path: [key] };
  }
  return {
    issue: { code: 'invalid_type', path: [], message: `expected a list or { ${key}: [...] }` },
  };
}

/**
 * An issue for every key given a second time in one source.
 *
 * @example
 * repeatedKeys(['a', 'a'], (index) => [index, 'id'], 'hook') // [{ code: 'duplicate_id', path: [1, 'id'], … }]
 */
export function repeatedKeys(
  keys: readonly string[],
  pathOf: (index: number) => JsonPath,
  what: string,
): Issue[] {
  const first = new Map<string, number>();
  const issues: Issue[] = [];
  keys.forEach((key, index) => {
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else
      issues.push({
        code: 'duplicate_id',
        path: pathOf(index),
        message: `${what} "${key}" is given twice in this file (first at index ${earlier})`,
      });
  });
  return issues;
}
