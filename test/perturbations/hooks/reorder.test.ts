import { describe, expect, it } from 'vitest';
import { reorderHooks } from '../../../perturbations/hooks/reorder.js';
import { applyOperator } from '../../../src/augment/operator.js';
import type { Harness } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import { baggageTrajectory, travelHarness } from '../../support/travel-harness.js';

const stageOrder = (harness: Harness, stage: string) =>
  harness.hooks.items.filter((hook) => hook.stage === stage).map((hook) => hook.id);

describe('hooks/reorder', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(reorderHooks, { cases: await lawCases() });
  });

  it('reorders the hooks of a stage at a fixed seed', async () => {
    const applied = await applyOperator(reorderHooks, travelHarness(), {
      rng: 'golden',
      severity: 1,
      trajectory: baggageTrajectory(),
    });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.hooks.items.map((hook) => hook.id)).toEqual([
      'no_profanity',
      'tool_budget',
      'valid_arguments',
      'short_reply',
      'no_guarantees',
      'reply_skill',
      'grounded_numbers',
    ]);
  });

  it('leaves a stage alone where a step fails two of its hooks', async () => {
    const base = baggageTrajectory();
    // Too long and a banned term: short_reply and no_guarantees both fail on this attempt.
    const attempt = 'On a standard fare you get 8 kg cabin and 23 kg checked, guaranteed for every passenger';
    const draft: Trajectory = {
      ...base,
      messages: [
        ...base.messages.slice(0, -1),
        { role: 'assistant', content: attempt, hsa: { event: 'hook_rejected', hook: 'short_reply' } },
        { role: 'user', content: '', hsa: { event: 'hook_feedback', hook: 'short_reply' } },
        base.messages.at(-1)!,
      ],
    };
    const harness = travelHarness();
    const { trajectory, issues } = rederiveTrajectory(draft, harness);
    expect(issues).toEqual([]);
    for (let seed = 0; seed < 20; seed++) {
      const applied = await applyOperator(reorderHooks, harness, {
        rng: `s${seed}`,
        severity: 1,
        trajectory,
      });
      if ('skip' in applied) throw new Error(applied.skip);
      expect(stageOrder(applied.harness, 'pre_reply')).toEqual([
        'reply_skill',
        'short_reply',
        'no_guarantees',
      ]);
      expect(stageOrder(applied.harness, 'pre_tool')).toEqual(['tool_budget', 'valid_arguments']);
    }
  });

  it('skips without a trajectory, or when no stage has two hooks', async () => {
    expect(await applyOperator(reorderHooks, travelHarness(), { rng: 'x', severity: 1 })).toEqual({
      skip: 'needs the trajectory to know which hooks fail together',
    });
    const harness = travelHarness();
    const single = { ...harness, hooks: { ...harness.hooks, items: harness.hooks.items.slice(0, 2) } };
    const trajectory = rederiveTrajectory(baggageTrajectory(), single).trajectory;
    expect(await applyOperator(reorderHooks, single, { rng: 'x', severity: 1, trajectory })).toEqual({
      skip: 'no stage has two hooks that can be reordered',
    });
  });
});

describe('hooks/reorder pre-check', () => {
  it('renders no system prompt for its one-hook validations', async () => {
    // Nine pre_reply hooks and two pre_tool hooks: eleven one-hook validations in the pre-check.
    const travel = travelHarness();
    const extra = Array.from({ length: 6 }, (_, index) => ({
      id: `never_${index}`,
      stage: 'pre_reply' as const,
      enabled: true,
      check: { type: 'banned_terms' as const, terms: [`zzq${index}`], caseSensitive: false },
      onFail: { action: 'block' as const },
    }));
    const harness: Harness = {
      ...travel,
      hooks: { ...travel.hooks, items: [...travel.hooks.items, ...extra] },
    };
    const oneHookValidations = harness.hooks.items.filter(
      (hook) => hook.stage === 'pre_reply' || hook.stage === 'pre_tool',
    ).length;
    // Every render of the prompt keys its cache by the context's JSON, which calls this value's toJSON (it
    // counts, and always gives the same text, so the key does not change).
    let renders = 0;
    const base = baggageTrajectory(harness);
    const trajectory: Trajectory = {
      ...base,
      context: {
        ...base.context,
        probe: {
          toJSON: () => {
            renders++;
            return 'probe';
          },
        },
      },
    };
    const applied = await applyOperator(reorderHooks, harness, { rng: 'count', severity: 1, trajectory });
    if ('skip' in applied) throw new Error(applied.skip);
    // What is left is the certificate's own renders of the base and the variant.
    expect(renders).toBeLessThan(oneHookValidations);
  });
});
