import { describe, expect, it } from 'vitest';
import { hookFacts } from '../../../perturbations/hooks/_hook-facts.js';
import { disableUntriggered } from '../../../perturbations/hooks/disable-untriggered.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { createRunContext } from '../../../src/harness/run-context.js';
import { certifies } from '../../../src/kit/certify.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import { baggageTrajectory, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

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

  it('at full severity, disables what one hook at a time would', async () => {
    // The operator certifies every chosen hook disabled at once before it tries them one at a time: its
    // result must be the one-at-a-time loop's, on every law case.
    let compared = 0;
    for (const { harness, trajectories, hookChecks } of await lawCases()) {
      const run = createRunContext({ hookChecks });
      for (const trajectory of trajectories) {
        const facts = hookFacts(trajectory, harness, run);
        if (!facts) continue;
        let variant = harness;
        harness.hooks.items.forEach((hook, index) => {
          if (!hook.enabled || facts.failuresPerTurn.has(hook.id)) return;
          const items = variant.hooks.items.map((item, at) =>
            at === index ? { ...item, enabled: false } : item,
          );
          const candidate = { ...variant, hooks: { ...variant.hooks, items } };
          if (certifies({ base: harness, variant: candidate, trajectory, run })) variant = candidate;
        });
        const applied = await applyOperator(disableUntriggered, harness, {
          rng: 'x',
          severity: 1,
          trajectory,
          run,
        });
        const enabled = (of: typeof harness) => of.hooks.items.map((hook) => hook.enabled);
        if ('skip' in applied) expect(enabled(variant)).toEqual(enabled(harness));
        else expect(enabled(applied.harness)).toEqual(enabled(variant));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('skips without a trajectory', async () => {
    const applied = await applyOperator(disableUntriggered, travelHarness(), { rng: 'x', severity: 1 });
    expect(applied).toEqual({ skip: 'needs the trajectory to know which hooks never fail' });
  });

  // An audit's harness had no hooks, and the skip said every enabled hook fails somewhere on the trajectory.
  it('says so when the harness has no enabled hook', async () => {
    const input = travelHarnessInput();
    input.hooks.items = input.hooks.items.map((hook) => ({ ...hook, enabled: false }));
    const quiet = parseHarness(input);
    const trajectory = rederiveTrajectory(baggageTrajectory(), quiet).trajectory;
    expect(await applyOperator(disableUntriggered, quiet, { rng: 'x', severity: 1, trajectory })).toEqual({
      skip: 'the harness has no enabled hook',
    });
  });
});
