import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyEdits,
  mapJsonStringValues,
  parseRawJson,
  renameJsonKeys,
} from '../../src/trajectory/raw-json.js';

describe('raw JSON edits', () => {
  it('renames only key tokens and keeps spacing, escapes and number forms', () => {
    const text = '{ "link_id" : 7.50,\n  "filters": {"link_id": "\\u00e9", "n": 1e3} }';
    expect(renameJsonKeys(text, [{ path: [], from: 'link_id', to: 'item' }])).toBe(
      '{ "item" : 7.50,\n  "filters": {"link_id": "\\u00e9", "n": 1e3} }',
    );
    expect(renameJsonKeys(text, [{ path: ['filters'], from: 'link_id', to: 'ref' }])).toBe(
      '{ "link_id" : 7.50,\n  "filters": {"ref": "\\u00e9", "n": 1e3} }',
    );
  });

  it('reaches array items with []', () => {
    expect(
      renameJsonKeys('{"items":[{"sku":1},{"sku":2}]}', [{ path: ['items', '[]'], from: 'sku', to: 'code' }]),
    ).toBe('{"items":[{"code":1},{"code":2}]}');
  });

  it('maps string values at a key', () => {
    expect(mapJsonStringValues('{"skill_id": "item_qa"}', [], 'skill_id', (value) => `x.${value}`)).toBe(
      '{"skill_id": "x.item_qa"}',
    );
  });

  it('returns undefined for text that is not JSON', () => {
    expect(renameJsonKeys('{"a":', [])).toBeUndefined();
    expect(parseRawJson('nope')).toBeUndefined();
  });

  it('refuses overlapping edits', () => {
    expect(() =>
      applyEdits('abc', [
        { start: 0, end: 2, text: 'x' },
        { start: 1, end: 3, text: 'y' },
      ]),
    ).toThrow(/overlapping/);
  });

  it('a rename and its reverse restore any JSON text byte for byte (property)', () => {
    fc.assert(
      fc.property(fc.json(), fc.integer({ min: 0, max: 2 }), (text, indent) => {
        const spaced = JSON.stringify(JSON.parse(text), null, indent);
        const forward = renameJsonKeys(spaced, [{ path: [], from: 'a', to: '__renamed__' }]);
        if (spaced.includes('"__renamed__"')) return;
        const back = renameJsonKeys(forward as string, [{ path: [], from: '__renamed__', to: 'a' }]);
        expect(back).toBe(spaced);
        expect(JSON.parse(forward as string)).toEqual(
          JSON.parse(spaced) !== null &&
            typeof JSON.parse(spaced) === 'object' &&
            !Array.isArray(JSON.parse(spaced))
            ? Object.fromEntries(
                Object.entries(JSON.parse(spaced)).map(([key, value]) => [
                  key === 'a' ? '__renamed__' : key,
                  value,
                ]),
              )
            : JSON.parse(spaced),
        );
      }),
    );
  });
});
