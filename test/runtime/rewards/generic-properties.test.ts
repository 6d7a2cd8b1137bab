// Laws of the tool-call match over generated episodes: a message's calls compare as a set, dropping calls
// costs exactly what the F1 formula says, and every generic reward stays in [0, 1].
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { taskFromTrajectory } from '../../../src/runtime/episode-task.js';
import { scoreGeneric, toolCallMatchReward } from '../../../src/runtime/rewards/generic/index.js';
import type { Message, Trajectory } from '../../../src/trajectory/schema.js';
import { travelContext, travelHarness } from '../../support/travel-harness.js';

const base = travelHarness();
type Call = { name: string; args: Record<string, unknown> };

const callArbitrary: fc.Arbitrary<Call> = fc.oneof(
  fc
    .constantFrom('basic', 'standard', 'flex')
    .map((fare_class) => ({ name: 'get_baggage_policy', args: { fare_class } })),
  fc
    .record({ origin: fc.constantFrom('LIS', 'OPO', 'MAD'), day: fc.integer({ min: 1, max: 28 }) })
    .map(({ origin, day }) => ({
      name: 'find_flights',
      args: { origin, destination: 'FAO', date: `2026-12-${String(day).padStart(2, '0')}` },
    })),
);
/** Steps of one turn, each a message of 1–3 calls. */
const stepsArbitrary = fc.array(fc.array(callArbitrary, { minLength: 1, maxLength: 3 }), {
  minLength: 1,
  maxLength: 5,
});

function trajectoryOf(id: string, steps: readonly (readonly Call[])[]): Trajectory {
  let next = 0;
  const messages: Message[] = [
    { role: 'system', content: 'system' },
    { role: 'user', content: 'Help me travel.' },
  ];
  for (const step of steps) {
    const calls = step.map((call) => ({
      id: `c${next++}`,
      type: 'function' as const,
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
    messages.push({ role: 'assistant', content: null, tool_calls: calls });
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: '{"ok":true}' });
  }
  messages.push({ role: 'assistant', content: 'Done.' });
  return { id, context: travelContext, messages };
}

const inputFor = (gold: Trajectory, trajectory: Trajectory) => ({
  base,
  seed: '1',
  episode: { id: gold.id, context: travelContext, task: taskFromTrajectory(gold, base), gold },
  trajectory,
});

describe('tool-call match laws', () => {
  it('the calls of one message compare as a set', () => {
    fc.assert(
      fc.property(stepsArbitrary, fc.infiniteStream(fc.integer()), (steps, keys) => {
        const gold = trajectoryOf('g', steps);
        const shuffled = steps.map((step) =>
          step
            .map((call) => ({ call, key: keys.next().value as number }))
            .sort((a, b) => a.key - b.key)
            .map(({ call }) => call),
        );
        expect(toolCallMatchReward(inputFor(gold, trajectoryOf('p', shuffled))).score).toBe(1);
      }),
    );
  });

  it('keeping a subsequence of the gold calls scores 2·kept / (gold + kept)', () => {
    fc.assert(
      fc.property(stepsArbitrary, fc.infiniteStream(fc.boolean()), (steps, keep) => {
        const gold = trajectoryOf('g', steps);
        const kept = steps
          .map((step) => step.filter(() => keep.next().value))
          .filter((step) => step.length > 0);
        const total = steps.flat().length;
        const count = kept.flat().length;
        const { score, details } = toolCallMatchReward(inputFor(gold, trajectoryOf('p', kept)));
        expect(score).toBeCloseTo((2 * count) / (total + count), 12);
        expect(details.recall).toBeCloseTo(count / total, 12);
        expect(details.findings.filter((finding) => finding.code === 'missing_call')).toHaveLength(
          total - count,
        );
      }),
    );
  });

  it('every generic reward and the total stay in [0, 1]', () => {
    fc.assert(
      fc.property(stepsArbitrary, stepsArbitrary, (goldSteps, playedSteps) => {
        const gold = trajectoryOf('g', goldSteps);
        const score = scoreGeneric(inputFor(gold, trajectoryOf('p', playedSteps)));
        for (const value of [score.total, ...Object.values(score.rewards)]) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});
