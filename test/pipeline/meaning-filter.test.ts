// The meaning filter: asks only about texts changed beyond names, each (base, variant) pair once across
// rows (and not at all when an earlier run's verdicts know it), and refuses a row with one issue per
// refused part.
import { describe, expect, it } from 'vitest';
import { nestArguments } from '../../perturbations/tools/nest-arguments.js';
import { applyOperator } from '../../src/augment/operator.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { createMeaningFilter, type MeaningVerdictLine } from '../../src/pipeline/meaning-filter.js';
import type { MeaningJudgeV1, MeaningPair } from '../../src/pipeline/meaning-judge-spec.js';
import { travelHarness, travelHarnessInput } from '../support/travel-harness.js';

function countingJudge(refuse: (pair: MeaningPair) => boolean) {
  const asked: MeaningPair[][] = [];
  const judge: MeaningJudgeV1 = {
    specificationVersion: 'v1',
    id: 'test-judge',
    async judgeParts(pairs) {
      asked.push([...pairs]);
      return pairs.map((pair) =>
        refuse(pair) ? { same: false, reason: 'drops a rule' } : { same: true, reason: 'ok' },
      );
    },
  };
  return { judge, asked };
}

function withBody(harness: Harness, id: string, edit: (body: string) => string): Harness {
  return {
    ...harness,
    skills: {
      ...harness.skills,
      items: harness.skills.items.map((skill) =>
        skill.id === id ? { ...skill, body: edit(skill.body) } : skill,
      ),
    },
  };
}

describe('createMeaningFilter', () => {
  const base = travelHarness();

  it('asks nothing about a variant that only renames', async () => {
    const { judge, asked } = countingJudge(() => false);
    const filter = createMeaningFilter({ judge });
    const renamed = renameSymbols(base, {
      skills: { baggage: 'bag_rules' },
      tools: { find_flights: 'flight_search' },
    });
    expect(await filter.check(base, renamed)).toEqual({ keep: true });
    expect(asked).toEqual([]);
    expect(filter.stats).toEqual({ pairs: 0, asked: 0, cached: 0, refusedRows: 0 });
  });

  it('asks each pair once across rows, in base names, and refuses with the part and the reason', async () => {
    const { judge, asked } = countingJudge((pair) => pair.variant.includes('Drop'));
    const filter = createMeaningFilter({ judge });
    const renamed = renameSymbols(base, {
      skills: { baggage: 'bag_rules' },
      tools: { get_baggage_policy: 'bag_policy' },
    });
    const reworded = withBody(renamed.harness, 'bag_rules', (body) =>
      body.replace('State weights', 'Give weights'),
    );
    // The same rewording under other names: the same pair in base names.
    const other = renameSymbols(base, { skills: { baggage: 'luggage' } });
    const rewordedToo = withBody(other.harness, 'luggage', (body) =>
      body.replace('State weights', 'Give weights'),
    );
    expect(await filter.check(base, { harness: reworded, relabel: renamed.relabel })).toEqual({ keep: true });
    expect(await filter.check(base, { harness: rewordedToo, relabel: other.relabel })).toEqual({
      keep: true,
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toEqual([
      expect.objectContaining({
        kind: 'skill_body',
        label: 'skill baggage body',
        variant: expect.stringContaining('`get_baggage_policy`'),
      }),
    ]);
    expect(filter.stats).toMatchObject({ pairs: 2, asked: 1, cached: 1 });
    const learned = filter.takeNewVerdicts();
    expect(learned).toEqual([
      {
        judge: 'test-judge',
        base: expect.stringMatching(/^sha256:/),
        variant: expect.stringMatching(/^sha256:/),
        same: true,
        reason: 'ok',
      },
    ]);
    expect(filter.takeNewVerdicts()).toEqual([]);

    const dropped = withBody(base, 'rebooking', (body) => `${body}\n- Drop the fare rule.`);
    const check = await filter.check(base, { harness: dropped, relabel: { steps: [] } });
    expect(check).toEqual({
      keep: false,
      issues: [
        {
          code: 'meaning_changed',
          path: ['skills', 'items', 0, 'body'],
          message:
            'skill rebooking body: the judge says the variant does not require what the base requires: drops a rule',
        },
      ],
    });
    expect(filter.stats.refusedRows).toBe(1);
  });

  it('asks nothing that the verdicts of an earlier run know, and ignores those of another judge', async () => {
    const dropped = withBody(base, 'rebooking', (body) => `${body}\n- Drop the fare rule.`);
    const first = countingJudge(() => true);
    const firstFilter = createMeaningFilter({ judge: first.judge });
    await firstFilter.check(base, { harness: dropped, relabel: { steps: [] } });
    const known: MeaningVerdictLine[] = firstFilter.takeNewVerdicts();
    const again = countingJudge(() => false);
    const resumed = createMeaningFilter({ judge: again.judge, known });
    expect((await resumed.check(base, { harness: dropped, relabel: { steps: [] } })).keep).toBe(false);
    expect(again.asked).toEqual([]);
    const other = createMeaningFilter({ judge: { ...again.judge, id: 'another' }, known });
    expect((await other.check(base, { harness: dropped, relabel: { steps: [] } })).keep).toBe(true);
    expect(again.asked).toHaveLength(1);
  });

  it('caches nothing from a failed call, so that the pair is asked again', async () => {
    let calls = 0;
    const judge: MeaningJudgeV1 = {
      specificationVersion: 'v1',
      id: 'flaky',
      async judgeParts(pairs) {
        calls++;
        if (calls === 1) throw new Error('connection reset');
        return pairs.map(() => ({ same: true, reason: 'ok' }));
      },
    };
    const filter = createMeaningFilter({ judge });
    const changed = withBody(base, 'rebooking', (body) => `${body}\n- Be kind.`);
    await expect(filter.check(base, { harness: changed, relabel: { steps: [] } })).rejects.toThrow(
      'connection reset',
    );
    expect(await filter.check(base, { harness: changed, relabel: { steps: [] } })).toEqual({ keep: true });
    expect(calls).toBe(2);
  });

  // A user audit on BFCL: a garbled parameter description ("The budget limit to set in USD" → "The budget
  // narrow to set in USD") was never asked about: changedParts paired no parameter description.
  it('asks about a parameter description changed beyond names, below a nest wrapper, and refuses at its path', async () => {
    const input = travelHarnessInput();
    input.tools.items.push({
      name: 'set_budget_limit',
      description: 'Set the budget limit for the user.',
      parameters: {
        type: 'object',
        properties: { budget_limit: { type: 'number', description: 'The budget limit to set in USD' } },
        required: ['budget_limit'],
      },
    });
    const budgetBase = parseHarness(input);
    const nested = await applyOperator(nestArguments, budgetBase, { rng: 'n', severity: 1 });
    if ('skip' in nested) throw new Error(nested.skip);
    const index = nested.harness.tools.items.findIndex((tool) => tool.name === 'set_budget_limit');
    const garbled = structuredClone(nested.harness);
    const wrapper = nested.relabel.steps.find(
      (step) => step.type === 'nest_arguments' && step.tool === 'set_budget_limit',
    ) as { under: string };
    const parameters = garbled.tools.items[index]?.parameters as {
      properties: Record<string, { properties: { budget_limit: { description: string } } }>;
    };
    (
      parameters.properties[wrapper.under] as (typeof parameters.properties)[string]
    ).properties.budget_limit.description = 'The budget narrow to set in USD';
    const { judge, asked } = countingJudge((pair) => pair.variant.includes('narrow'));
    const filter = createMeaningFilter({ judge });
    // Nesting alone changes no text: nothing to ask.
    expect(await filter.check(budgetBase, nested)).toEqual({ keep: true });
    expect(asked).toEqual([]);
    const check = await filter.check(budgetBase, { harness: garbled, relabel: nested.relabel });
    expect(asked).toEqual([
      [
        {
          kind: 'parameter_description',
          label: 'tool set_budget_limit parameter budget_limit description',
          base: 'The budget limit to set in USD',
          variant: 'The budget narrow to set in USD',
        },
      ],
    ]);
    expect(check).toEqual({
      keep: false,
      issues: [
        {
          code: 'meaning_changed',
          path: [
            'tools',
            'items',
            index,
            'parameters',
            'properties',
            wrapper.under,
            'properties',
            'budget_limit',
            'description',
          ],
          message: `tool set_budget_limit parameter ${wrapper.under}.budget_limit description (base: tool set_budget_limit parameter budget_limit description): the judge says the variant does not require what the base requires: drops a rule`,
        },
      ],
    });
  });
});
