import { describe, expect, it } from 'vitest';
import { mergeSections } from '../../../perturbations/prompt/merge-sections.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../../src/harness/render-prompt.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelContext, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

describe('prompt/merge-sections', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(mergeSections, {
      cases: await lawCases(),
      params: [{}, { joiner: 'slash' }],
    });
  });

  it('merges two adjacent unpinned sections at a fixed seed', async () => {
    const applied = await applyOperator(mergeSections, travelHarness(), { rng: 'golden', severity: 1 });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.prompt.sections.map(({ id, title }) => [id, title])).toEqual([
      ['role', 'Role'],
      ['skills', 'Skills'],
      ['tools', 'Tools & Passenger'],
    ]);
    expect(applied.harness.prompt.sections[2]?.template).toBe(
      '{{#each tools}}- {{name}}: {{description}}\n{{/each}}\n\nPassenger: {{context.passenger.name}} on {{context.passenger.flight}}',
    );
    // The merged prompt holds the same text, one heading fewer (blank lines aside).
    const blankLines = (text: string) => text.replace(/\n{3,}/g, '\n\n');
    const before = renderSystemPrompt(travelHarness(), travelContext);
    const after = renderSystemPrompt(applied.harness, travelContext);
    expect(blankLines(after)).toBe(
      before.replace('## Tools', '## Tools & Passenger').replace('\n\n## Passenger\n', '\n\n'),
    );
  });

  it('joins Chinese titles the Chinese way', async () => {
    const input = travelHarnessInput();
    input.prompt.sections[2] = { ...input.prompt.sections[2]!, title: '工具' };
    input.prompt.sections[3] = { ...input.prompt.sections[3]!, title: '乘客' };
    input.prompt.sections[1] = { ...input.prompt.sections[1]!, pinned: true };
    const applied = await applyOperator(mergeSections, parseHarness(input), { params: { joiner: 'and' } });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.prompt.sections.map((section) => section.title)).toEqual([
      'Role',
      'Skills',
      '工具与乘客',
    ]);
  });

  it('skips when no two adjacent sections are unpinned', async () => {
    const input = travelHarnessInput();
    input.prompt.sections = input.prompt.sections.map((section, index) => ({
      ...section,
      pinned: index % 2 === 0,
    }));
    const applied = await applyOperator(mergeSections, parseHarness(input), { rng: 'x', severity: 1 });
    expect(applied).toEqual({
      skip: 'no two adjacent unpinned prompt sections can merge without one reading as part of the other',
    });
  });

  it('never merges a section that opens with a list, or a value that renders one, onto the section before', async () => {
    // As on τ-bench retail: a policy of bullet rules, then the skill catalogue.
    const input = travelHarnessInput();
    input.prompt.sections = [
      { id: 'check', title: 'Checklist', template: 'Before you answer, check:' },
      { id: 'fare', title: 'Fare', template: 'The fare and the bag allowance.' },
      { id: 'skills', title: 'Skills', template: '{{skillList}}\n\nLoad a skill before you use it.' },
      { id: 'rules', title: 'Rules', template: '{{#if context.passenger}}\n- Be brief.\n{{/if}}' },
    ];
    const applied = await applyOperator(mergeSections, parseHarness(input), { rng: 'x', severity: 1 });
    expect(applied).toEqual({
      skip: 'no two adjacent unpinned prompt sections can merge without one reading as part of the other',
    });
    input.prompt.sections.push({ id: 'last', title: 'Last', template: 'Thank the passenger.' });
    const merged = await applyOperator(mergeSections, parseHarness(input), { rng: 'x', severity: 1 });
    if ('skip' in merged) throw new Error(merged.skip);
    expect(merged.harness.prompt.sections.map((section) => section.id)).toEqual([
      'check',
      'fare',
      'skills',
      'rules',
    ]);
    expect(merged.harness.prompt.sections.at(-1)?.title).toBe('Rules & Last');
  });
});
