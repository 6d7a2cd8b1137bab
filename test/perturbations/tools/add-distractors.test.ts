import { describe, expect, it } from 'vitest';
import { addDistractors, distractorPool } from '../../../perturbations/tools/add-distractors.js';
import { certify } from '../../../src/augment/certificate.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import type { Harness } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { forwardTrajectory } from '../../../src/trajectory/relabel.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory, validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import { baggageTrajectory, call, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';
import { flightCase } from './flight-case.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const names = (result: AppliedOperator) => result.harness.tools.items.map((tool) => tool.name);

/** The baggage example with a first attempt that calls `translate_text`, a tool the harness lacks. */
function strayCallTrajectory(under: Harness): Trajectory {
  const base = baggageTrajectory();
  const stray = call('translate_text', '{"text":"bagagem","target_language":"en"}', 's1');
  const messages = [
    ...base.messages.slice(0, 4),
    { ...stray, hsa: { event: 'hook_rejected' as const, hook: 'valid_arguments' } },
    {
      role: 'tool' as const,
      tool_call_id: 's1',
      content: '',
      hsa: { event: 'hook_feedback' as const, hook: 'valid_arguments' },
    },
    ...base.messages.slice(4),
  ];
  const { trajectory } = rederiveTrajectory({ ...base, messages }, under);
  return validateTrajectory(trajectory, under).trajectory as Trajectory;
}

describe('tools/add-distractors', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(addDistractors, {
      cases: [...(await lawCases()), flightCase()],
      params: [{}, { count: 6 }],
    });
  });

  it('adds 1 to 4 pool tools as severity grows, at random positions (golden)', async () => {
    const run = async (severity: number) =>
      names(applied(await applyOperator(addDistractors, harness, { rng: 'golden', severity })));
    expect(await run(0.1)).toEqual(['find_flights', 'hold_seat', 'shorten_url', 'get_baggage_policy']);
    expect(await run(0.3)).toEqual([
      'set_reminder',
      'find_flights',
      'hold_seat',
      'shorten_url',
      'get_baggage_policy',
    ]);
    expect((await run(0.6)).length).toBe(6);
    expect((await run(1)).length).toBe(7);
    const zero = applied(await applyOperator(addDistractors, harness, { rng: 'zero', severity: 0 }));
    expect(zero.harness).toBe(harness);
  });

  it('offers pool tools with valid, compiling schemas', () => {
    expect(distractorPool.length).toBeGreaterThanOrEqual(12);
    const input = travelHarnessInput();
    input.tools.items.push(...structuredClone(distractorPool));
    expect(() => parseHarness(input)).not.toThrow();
  });

  it('never adds a tool the harness names, the trajectory calls, or one that competes with a registry tool', async () => {
    const input = travelHarnessInput();
    input.tools.items.push({
      name: 'weather_forecast',
      description: 'Forecast at the destination airport.',
      parameters: { type: 'object', properties: { airport: { type: 'string' } } },
    });
    input.skills.items[0]!.body += '\n- Never call `send_email` or `set_reminder`.';
    const crowded = parseHarness(input);
    const trajectory = strayCallTrajectory(crowded);
    expect(validateTrajectory(trajectory, crowded).issues).toEqual([]);
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const result = applied(
        await applyOperator(addDistractors, crowded, { rng: seed, params: { count: 8 }, trajectory }),
      );
      const added = names(result).filter((name) => !crowded.tools.items.some((tool) => tool.name === name));
      expect(added).toHaveLength(8);
      for (const name of ['get_weather', 'translate_text', 'send_email', 'set_reminder'])
        expect(added).not.toContain(name);
      const rewritten = forwardTrajectory(trajectory, result.relabel, result.harness).trajectory;
      const certificate = certify({
        base: crowded,
        variant: result.harness,
        original: trajectory,
        rewritten,
        relabel: result.relabel,
      });
      expect(certificate.issues).toEqual([]);
    }
  });

  it('skips when every pool tool collides', async () => {
    const input = travelHarnessInput();
    input.tools.items.push(...structuredClone(distractorPool));
    expect(await applyOperator(addDistractors, parseHarness(input), { rng: 'x' })).toEqual({
      skip: 'every pool tool collides with the harness or the trajectory',
    });
  });
});
