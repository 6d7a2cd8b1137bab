// A readable structural diff of two JSON values, leaf by leaf, for `hsa explain`; optionally the items of a
// list are matched by their id or name, so that a reorder reads as one order change (DiffOptions).
import { canonicalJson } from '../harness/canonical-json.js';
import { formatPath, truncateText } from '../harness/issues.js';

/** An array item named by its key instead of its index: `{ id: 'tool_budget' }` or `{ name: 'get_me' }`. */
export type ItemKey = { readonly id: string } | { readonly name: string };

/** A path into a JSON value: object keys, array indices and, where items are matched by key, item keys. */
export type DiffPath = ReadonlyArray<string | number | ItemKey>;

export interface JsonChange {
  path: DiffPath;
  before?: unknown;
  after?: unknown;
  /** Set instead of `before`/`after` where the keyed items of the array at `path` come in another order. */
  order?: { before: string[]; after: string[] };
}

/** Options of `diffJson`. */
export interface DiffOptions {
  /**
   * Match the items of an array by their `id` (or else `name`) where every item carries a unique one and the
   * items were reordered, added or removed: a reorder is one `order` change, an added or removed item one
   * change under its key, and a moved item's own changes sit under its key, not under a shifted index.
   */
  matchItemsByKey?: boolean;
}

/**
 * Lists the leaves that differ between two JSON values (added, removed or changed), in document order.
 *
 * @example
 * diffJson({ a: 1, b: [1] }, { a: 2, b: [1, 2] }) // [{ path: ['a'], before: 1, after: 2 }, { path: ['b', 1], after: 2 }]
 * diffJson([{ id: 'a' }, { id: 'b' }], [{ id: 'b' }, { id: 'a' }], { matchItemsByKey: true })
 * // [{ path: [], order: { before: ['a', 'b'], after: ['b', 'a'] } }]
 */
export function diffJson(before: unknown, after: unknown, options: DiffOptions = {}): JsonChange[] {
  return diffAt(before, after, [], options);
}

function diffAt(before: unknown, after: unknown, path: DiffPath, options: DiffOptions): JsonChange[] {
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
    const key = options.matchItemsByKey ? keyOfMovedItems(before, after) : undefined;
    if (key) return diffKeyedItems(before, after, key, path, options);
    const length = Math.max(before.length, after.length);
    return Array.from({ length }, (_, index) =>
      diffAt(before[index], after[index], [...path, index], options),
    ).flat();
  }
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const keys = [...Object.keys(a), ...Object.keys(b).filter((key) => !Object.hasOwn(a, key))];
  return keys.flatMap((key) => diffAt(a[key], b[key], [...path, key], options));
}

type KeyName = 'id' | 'name';

/** The key (`id`, else `name`) of a string value on every item, unique within each array; else undefined. */
function itemKeyName(before: readonly unknown[], after: readonly unknown[]): KeyName | undefined {
  const keyed = (items: readonly unknown[], key: KeyName) =>
    items.every(
      (item) =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as Record<string, unknown>)[key] === 'string',
    ) && new Set(items.map((item) => (item as Record<KeyName, string>)[key])).size === items.length;
  return (['id', 'name'] as const).find((key) => keyed(before, key) && keyed(after, key));
}

/**
 * The key to match items by when it tells more than their index: items were added or removed, or an item
 * shared by both arrays stands at another index. Where each shared item keeps its index (a rename in place),
 * index by index reads best: the same item, changed.
 */
function keyOfMovedItems(before: readonly unknown[], after: readonly unknown[]): KeyName | undefined {
  const key = itemKeyName(before, after);
  if (!key) return undefined;
  const afterIndex = indexByKey(after, key);
  const moved = keysOf(before, key).some(
    (value, index) => afterIndex.has(value) && afterIndex.get(value) !== index,
  );
  return before.length !== after.length || moved ? key : undefined;
}

const keysOf = (items: readonly unknown[], key: KeyName) =>
  items.map((item) => (item as Record<KeyName, string>)[key]);

const indexByKey = (items: readonly unknown[], key: KeyName) =>
  new Map(keysOf(items, key).map((value, index) => [value, index]));

/** The order change (if the shared items moved), the removed items, then the variant's items in its order. */
function diffKeyedItems(
  before: readonly unknown[],
  after: readonly unknown[],
  key: KeyName,
  path: DiffPath,
  options: DiffOptions,
): JsonChange[] {
  const beforeKeys = keysOf(before, key);
  const afterKeys = keysOf(after, key);
  const beforeIndex = indexByKey(before, key);
  const afterIndex = indexByKey(after, key);
  const at = (value: string): DiffPath => [
    ...path,
    (key === 'id' ? { id: value } : { name: value }) as ItemKey,
  ];
  const changes: JsonChange[] = [];
  const sharedBefore = beforeKeys.filter((value) => afterIndex.has(value));
  const sharedAfter = afterKeys.filter((value) => beforeIndex.has(value));
  if (sharedBefore.some((value, index) => sharedAfter[index] !== value))
    changes.push({ path, order: { before: beforeKeys, after: afterKeys } });
  for (const [index, value] of beforeKeys.entries())
    if (!afterIndex.has(value)) changes.push({ path: at(value), before: before[index] });
  for (const [index, value] of afterKeys.entries()) {
    const was = beforeIndex.get(value);
    changes.push(...diffAt(was === undefined ? undefined : before[was], after[index], at(value), options));
  }
  return changes;
}

/**
 * Formats a path as `$.tools[2].name`, an item matched by key as `[name=get_me]`.
 *
 * @example
 * formatDiffPath(['hooks', 'items', { id: 'tool_budget' }, 'onFail']) // '$.hooks.items[id=tool_budget].onFail'
 */
export function formatDiffPath(path: DiffPath): string {
  return path
    .map((segment) => {
      if (typeof segment !== 'object') return formatPath([segment]).slice(1);
      const [key, value] = Object.entries(segment)[0] as [string, string];
      return `[${key}=${/^[\w$.-]+$/.test(value) ? value : JSON.stringify(value)}]`;
    })
    .reduce((out, text) => out + text, '$');
}

const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value));

/** Where `text` may be cut without splitting a surrogate pair: `at`, or one before it. */
const cutAt = (text: string, at: number) =>
  at > 0 && at < text.length && /[\udc00-\udfff]/.test(text[at] as string) ? at - 1 : at;

/**
 * At most `width` characters of `text` from `start`, with `…` marking what is left out on each side.
 */
function excerpt(text: string, start: number, width: number): string {
  if (text.length <= width) return text;
  const from = cutAt(text, start);
  const head = from > 0 ? '…' : '';
  const room = width - head.length;
  const rest = text.slice(from);
  return rest.length <= room ? `${head}${rest}` : `${head}${rest.slice(0, cutAt(rest, room - 1))}…`;
}

const show = (value: unknown, width: number) => excerpt(shown(value), 0, width);

/**
 * A changed value on both sides, each cut to `width` around the first difference (a quarter of the width
 * before it): long texts that share an opening (every tool description of a suite starting with the same
 * preamble) would otherwise read the same on both sides, the change cut off.
 */
function showChanged(before: unknown, after: unknown, width: number): [string, string] {
  const texts = [shown(before), shown(after)] as const;
  let first = 0;
  while (first < texts[0].length && texts[0][first] === texts[1][first]) first++;
  const lead = Math.floor(width / 4);
  // A difference in view with some text after it keeps the text's opening.
  const from = first < width - 1 - lead ? 0 : first - lead;
  return [excerpt(texts[0], from, width), excerpt(texts[1], from, width)];
}

// The order is what a reader wants from a reorder, so it is not cut at `width`; only a hostile length is.
const showOrder = (keys: readonly string[]) => truncateText(keys.join(', '));

/**
 * Formats changes as lines: `$.path: before → after`, `+ $.path: value`, `- $.path: value`, and for a
 * reorder `~ $.path: order a, b → b, a`. A value is cut to `width` characters; a changed one around its first
 * difference, with `…` where text is left out.
 *
 * @example
 * formatChanges(diffJson(base, variant)).join('\n')
 */
export function formatChanges(changes: readonly JsonChange[], width = 100): string[] {
  return changes.map((change) => {
    const where = formatDiffPath(change.path);
    if (change.order)
      return `~ ${where}: order ${showOrder(change.order.before)} → ${showOrder(change.order.after)}`;
    if (!('before' in change)) return `+ ${where}: ${show(change.after, width)}`;
    if (!('after' in change)) return `- ${where}: ${show(change.before, width)}`;
    const [before, after] = showChanged(change.before, change.after, width);
    return `~ ${where}: ${before} → ${after}`;
  });
}
