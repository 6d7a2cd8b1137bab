// rederiveTrajectory writes the derived content of its copy, never of its input, and copies only what it
// writes (each message; tool calls and hook events are shared): a move is not a deep copy of the trajectory.
import { describe, expect, it } from 'vitest';
import { forwardTrajectory, identityRelabel } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { rederiveTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

describe('rederiveTrajectory', () => {
  it('repairs the derived content of its copy and leaves the input as it was', () => {
    const harness = travelHarness();
    const good = baggageTrajectory(harness);
    const stale: Trajectory = structuredClone(good);
    stale.messages[0] = { role: 'system', content: 'an old prompt' };
    stale.messages[3] = { ...(stale.messages[3] as Trajectory['messages'][number]), content: 'an old body' };
    const before = structuredClone(stale);
    const { trajectory, issues } = rederiveTrajectory(stale, harness);
    expect(issues).toEqual([]);
    expect(trajectory).toEqual(good);
    expect(stale).toEqual(before);
  });

  it('shares the parts it never writes with its input', () => {
    const harness = travelHarness();
    const original = baggageTrajectory(harness);
    const { trajectory } = forwardTrajectory(original, identityRelabel, harness);
    const call = original.messages[2] as Extract<Trajectory['messages'][number], { role: 'assistant' }>;
    const moved = trajectory.messages[2] as typeof call;
    expect(moved).not.toBe(call);
    expect(moved.tool_calls).toBe(call.tool_calls);
    expect(trajectory.context).toBe(original.context);
  });
});
