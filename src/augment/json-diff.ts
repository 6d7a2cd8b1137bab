// A readable structural diff of two JSON values, leaf by leaf, for `hsa explain`.
import { canonicalJson } from '../harness/canonical-json.js';
import { formatPath, type JsonPath } from '../harness/issues.js';

export interface JsonChange {
  path: JsonPath;
  before?: unknown;
  after?: unknown;
}

/**
 * Lists the leaves that differ between two JSON values (added, removed or changed), in document order.
 *
 * @example
 * diffJson({ a: 1, b: [1] }, { a: 2, b: [1, 2] }) // [{ path: ['a'], before: 1, after: 2 }, { path: ['b', 1], after: 2 }]
 */
export function diffJson(before: unknown, after: unknown, path: JsonPath = []): JsonChange[] {
  if (canonicalJson(before ?? null) === canonicalJson(after ?? null)) return [];
  const bothObjects =
    typeof before === 'object' &&
    before !== null &&
    typeof after === 'object' &&
    after !== null &&
    Array.isArray(before) === Array.isArray(after);
  if (!bothObjects)
    return [{ path, ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) }];
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    return Array.from({ length }, (_, index) =>
      diffJson(before[index], after[index], [...path, index]),
    ).flat();
  }
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const keys = [...Object.keys(a), ...Object.keys(b).filter((key) => !Object.hasOwn(a, key))];
  return keys.flatMap((key) => diffJson(a[key], b[key], [...path, key]));
}

const show = (value: unknown, width: number) => {
  const text = typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value);
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
};

/**
 * Formats changes as lines: `$.path: before → after`, `+ $.path: value`, `- $.path: value`.
 *
 * @example
 * formatChanges(diffJson(base, variant)).join('\n')
 */
export function formatChanges(changes: readonly JsonChange[], width = 100): string[] {
  return changes.map((change) => {
    const where = formatPath(change.path);
    if (!('before' in change)) return `+ ${where}: ${show(change.after, width)}`;
    if (!('after' in change)) return `- ${where}: ${show(change.before, width)}`;
    return `~ ${where}: ${show(change.before, width)} → ${show(change.after, width)}`;
  });
}
