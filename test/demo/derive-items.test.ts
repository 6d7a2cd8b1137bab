// Items derived from gold trajectories carry the same tool calls and skills as the fixture's bench items,
// which scripts/generate-bench-items.ts derives from the same trajectories; facts are left out.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { BenchItem } from '../../src/bench/schema.js';
import { isItemCandidate, itemFromTrajectory } from '../../src/demo/derive-items.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { type Trajectory, TrajectorySchema } from '../../src/trajectory/schema.js';

const lines = async (file: string) => (await readFile(file, 'utf8')).trim().split('\n');

describe('itemFromTrajectory', () => {
  it('derives the answer key of the fixture items from their gold trajectories', async () => {
    const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
    const items: BenchItem[] = (await lines('fixtures/livestream/bench/items.jsonl')).map((line) =>
      JSON.parse(line),
    );
    const trajectories = new Map<string, Trajectory>(
      (await lines('fixtures/livestream/trajectories.jsonl')).map((line) => {
        const trajectory = TrajectorySchema.parse(JSON.parse(line));
        return [trajectory.id, trajectory];
      }),
    );
    for (const item of items.slice(0, 40)) {
      const gold = trajectories.get(item.gold.id) as Trajectory;
      expect(isItemCandidate(gold), item.id).toBe(true);
      const derived = itemFromTrajectory(harness, gold, item.id);
      expect(derived.expect.toolCalls, item.id).toEqual(item.expect.toolCalls);
      expect(derived.expect.skills, item.id).toEqual(item.expect.skills);
      expect(derived.expect.forbidden).toEqual(item.expect.forbidden);
      expect(derived.expect.facts).toEqual([]);
      expect(derived.input).toEqual(item.input);
    }
  });

  it('leaves out multi-turn trajectories', async () => {
    const multi = (await lines('fixtures/livestream/trajectories.jsonl'))
      .map((line) => TrajectorySchema.parse(JSON.parse(line)))
      .filter((trajectory) => trajectory.meta?.scenario === 'multi_turn');
    expect(multi.length).toBeGreaterThan(0);
    expect(multi.filter(isItemCandidate)).toEqual([]);
  });
});
