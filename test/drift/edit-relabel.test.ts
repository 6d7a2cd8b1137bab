// The relabel of a real task-preserving edit carries the gold trajectories of v over to v+1 exactly: they
// validate under v+1 and map back to v byte for byte (the ground the real-next-version bench stands on).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeEditWithRelabel } from '../../src/drift/describe-edit.js';
import { forwardTrajectory, inverseTrajectory } from '../../src/trajectory/relabel.js';
import { type Trajectory, TrajectorySchema } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { projectRoot } from '../support/run-cli.js';
import { buildHistoryRepo } from './history-repo.js';

const gold: Trajectory[] = readFileSync(`${projectRoot}/fixtures/helpdesk/trajectories.jsonl`, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => TrajectorySchema.parse(JSON.parse(line)));

describe('describeEditWithRelabel', () => {
  it('carries every gold trajectory across each task-preserving edit and back', () => {
    const { versions } = buildHistoryRepo();
    let checked = 0;
    let moved = 0;
    for (let index = 0; index + 1 < versions.length; index++) {
      const before = versions[index] as (typeof versions)[number];
      const after = versions[index + 1] as (typeof versions)[number];
      const edit = describeEditWithRelabel(before, after);
      if (!edit.taskPreserving) continue;
      for (const trajectory of gold) {
        if (!validateTrajectory(trajectory, before).valid) continue;
        const forward = forwardTrajectory(trajectory, edit.relabel, after);
        expect(forward.issues, `${index} ${trajectory.id}`).toEqual([]);
        expect(validateTrajectory(forward.trajectory, after).valid).toBe(true);
        expect(inverseTrajectory(forward.trajectory, edit.relabel, before).trajectory).toEqual(trajectory);
        if (JSON.stringify(forward.trajectory) !== JSON.stringify(trajectory)) moved++;
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(moved).toBeGreaterThan(0);
  }, 60_000);
});
