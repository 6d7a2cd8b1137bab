// What the file sources of `hsa harness build` share: a list given bare or under its part's key, and the
// rule that a key (section id, hook id) appears once per source.
import type { z } from 'zod';
import type { Issue, JsonPath } from '../issues.js';
import { fromZodIssues } from '../parse-harness.js';

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

/**
 * The items of a source document's list, each checked by `schema`, with every issue found: the list's own
 * (`listInDocument`), each item's, then ids given twice (`repeatedKeys`, only when every item parsed).
 * `path` is where the list is (undefined when there is none).
 *
 * @example
 * itemsOfList(document.value, 'items', HookSchema, 'hook') // { items: [hook], issues: [], path: ['items'] }
 */
export function itemsOfList<T extends { id: string }>(
  value: unknown,
  key: string,
  schema: z.ZodType<T>,
  what: string,
): { items: T[]; issues: Issue[]; path?: JsonPath } {
  const list = listInDocument(value, key);
  if ('issue' in list) return { items: [], issues: [list.issue] };
  const issues: Issue[] = [];
  const items: T[] = [];
  list.items.forEach((item, index) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) items.push(parsed.data);
    else issues.push(...fromZodIssues(parsed.error.issues, [...list.path, index]));
  });
  if (issues.length === 0)
    issues.push(
      ...repeatedKeys(
        items.map((item) => item.id),
        (index) => [...list.path, index, 'id'],
        what,
      ),
    );
  return { items, issues, path: list.path };
}
