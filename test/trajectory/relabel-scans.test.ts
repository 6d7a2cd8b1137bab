// A relabel scans a free text for mentions only when the text holds one of the names it renames; the
// moves are what they were (inverse exact, mentions renamed, look-alikes left alone).
import { describe, expect, it } from 'vitest';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { forwardTrajectory, inverseTrajectory, relabelTextScans } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

const base = travelHarness();

describe('relabel text scans', () => {
  it('scans only the free texts that hold a renamed name', () => {
    const original = validateTrajectory(baggageTrajectory(), base).trajectory as Trajectory;
    const { harness: variant, relabel } = renameSymbols(base, { tools: { get_baggage_policy: 'bag_rules' } });
    const before = relabelTextScans();
    const moved = forwardTrajectory(original, relabel, variant);
    // Free texts: the loaded skill body (mentions the tool), the tool's JSON result, the reply.
    expect(relabelTextScans() - before).toBe(1);
    expect(moved.issues).toEqual([]);
    expect(moved.trajectory.messages[3]?.content).toContain('`bag_rules`');
    const back = inverseTrajectory(moved.trajectory, relabel, base);
    expect(relabelTextScans() - before).toBe(2);
    expect(JSON.stringify(back.trajectory)).toBe(JSON.stringify(original));
  });

  it('leaves a name inside a longer identifier alone, as before', () => {
    const input = baggageTrajectory();
    const messages = input.messages.map((message, index) =>
      index === input.messages.length - 1
        ? { ...message, content: 'See get_baggage_policy_v2 and `get_baggage_policy` for 8 kg.' }
        : message,
    );
    const original = validateTrajectory({ ...input, messages }, base).trajectory as Trajectory;
    const { harness: variant, relabel } = renameSymbols(base, { tools: { get_baggage_policy: 'bag_rules' } });
    const moved = forwardTrajectory(original, relabel, variant);
    expect(moved.trajectory.messages.at(-1)?.content).toBe(
      'See get_baggage_policy_v2 and `bag_rules` for 8 kg.',
    );
    const back = inverseTrajectory(moved.trajectory, relabel, base);
    expect(JSON.stringify(back.trajectory)).toBe(JSON.stringify(original));
  });
});
