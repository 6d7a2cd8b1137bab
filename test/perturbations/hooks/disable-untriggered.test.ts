import { describe, expect, it } from 'vitest';
import { disableUntriggered } from '../../../perturbations/hooks/disable-untriggered.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import { baggageTrajectory, travelHarness } from '../../support/travel-harness.js';

describe('hooks/disable-untriggered', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(disableUntriggered, { cases: await lawCases() });
  });

  it('disables a share of the hooks that never fail at a fixed seed', async () => {
    const applied = await applyOperator(disableUntriggered, travelHarness(), {
      rng: 'golden',
      severity: 0.3,
      trajectory: baggageTrajectory(),
    });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.hooks.items.filter((hook) => !hook.enabled).map((hook) => hook.id)).toEqual([
      'valid_arguments',
      'reply_skill',
    ]);
  });

  it('never disables a hook that failed on the trajectory', async () => {
    const base = baggageTrajectory();
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
    const harness = travelHarness();
    const { trajectory, issues } = rederiveTrajectory(draft, harness);
    expect(issues).toEqual([]);
    const applied = await applyOperator(disableUntriggered, harness, { rng: 'x', severity: 1, trajectory });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.hooks.items.filter((hook) => hook.enabled).map((hook) => hook.id)).toEqual([
      'no_guarantees',
    ]);
  });

  it('skips without a trajectory', async () => {
    const applied = await applyOperator(disableUntriggered, travelHarness(), { rng: 'x', severity: 1 });
    expect(applied).toEqual({ skip: 'needs the trajectory to know which hooks never fail' });
  });
});
