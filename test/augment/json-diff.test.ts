// The diff behind `hsa explain`: items of a list matched by id or name read as one order line when they were
// only reordered, not as every field of every shifted index changed (a user audit on GitHub's MCP server).
import { describe, expect, it } from 'vitest';
import { diffJson, formatChanges } from '../../src/augment/json-diff.js';

const hook = (id: string, action: string) => ({
  id,
  check: { type: 'max_length', max: 80 },
  onFail: { action },
});
const hooks = (...items: object[]) => ({ hooks: { version: '1', items } });
const byKey = { matchItemsByKey: true };

describe('diffJson with items matched by key', () => {
  it('a reorder is one order change, in text and in data', () => {
    const before = hooks(hook('a', 'retry'), hook('b', 'block'), hook('c', 'fallback'));
    const after = hooks(hook('b', 'block'), hook('a', 'retry'), hook('c', 'fallback'));
    const changes = diffJson(before, after, byKey);
    expect(changes).toEqual([
      { path: ['hooks', 'items'], order: { before: ['a', 'b', 'c'], after: ['b', 'a', 'c'] } },
    ]);
    expect(formatChanges(changes)).toEqual(['~ $.hooks.items: order a, b, c → b, a, c']);
  });

  it('a reorder with a changed item: the order, then the real change under the item key', () => {
    const before = hooks(hook('a', 'retry'), hook('b', 'block'));
    const after = hooks(hook('b', 'block'), hook('a', 'fallback'));
    expect(formatChanges(diffJson(before, after, byKey))).toEqual([
      '~ $.hooks.items: order a, b → b, a',
      '~ $.hooks.items[id=a].onFail.action: "retry" → "fallback"',
    ]);
    expect(diffJson(before, after, byKey)[1]!.path).toEqual([
      'hooks',
      'items',
      { id: 'a' },
      'onFail',
      'action',
    ]);
  });

  it('added and removed items are named by key, without the shift of the items after them', () => {
    const tool = (name: string) => ({ name, description: `${name} things` });
    const before = { tools: [tool('x'), tool('y'), tool('z')] };
    const after = { tools: [tool('w'), tool('x'), tool('z')] };
    expect(formatChanges(diffJson(before, after, byKey))).toEqual([
      '- $.tools[name=y]: {"description":"y things","name":"y"}',
      '+ $.tools[name=w]: {"description":"w things","name":"w"}',
    ]);
  });

  it('a rename in place, plain lists and lists with a repeated key stay index by index', () => {
    expect(formatChanges(diffJson([{ id: 'a' }, { id: 'b' }], [{ id: 'x' }, { id: 'b' }], byKey))).toEqual([
      '~ $[0].id: "a" → "x"',
    ]);
    expect(formatChanges(diffJson({ required: ['a', 'b'] }, { required: ['b', 'a'] }, byKey))).toEqual([
      '~ $.required[0]: "a" → "b"',
      '~ $.required[1]: "b" → "a"',
    ]);
    const twice = [
      { name: 'f', arguments: 1 },
      { name: 'f', arguments: 2 },
    ];
    expect(diffJson(twice, [...twice].reverse(), byKey).map((change) => change.path)).toEqual([
      [0, 'arguments'],
      [1, 'arguments'],
    ]);
  });

  it('without the option, items are compared index by index as before', () => {
    const before = [
      { id: 'a', v: 1 },
      { id: 'b', v: 2 },
    ];
    expect(diffJson(before, [...before].reverse()).map((change) => change.path)).toEqual([
      [0, 'id'],
      [0, 'v'],
      [1, 'id'],
      [1, 'v'],
    ]);
  });
});

// A user audit on BFCL: every tool description opens with the same ~130-character preamble ("This tool
// belongs to the travel system, …"), and explain cut each text at 100 characters from its start, so before
// and after read the same and the reworded verb after "Tool description:" was hidden.
describe('formatChanges: a long changed text', () => {
  const preamble =
    'This tool belongs to the travel system, which allows users to book flights, manage credit cards, and view budget information. Tool description: ';
  const path = ['tools', 'items', 0, 'description'];

  it('is cut around its first difference, with … for what is left out, within the width', () => {
    const [line] = formatChanges([
      {
        path,
        before: `${preamble}Get the budget of the user.`,
        after: `${preamble}Retrieve the budget of the user.`,
      },
    ]);
    expect(line).toBe(
      '~ $.tools.items[0].description: …ation. Tool description: Get the budget of the user." → …ation. Tool description: Retrieve the budget of the user."',
    );
    const long = 'x'.repeat(200);
    const [cut] = formatChanges([
      { path: ['a'], before: `${preamble}Get ${long}`, after: `${preamble}Fetch ${long}` },
    ]);
    const [before, after] = (cut as string).slice('~ $.a: '.length).split(' → ');
    for (const side of [before, after]) {
      expect(side).toHaveLength(100);
      expect(side).toMatch(/^….*…$/);
    }
    expect(before).toContain('Tool description: Get x');
    expect(after).toContain('Tool description: Fetch x');
  });

  it('keeps the opening where the difference is in view, and short texts whole', () => {
    const tail = ' and more words'.repeat(10);
    expect(formatChanges([{ path: ['a'], before: `Get it${tail}`, after: `Fetch it${tail}` }])[0]).toMatch(
      /^~ \$\.a: "Get it and more.*… → "Fetch it and more.*…$/,
    );
    expect(formatChanges([{ path: ['a'], before: 'short one', after: 'short two' }])).toEqual([
      '~ $.a: "short one" → "short two"',
    ]);
  });
});
