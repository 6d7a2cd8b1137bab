import { describe, expect, it } from 'vitest';
import { injectRecovery } from '../../../perturbations/hooks/inject-recovery.js';
import { certify } from '../../../src/augment/certificate.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { forwardTrajectory, inverseTrajectory } from '../../../src/trajectory/relabel.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import { baggageTrajectory, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

describe('hooks/inject-recovery', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(injectRecovery, { cases: await lawCases() });
  });

  it('injects a failed attempt and its feedback before the reply at a fixed seed', async () => {
    const harness = travelHarness();
    const trajectory = baggageTrajectory();
    const applied = await applyOperator(injectRecovery, harness, { rng: 'golden', severity: 1, trajectory });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness).toBe(harness);
    const moved = forwardTrajectory(trajectory, applied.relabel, harness);
    expect(moved.issues).toEqual([]);
    expect(moved.trajectory.messages.slice(6)).toEqual([
      {
        role: 'assistant',
        content:
          'On a standard fare: 8 kg cabin bag and 23 kg checked. Let me know if you have any other questions.',
        hsa: { event: 'hook_rejected', hook: 'short_reply', injected: true },
      },
      {
        role: 'user',
        content: 'Too long (98/80). Attempt 1 of 2.',
        hsa: { event: 'hook_feedback', hook: 'short_reply', injected: true },
      },
      { role: 'assistant', content: 'On a standard fare: 8 kg cabin bag and 23 kg checked.' },
    ]);
    expect(inverseTrajectory(moved.trajectory, applied.relabel, harness).trajectory).toEqual(trajectory);
    expect(
      certify({
        base: harness,
        variant: harness,
        original: trajectory,
        rewritten: moved.trajectory,
        relabel: applied.relabel,
      }).certified,
    ).toBe(true);
  });

  it('builds attempts from banned terms', async () => {
    const input = travelHarnessInput();
    input.hooks.items = input.hooks.items.filter(
      (hook) => hook.id !== 'short_reply' && hook.id !== 'grounded_numbers',
    );
    const harness = parseHarness(input);
    const trajectory = rederiveTrajectory(baggageTrajectory(), harness).trajectory;
    const applied = await applyOperator(injectRecovery, harness, { rng: 'x', severity: 1, trajectory });
    if ('skip' in applied) throw new Error(applied.skip);
    const [step] = applied.relabel.steps;
    expect(step).toMatchObject({ type: 'insert_messages', at: 6 });
    // '100%' would also state an ungrounded number, so the attempt uses the other term.
    expect(step?.type === 'insert_messages' && step.messages[0]?.content).toBe(
      'On a standard fare: 8 kg cabin bag and 23 kg checked. Guaranteed!',
    );
  });

  it('skips when the budget allows no further failure in the turn', async () => {
    const input = travelHarnessInput();
    input.hooks.items = input.hooks.items.filter((hook) => hook.id === 'no_guarantees');
    const harness = parseHarness(input);
    const base = rederiveTrajectory(baggageTrajectory(), harness).trajectory;
    const draft: Trajectory = {
      ...base,
      messages: [
        ...base.messages.slice(0, -1),
        {
          role: 'assistant',
          content: 'Guaranteed: 8 kg.',
          hsa: { event: 'hook_rejected', hook: 'no_guarantees' },
        },
        { role: 'user', content: '', hsa: { event: 'hook_feedback', hook: 'no_guarantees' } },
        base.messages.at(-1)!,
      ],
    };
    const trajectory = rederiveTrajectory(draft, harness).trajectory;
    const applied = await applyOperator(injectRecovery, harness, { rng: 'x', severity: 1, trajectory });
    expect(applied).toEqual({
      skip: 'no failed attempt could be built that fails one hook alone within its budget',
    });
  });

  it('skips without a trajectory or without a hook it can fail', async () => {
    expect(await applyOperator(injectRecovery, travelHarness(), { rng: 'x', severity: 1 })).toEqual({
      skip: 'needs a trajectory to inject an episode into',
    });
    const input = travelHarnessInput();
    input.hooks.items = input.hooks.items.filter((hook) => hook.id === 'reply_skill');
    const harness = parseHarness(input);
    const trajectory = rederiveTrajectory(baggageTrajectory(), harness).trajectory;
    expect(await applyOperator(injectRecovery, harness, { rng: 'x', severity: 1, trajectory })).toEqual({
      skip: 'no enabled retry hook on replies whose check an attempt can be built to fail',
    });
  });
});
