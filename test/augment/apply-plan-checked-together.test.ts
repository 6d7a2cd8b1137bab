// A plan's steps are checked for protected content together: a whole that keeps the base's content stands
// as it is, with one check; only a whole that loses some is applied again with a check after every step,
// where the first candidate that loses it falls to its fallbacks. Counted in texts scanned and operator
// calls, never in time.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyPlanSteps, baseState } from '../../src/augment/apply-plan.js';
import { textScans } from '../../src/augment/content-facts.js';
import { checkContentPreservation } from '../../src/augment/content-preservation.js';
import { defineOperator, type Operator } from '../../src/augment/operator.js';
import type { PlannedOperator } from '../../src/augment/plan.js';
import { createRandom } from '../../src/augment/random.js';
import { createRunContext } from '../../src/harness/run-context.js';
import type { Harness } from '../../src/harness/schema.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import { travelHarness } from '../support/travel-harness.js';

/** An operator that rewrites the `baggage` skill's body, counting its calls. */
function bodyRewrite(id: string, rewrite: (body: string) => string) {
  const calls = { count: 0 };
  const operator = defineOperator({
    id: `skill-content/${id}`,
    version: 1,
    dimension: 'skill-content',
    mode: 'exact',
    description: `Rewrites the baggage skill's body (${id}).`,
    params: z.object({}),
    apply(harness: Harness) {
      calls.count++;
      return {
        harness: {
          ...harness,
          skills: {
            ...harness.skills,
            items: harness.skills.items.map((skill) =>
              skill.id === 'baggage' ? { ...skill, body: rewrite(skill.body) } : skill,
            ),
          },
        },
        relabel: identityRelabel,
      };
    },
  });
  return { operator, calls };
}

const note = (text: string) => bodyRewrite(`note-${text.length}`, (body) => `${body}\n- ${text}`);
/** Drops the backquoted tool name: protected code the base holds. */
const dropCode = bodyRewrite('drop-code', (body) => body.replace('`get_baggage_policy`', 'the policy tool'));

/** A step of severity 1, with its fallbacks. */
const step = (operator: Operator, fallbacks: Operator[] = []): PlannedOperator => ({
  operator,
  severity: 1,
  ...(fallbacks.length > 0 ? { fallbacks: fallbacks.map((fallback) => step(fallback)) } : {}),
});

async function applied(base: Harness, planned: PlannedOperator[]) {
  return applyPlanSteps(
    base,
    baseState(base),
    planned.map((step, index) => ({ index, step })),
    { rng: createRandom('together'), run: createRunContext() },
  );
}

describe('the content check of a plan’s steps', () => {
  it('is made once for steps that keep the content together', async () => {
    const base = travelHarness();
    const steps = [note('Weigh bags at the desk.'), note('Ask for the bag count.'), note('Be brief.')];
    // The base's own texts are read first (by a check of another variant), so the count below is the
    // steps' alone.
    checkContentPreservation(
      base,
      (await applied(base, [step(note('Warm up.').operator)])).harness,
      identityRelabel,
    );
    const before = textScans.skills;
    const result = await applied(
      base,
      steps.map(({ operator }) => step(operator)),
    );
    expect(result.ops.map((record) => record.name)).toEqual(steps.map(({ operator }) => operator.id));
    expect(result.skipped).toEqual([]);
    // Only the whole variant's new body is read for mentions. A check after each step read the body of
    // every intermediate variant too (three).
    expect(textScans.skills - before).toBe(1);
    for (const { calls } of steps) expect(calls.count).toBe(1);
  });

  it('falls to a step’s fallback when the whole loses content, asking each operator once per harness', async () => {
    const base = travelHarness();
    const first = note('Weigh bags at the desk.');
    const fallback = note('State the bag count first.');
    const last = note('Be brief.');
    dropCode.calls.count = 0;
    const result = await applied(base, [
      step(first.operator),
      step(dropCode.operator, [fallback.operator]),
      step(last.operator),
    ]);
    expect(result.ops.map((record) => record.name)).toEqual([
      first.operator.id,
      fallback.operator.id,
      last.operator.id,
    ]);
    expect(result.skipped).toEqual([
      { name: dropCode.operator.id, reason: 'changes protected content of the base' },
    ]);
    const body = result.harness.skills.items.find((skill) => skill.id === 'baggage')?.body ?? '';
    expect(body).toContain('`get_baggage_policy`');
    // The first step's answer and the dropping step's (on the same harness) are taken from the first pass;
    // the last step runs on another harness in the second pass, so it is asked again.
    expect(first.calls.count).toBe(1);
    expect(dropCode.calls.count).toBe(1);
    expect(fallback.calls.count).toBe(1);
    expect(last.calls.count).toBe(2);
  });

  it('keeps a whole whose steps lose content only on the way', async () => {
    const base = travelHarness();
    const restore = bodyRewrite('restore-code', (body) =>
      body.replace('the policy tool', '`get_baggage_policy`'),
    );
    const result = await applied(base, [step(dropCode.operator), step(restore.operator)]);
    // What is certified is the variant, not the way to it: the two steps together keep every item.
    expect(result.ops.map((record) => record.name)).toEqual([dropCode.operator.id, restore.operator.id]);
    expect(result.harness.skills.items.map((skill) => skill.body)).toEqual(
      base.skills.items.map((skill) => skill.body),
    );
  });
});
