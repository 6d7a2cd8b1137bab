import { describe, expect, it } from 'vitest';
import { namespaceSkillIds } from '../../../perturbations/skill-ids/namespace.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { forwardTrajectory } from '../../../src/trajectory/relabel.js';
import { lawCases } from '../../support/law-cases.js';
import { baggageTrajectory, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const ids = (result: AppliedOperator) => result.harness.skills.items.map((skill) => skill.id);

describe('skill-ids/namespace', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(namespaceSkillIds, {
      cases: await lawCases(),
      params: [{}, { separator: '/' }, { namespace: 'acme', separator: '::' }],
    });
  });

  it('prefixes ids with their kind by default (golden)', async () => {
    const result = applied(await applyOperator(namespaceSkillIds, harness, { rng: 'golden', severity: 1 }));
    expect(ids(result)).toEqual(['reply.rebooking', 'reply.baggage', 'strategy.apology_first']);
    const moved = forwardTrajectory(baggageTrajectory(), result.relabel, result.harness).trajectory;
    const load = moved.messages[2];
    expect(load?.role === 'assistant' && load.tool_calls?.[0]?.function.arguments).toBe(
      '{"skill_id":"reply.baggage"}',
    );
  });

  it('takes a fixed namespace and separator from the params', async () => {
    const result = applied(
      await applyOperator(namespaceSkillIds, harness, {
        rng: 'golden',
        params: { namespace: 'air', separator: '::' },
      }),
    );
    expect(ids(result)).toEqual(['air::rebooking', 'air::baggage', 'air::apology_first']);
  });

  it('namespaces a share of the skills equal to the severity', async () => {
    const result = applied(await applyOperator(namespaceSkillIds, harness, { rng: 'one', severity: 0.2 }));
    expect(ids(result).filter((id) => id.includes('.'))).toHaveLength(1);
  });

  it('skips when every skill already carries the namespace', async () => {
    const once = applied(await applyOperator(namespaceSkillIds, harness, { rng: 'a', severity: 1 }));
    expect(await applyOperator(namespaceSkillIds, once.harness, { rng: 'b', severity: 1 })).toEqual({
      skip: 'no skill can take the namespace (already namespaced, or named in the trajectory)',
    });
  });

  // `hsa import skills` gives every SKILL.md the kind `reply`: audits of OpenHands' and K-Dense's skills
  // found `reply.github` and `reply.literature-review`, which the kind does not describe.
  it('namespaces by kind only where the skills have more than one kind', async () => {
    const input = travelHarnessInput();
    input.skills.items = input.skills.items.map((skill) => ({ ...skill, kind: 'reply' as const }));
    const oneKind = parseHarness(input);
    expect(await applyOperator(namespaceSkillIds, oneKind, { rng: 'x', severity: 1 })).toEqual({
      skip: 'every skill has the same kind: a namespace by kind would tell them nothing',
    });
    const fixed = applied(
      await applyOperator(namespaceSkillIds, oneKind, { rng: 'x', severity: 1, params: { namespace: 'kb' } }),
    );
    expect(ids(fixed).every((id) => id.startsWith('kb.'))).toBe(true);
  });

  it('rejects a namespace with a separator at its edge', () => {
    expect(() => namespaceSkillIds.params.parse({ namespace: 'acme.' })).toThrow();
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(namespaceSkillIds, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
    expect(result.relabel.steps).toEqual([]);
  });
});
