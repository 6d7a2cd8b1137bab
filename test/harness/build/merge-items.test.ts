// The three-way merge of a harness list: properties over random files, sources and records, then the cases
// the rule names one by one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeItems, type OwnedItem, type SourceItem } from '../../../src/harness/build/merge-items.js';
import { contentHash } from '../../../src/harness/hash.js';

interface Item {
  key: string;
  value: number;
}
const keyOf = (item: Item) => item.key;
const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

/** A list of items with distinct keys drawn from `keys`. */
const itemList = fc
  .uniqueArray(fc.constantFrom(...keys), { maxLength: keys.length })
  .chain((chosen) =>
    fc.tuple(...chosen.map((key) => fc.integer({ min: 0, max: 2 }).map((value) => ({ key, value })))),
  );

const asDesired = (items: Item[], source = 'src'): SourceItem<Item>[] =>
  items.map((item) => ({ key: item.key, item, source }));

const record = fc
  .tuple(itemList, fc.constantFrom('src', 'other'))
  .map(
    ([items, source]) =>
      new Map<string, OwnedItem>(items.map((item) => [item.key, { source, hash: contentHash(item) }])),
  );

const merged = (current: Item[], desired: Item[], previous: Map<string, OwnedItem>) =>
  mergeItems({ current, keyOf, desired: asDesired(desired), previous });
const resultItems = (result: ReturnType<typeof merged>) => result.entries.map((entry) => entry.item);

describe('mergeItems', () => {
  it('building again from the same sources with the record of the last build changes nothing', () => {
    fc.assert(
      fc.property(itemList, itemList, record, (current, desired, previous) => {
        const first = merged(current, desired, previous);
        const again = merged(resultItems(first), desired, first.owned);
        expect(again.entries.every((entry, index) => 'kept' in entry && entry.kept === index)).toBe(true);
        expect([again.added, again.removed, again.changed]).toEqual([[], [], []]);
      }),
    );
  });

  it('a new or changed source item is in the result as the source gives it; a dropped one is gone', () => {
    fc.assert(
      fc.property(itemList, itemList, record, (current, desired, previous) => {
        const result = resultItems(merged(current, desired, previous));
        for (const item of desired)
          if (previous.get(item.key)?.hash !== contentHash(item)) expect(result).toContainEqual(item);
        const given = new Set(desired.map(keyOf));
        for (const key of previous.keys()) if (!given.has(key)) expect(result.map(keyOf)).not.toContain(key);
      }),
    );
  });

  it("the file's items stay in their order, and an item no source gives or gave stays as it is", () => {
    fc.assert(
      fc.property(itemList, itemList, record, (current, desired, previous) => {
        const result = merged(current, desired, previous);
        const kept = result.entries.flatMap((entry) => ('kept' in entry ? [entry.kept] : []));
        expect(kept).toEqual([...kept].sort((a, b) => a - b));
        const given = new Set(desired.map(keyOf));
        const own = current.filter((item) => !given.has(item.key) && !previous.has(item.key));
        expect(resultItems(result).filter((item) => own.some((mine) => mine.key === item.key))).toEqual(own);
        expect(result.own).toEqual(own.map(keyOf));
      }),
    );
  });

  it('is deterministic and every key appears once', () => {
    fc.assert(
      fc.property(itemList, itemList, record, (current, desired, previous) => {
        const result = merged(current, desired, previous);
        expect(merged(current, desired, previous)).toEqual(result);
        const resultKeys = resultItems(result).map(keyOf);
        expect(new Set(resultKeys).size).toBe(resultKeys.length);
      }),
    );
  });

  const at = (value: number, key = 'b') => ({ key, value });
  const owned = (...items: Item[]) =>
    new Map(items.map((item) => [item.key, { source: 'src', hash: contentHash(item) }]));

  it('keeps an edit of an item whose source did not change, and takes the source when it changes', () => {
    const file = [at(9)];
    const unchanged = merged(file, [at(1)], owned(at(1)));
    expect(resultItems(unchanged)).toEqual([at(9)]);
    expect(unchanged.edited).toEqual(['b']);
    const changed = merged(file, [at(2)], owned(at(1)));
    expect(resultItems(changed)).toEqual([at(2)]);
    expect(changed.changed).toEqual(['b']);
    expect(changed.entries[0]).toEqual({ fromSource: true, item: at(2), replaces: 0 });
  });

  it('does not bring back an item the user deleted while its source stays the same', () => {
    expect(resultItems(merged([], [at(1)], owned(at(1))))).toEqual([]);
    expect(resultItems(merged([], [at(2)], owned(at(1))))).toEqual([at(2)]);
  });

  it('inserts a new item after its neighbour in source order, between the user’s own items', () => {
    const file = [at(0, 'mine'), at(1, 'a'), at(0, 'yours'), at(1, 'c')];
    const result = merged(file, [at(1, 'a'), at(1, 'b'), at(1, 'c')], owned(at(1, 'a'), at(1, 'c')));
    expect(resultItems(result).map(keyOf)).toEqual(['mine', 'a', 'b', 'yours', 'c']);
    expect(result.added).toEqual(['b']);
    expect(result.own).toEqual(['mine', 'yours']);
  });

  it('takes over an item of the same key the user wrote, when no record says otherwise', () => {
    const result = merged([at(5)], [at(1)], new Map());
    expect(resultItems(result)).toEqual([at(1)]);
    expect(result.changed).toEqual(['b']);
  });
});
