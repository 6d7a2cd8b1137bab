import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rewordFeedback } from '../../../perturbations/hooks/reword-feedback.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { evaluateHook } from '../../../src/harness/hook-engine.js';
import { loadHarnessFile, parseHarness } from '../../../src/harness/parse-harness.js';
import type { Hook } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { baggageTrajectory, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

const feedbackOf = (hooks: readonly Hook[], id: string) => {
  const hook = hooks.find((item) => item.id === id);
  return hook?.onFail.action === 'retry' ? hook.onFail.feedback : undefined;
};

describe('hooks/reword-feedback', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(rewordFeedback, {
      cases: await lawCases(),
      params: [{}, { format: 'json' }, { format: 'bullets' }],
    });
  });

  it('rewords a share of the feedback templates at a fixed seed', async () => {
    const applied = await applyOperator(rewordFeedback, travelHarness(), {
      rng: 'golden',
      severity: 1,
      trajectory: baggageTrajectory(),
    });
    if ('skip' in applied) throw new Error(applied.skip);
    const items = applied.harness.hooks.items;
    expect(feedbackOf(items, 'reply_skill')).toBe(
      'Please fix: Load a {{kind}} skill with load_skill before replying.',
    );
    expect(feedbackOf(items, 'no_guarantees')).toBe('Rejected by {{hook}}:\n- Remove: {{join found ", "}}');
    expect(feedbackOf(items, 'grounded_numbers')).toBe(
      '[hook {{hook}}] These numbers are not in any tool result: {{join numbers ", "}}',
    );
    expect(applied.relabel.steps).toEqual([]);
  });

  it('writes a JSON form that renders to valid JSON', async () => {
    const harness = travelHarness();
    const applied = await applyOperator(rewordFeedback, harness, { params: { format: 'json' } });
    if ('skip' in applied) throw new Error(applied.skip);
    const shortReply = applied.harness.hooks.items.find((hook) => hook.id === 'short_reply') as Hook;
    const outcome = evaluateHook(
      shortReply,
      { stage: 'pre_reply', text: 'x'.repeat(90), attempt: 2 },
      applied.harness,
    );
    expect(outcome.pass).toBe(false);
    expect(JSON.parse((outcome as { feedback: string }).feedback)).toEqual({
      hook: 'short_reply',
      problem: 'is 90 characters long, more than 80',
      length: 90,
      max: 80,
      attempt: 2,
      maxRetries: 2,
      fix: 'Too long (90/80). Attempt 2 of 2.',
    });
    // "Remove: {{join found ", "}}" renders a list, which no JSON string member can hold: it keeps its words.
    expect(feedbackOf(applied.harness.hooks.items, 'no_guarantees')).toBe(
      feedbackOf(harness.hooks.items, 'no_guarantees'),
    );
  });

  it('never drops the words of the τ-bench demo feedback for a JSON form', async () => {
    // "Load `{{skill}}` before you call `cancel_pending_order`." became {"hook", "problem", "kind": null, …}:
    // the skill to load and the call to make again were gone.
    const harness = await loadHarnessFile(
      fileURLToPath(new URL('../../demo/fixtures/tau-bench-retail/harness.yaml', import.meta.url)),
    );
    for (let seed = 0; seed < 16; seed++) {
      const applied = await applyOperator(rewordFeedback, harness, { rng: `s${seed}`, severity: 1 });
      if ('skip' in applied) throw new Error(applied.skip);
      for (const hook of applied.harness.hooks.items) {
        if (hook.onFail.action !== 'retry') continue;
        const before = feedbackOf(harness.hooks.items, hook.id)!;
        if (hook.onFail.feedback.startsWith('{')) expect(hook.onFail.feedback).toContain('"fix": ');
        else expect(hook.onFail.feedback).toContain(before.split('. ')[0]!.split('`')[0]!);
      }
    }
    const json = await applyOperator(rewordFeedback, harness, { params: { format: 'json' }, severity: 1 });
    if ('skip' in json) throw new Error(json.skip);
    expect(feedbackOf(json.harness.hooks.items, 'cancel_policy_loaded')).toBe(
      'Load `{{skill}}` before you call `cancel_pending_order`.',
    );
  });

  it('splits feedback into bullets at sentence ends outside {{ }}', async () => {
    const input = travelHarnessInput();
    input.hooks.items = input.hooks.items.filter((hook) => hook.id === 'short_reply');
    const hook = input.hooks.items[0]!;
    hook.onFail = {
      action: 'retry',
      maxRetries: 2,
      feedback: 'Too long ({{length}}/{{max}}). Shorten it! Keep the price.',
    };
    const applied = await applyOperator(rewordFeedback, parseHarness(input), {
      params: { format: 'bullets' },
    });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(feedbackOf(applied.harness.hooks.items, 'short_reply')).toBe(
      'Rejected by {{hook}}:\n- Too long ({{length}}/{{max}}).\n- Shorten it!\n- Keep the price.',
    );
  });

  it('skips when no hook retries', async () => {
    const input = travelHarnessInput();
    input.hooks.items = input.hooks.items.filter((hook) => hook.onFail.action !== 'retry');
    const applied = await applyOperator(rewordFeedback, parseHarness(input), { rng: 'x', severity: 1 });
    expect(applied).toEqual({ skip: 'no hook retries with feedback' });
  });
});
