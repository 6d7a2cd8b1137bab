// The demo's train/bench split is by trajectory: every item comes from a held-out trajectory (every scorable
// turn of it, multi-turn conversations included), no held-out trajectory is in the training pool, at most
// half of the trajectories are held out, and the same seed gives the same split.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { itemSource, splitByTrajectory } from '../../src/demo/split.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { projectRoot } from '../support/run-cli.js';

const folder = join(projectRoot, 'fixtures/helpdesk');
const lines = readFileSync(join(folder, 'demo/trajectories.jsonl'), 'utf8')
  .trimEnd()
  .split('\n')
  .slice(0, 60);
const idOf = (line: string) => (JSON.parse(line) as { id: string }).id;
let harness: Harness;

beforeAll(async () => {
  harness = await loadHarnessFile(join(folder, 'harness.yaml'));
});

describe('splitByTrajectory', () => {
  it('holds out whole trajectories: items from every scorable turn, none of them in the training pool', () => {
    const split = splitByTrajectory({ harness, lines, file: 'gold.jsonl', benchItems: 20, seed: '3' });
    expect(split.items).toHaveLength(20);
    expect(split.trajectories).toBe(60);
    const held = new Set(split.items.map(itemSource));
    expect(split.heldOut).toBe(held.size);
    expect(split.heldOut).toBeLessThan(20);
    expect(split.items.some((item) => /-turn-[2-9]$/.test(item.id))).toBe(true);
    const pool = split.pool.map(idOf);
    expect(pool.filter((id) => held.has(id))).toEqual([]);
    expect(pool.length + split.heldOut).toBe(60);
    for (const item of split.items) {
      expect(split.sourceOf.get(item.id)).toBe(itemSource(item));
      expect(item.id.startsWith(`${itemSource(item)}-turn-`)).toBe(true);
    }
    expect(splitByTrajectory({ harness, lines, file: 'gold.jsonl', benchItems: 20, seed: '3' })).toEqual(
      split,
    );
    expect(
      splitByTrajectory({ harness, lines, file: 'gold.jsonl', benchItems: 20, seed: '4' }).items,
    ).not.toEqual(split.items);
  });

  it('holds out at most half of the trajectories, however many items are asked for', () => {
    const split = splitByTrajectory({ harness, lines, file: 'gold.jsonl', benchItems: 1000, seed: '3' });
    expect(split.heldOut).toBe(30);
    expect(split.pool).toHaveLength(30);
  });

  it('with an items file, holds out the trajectories behind the items it draws', () => {
    const derived = splitByTrajectory({ harness, lines, file: 'gold.jsonl', benchItems: 1000, seed: '3' });
    const split = splitByTrajectory({
      harness,
      lines,
      file: 'gold.jsonl',
      items: derived.items,
      benchItems: 7,
      seed: '9',
    });
    expect(split.items).toHaveLength(7);
    const held = new Set(split.items.map(itemSource));
    expect(split.pool.map(idOf).filter((id) => held.has(id))).toEqual([]);
    expect(split.pool.length).toBe(60 - held.size);
  });

  it('names the file and line of a line that is not a trajectory', () => {
    expect(() =>
      splitByTrajectory({
        harness,
        lines: [...lines.slice(0, 3), '{"id": "x", "messages": 3}'],
        file: 'gold.jsonl',
        benchItems: 2,
        seed: '1',
      }),
    ).toThrow(/gold\.jsonl:4: not a trajectory/);
  });
});
