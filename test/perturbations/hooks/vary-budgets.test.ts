import { describe, expect, it } from 'vitest';
import { varyBudgets } from '../../../perturbations/hooks/vary-budgets.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import type { Harness, Hook } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import { baggageTrajectory, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

const hookById = (hooks: readonly Hook[], id: string) => hooks.find((hook) => hook.id === id) as Hook;

/** The baggage trajectory with a too-long attempt (83 code points) and a banned term twice, which exhausts `no_guarantees`. */
function exhaustedTrajectory(): Trajectory {
  const base = baggageTrajectory();
  const long = `On a standard fare: 8 kg cabin bag and 23 kg checked, and that is all for today, ok`;
  const draft: Trajectory = {
    ...base,
    messages: [
      ...base.messages.slice(0, -1),
      { role: 'assistant', content: long, hsa: { event: 'hook_rejected', hook: 'short_reply' } },
      { role: 'user', content: '', hsa: { event: 'hook_feedback', hook: 'short_reply' } },
      {
        role: 'assistant',
        content: '8 kg cabin, guaranteed.',
        hsa: { event: 'hook_rejected', hook: 'no_guarantees' },
      },
      { role: 'user', content: '', hsa: { event: 'hook_feedback', hook: 'no_guarantees' } },
      {
        role: 'assistant',
        content: '8 kg cabin, guaranteed!',
        hsa: { event: 'hook_rejected', hook: 'no_guarantees' },
      },
      { role: 'assistant', content: '', hsa: { event: 'hook_fallback', hook: 'no_guarantees' } },
    ],
  };
  const { trajectory, issues } = rederiveTrajectory(draft, travelHarness());
  expect(issues).toEqual([]);
  expect([...long].length).toBe(83);
  return trajectory;
}

/** The variant of `harness` at seed `s<seed>`, full severity, on the baggage trajectory. */
async function variedAt(harness: Harness, seed: number) {
  const applied = await applyOperator(varyBudgets, harness, {
    rng: `s${seed}`,
    severity: 1,
    trajectory: baggageTrajectory(),
  });
  if ('skip' in applied) throw new Error(applied.skip);
  return applied;
}

describe('hooks/vary-budgets', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(varyBudgets, { cases: await lawCases() });
  });

  it('varies budgets and thresholds at a fixed seed', async () => {
    const harness = travelHarness();
    const applied = await applyOperator(varyBudgets, harness, {
      rng: 'golden',
      severity: 0.3,
      trajectory: baggageTrajectory(),
    });
    if ('skip' in applied) throw new Error(applied.skip);
    const items = applied.harness.hooks.items;
    expect(hookById(items, 'tool_budget').check).toEqual({ type: 'max_tool_calls', max: 6 });
    expect(hookById(items, 'short_reply').onFail).toMatchObject({ maxRetries: 1 });
    expect(applied.relabel.steps).toEqual([]);
  });

  it('keeps exhausted budgets and keeps thresholds between what passed and what failed', async () => {
    const harness = travelHarness();
    const trajectory = exhaustedTrajectory();
    const seen = new Set<number>();
    for (let seed = 0; seed < 40; seed++) {
      const applied = await applyOperator(varyBudgets, harness, { rng: `s${seed}`, severity: 1, trajectory });
      if ('skip' in applied) throw new Error(applied.skip);
      const items = applied.harness.hooks.items;
      expect(hookById(items, 'no_guarantees').onFail).toMatchObject({ maxRetries: 1 });
      const shortReply = hookById(items, 'short_reply');
      const max = shortReply.check.type === 'max_length' ? shortReply.check.max : 0;
      // short_reply passed the 23-code-point attempts and rejected the 83-code-point one.
      expect(max).toBeGreaterThanOrEqual(23);
      expect(max).toBeLessThan(83);
      expect(shortReply.onFail).toMatchObject({ maxRetries: expect.any(Number) });
      if (shortReply.onFail.action === 'retry')
        expect(shortReply.onFail.maxRetries).toBeGreaterThanOrEqual(1);
      seen.add(max);
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('skips without a trajectory', async () => {
    const applied = await applyOperator(varyBudgets, travelHarness(), { rng: 'x', severity: 1 });
    expect(applied).toEqual({
      skip: 'needs the trajectory to know which budgets and thresholds keep its decisions',
    });
  });

  it('keeps every retry budget at 1 or more: at 0 a retry hook would block without its feedback', async () => {
    const harness = travelHarness();
    for (let seed = 0; seed < 40; seed++) {
      const applied = await variedAt(harness, seed);
      for (const hook of applied.harness.hooks.items)
        if (hook.onFail.action === 'retry') expect(hook.onFail.maxRetries, hook.id).toBeGreaterThanOrEqual(1);
    }
  });

  it('keeps a value that a text of the harness states, as in "At most 5 tool calls per turn."', async () => {
    const input = travelHarnessInput();
    input.hooks.items = input.hooks.items.map((hook) =>
      hook.id === 'tool_budget' ? { ...hook, description: 'At most 5 tool calls per turn.' } : hook,
    );
    const harness = parseHarness(input);
    let varied = 0;
    for (let seed = 0; seed < 40; seed++) {
      const applied = await variedAt(harness, seed);
      expect(hookById(applied.harness.hooks.items, 'tool_budget').check).toEqual({
        type: 'max_tool_calls',
        max: 5,
      });
      const shortReply = hookById(applied.harness.hooks.items, 'short_reply');
      if (shortReply.check.type === 'max_length' && shortReply.check.max !== 80) varied += 1;
    }
    // The other values still vary.
    expect(varied).toBeGreaterThan(0);
  });

  it('keeps a value stated in words, as in "Make no more than five tool calls in one turn."', async () => {
    // The wording of an audit's harness (obra/superpowers skills under a coding-agent prompt): its prompt
    // and the hook said "twelve" and the variant enforced 6 to 18.
    const input = travelHarnessInput();
    input.hooks.items = input.hooks.items.map((hook) =>
      hook.id === 'tool_budget'
        ? { ...hook, description: 'Make no more than five tool calls in one turn.' }
        : hook,
    );
    const harness = parseHarness(input);
    for (let seed = 0; seed < 40; seed++) {
      const applied = await variedAt(harness, seed);
      expect(hookById(applied.harness.hooks.items, 'tool_budget').check).toEqual({
        type: 'max_tool_calls',
        max: 5,
      });
    }
  });
});
