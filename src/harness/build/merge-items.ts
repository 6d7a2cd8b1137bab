// The one rule for updating a list of harness items (tools, skills, prompt sections, hooks) from its sources,
// a three-way merge by key: what a source gave at the last build (its hash in the build record), what it
// gives now, and what the file holds now.
//   - a source item that did not change since the last build leaves the file alone: the user's edit of it,
//     or its removal, stands;
//   - a source item that is new or changed replaces the file's item of that key, or is inserted beside its
//     neighbours in source order;
//   - an item a source gave at the last build and no source gives now is removed;
//   - an item no source ever gave is the user's own and stays where it is.
// The file's order is kept; nothing else moves.
import { contentHash } from '../hash.js';

/** An item a source gives now: its key (tool name, skill id, section id, hook id), the item, the source. */
export interface SourceItem<T> {
  key: string;
  item: T;
  source: string;
}

/** What the build record says a source gave at the last build. */
export interface OwnedItem {
  source: string;
  hash: string;
}

/**
 * One item of the merged list: a file item kept as it is (by its index in the file), or a source item (in
 * place of the file item at index `replaces`, or new).
 */
export type MergedEntry<T> = { kept: number; item: T } | { fromSource: true; item: T; replaces?: number };

/** The outcome of a merge: the merged list and what it changed, keys in merged (or file) order. */
export interface MergedItems<T> {
  entries: MergedEntry<T>[];
  added: string[];
  removed: string[];
  changed: string[];
  /** Items that differ from what their source gives, kept because that source did not change. */
  edited: string[];
  /** Items no source gives or gave: the user's own. */
  own: string[];
  /** The record of this build: every key a source gives now, with its source and hash. */
  owned: Map<string, OwnedItem>;
}

/**
 * Merges the items the sources give now into the file's items (see the rule at the top of this file).
 *
 * @example
 * mergeItems({ current: [], keyOf: (tool) => tool.name, desired: [{ key: 'a', item: a, source: '--mcp x.json' }], previous: new Map() })
 * // { entries: [{ fromSource: true, item: a }], added: ['a'], … }
 */
export function mergeItems<T>(input: {
  current: readonly T[];
  keyOf: (item: T) => string;
  desired: readonly SourceItem<T>[];
  previous: ReadonlyMap<string, OwnedItem>;
}): MergedItems<T> {
  const { current, keyOf, desired, previous } = input;
  const wanted = new Map(desired.map((entry) => [entry.key, entry]));
  const removed: string[] = [];
  const entries: MergedEntry<T>[] = [];
  current.forEach((item, index) => {
    const key = keyOf(item);
    if (previous.has(key) && !wanted.has(key)) removed.push(key);
    else entries.push({ kept: index, item });
  });
  const positionOf = (key: string) => entries.findIndex((entry) => keyOf(entry.item) === key);
  const added: string[] = [];
  const changed: string[] = [];
  const edited: string[] = [];
  const owned = new Map<string, OwnedItem>();
  desired.forEach((entry, order) => {
    const hash = contentHash(entry.item);
    owned.set(entry.key, { source: entry.source, hash });
    const at = positionOf(entry.key);
    if (previous.get(entry.key)?.hash === hash) {
      if (at >= 0 && contentHash(entries[at]!.item) !== hash) edited.push(entry.key);
      return;
    }
    if (at >= 0) {
      const old = entries[at]!;
      if (contentHash(old.item) === hash) return;
      entries[at] = { fromSource: true, item: entry.item, ...('kept' in old ? { replaces: old.kept } : {}) };
      changed.push(entry.key);
      return;
    }
    entries.splice(insertionPoint(entries, desired, order, positionOf), 0, {
      fromSource: true,
      item: entry.item,
    });
    added.push(entry.key);
  });
  const own = entries
    .map((entry) => keyOf(entry.item))
    .filter((key) => !wanted.has(key) && !previous.has(key));
  return { entries, added, removed, changed, edited, own, owned };
}

/**
 * Where a new source item goes: right after the nearest item before it in source order that the list
 * holds, else right before the nearest one after it, else at the end.
 */
function insertionPoint<T>(
  entries: readonly MergedEntry<T>[],
  desired: readonly SourceItem<T>[],
  order: number,
  positionOf: (key: string) => number,
): number {
  for (let before = order - 1; before >= 0; before--) {
    const at = positionOf(desired[before]!.key);
    if (at >= 0) return at + 1;
  }
  for (let after = order + 1; after < desired.length; after++) {
    const at = positionOf(desired[after]!.key);
    if (at >= 0) return at;
  }
  return entries.length;
}
