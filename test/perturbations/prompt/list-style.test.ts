import { describe, expect, it } from 'vitest';
import { listStyle } from '../../../perturbations/prompt/list-style.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../../src/harness/render-prompt.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelContext, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

/** The travel harness with its skill section written over `{{skillList}}`. */
function withSkillList() {
  const input = travelHarnessInput();
  input.prompt.sections[1] = { ...input.prompt.sections[1]!, template: '{{skillList}}\nLoad one first.' };
  return parseHarness(input);
}

describe('prompt/list-style', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(listStyle, { cases: await lawCases(), params: [{}, { style: 'json' }] });
  });

  it('changes how the skill list renders at a fixed seed', async () => {
    const applied = await applyOperator(listStyle, withSkillList(), { rng: 'golden', severity: 1 });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.prompt.listStyle).toBe('table');
    expect(renderSystemPrompt(applied.harness, travelContext)).toContain(
      '## Skills\n| name | kind | description |\n|---|---|---|\n| rebooking | reply | Rebook a passenger onto another flight |',
    );
    expect(applied.harness.prompt.sections).toEqual(withSkillList().prompt.sections);
  });

  it('renders YAML when asked', async () => {
    const applied = await applyOperator(listStyle, withSkillList(), { params: { style: 'yaml' } });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(renderSystemPrompt(applied.harness, travelContext)).toContain(
      '## Skills\n- name: rebooking\n  kind: reply\n  description: Rebook a passenger onto another flight\n',
    );
  });

  it('draws no table where a description holds several lines, which a table row would squash', async () => {
    const input = travelHarnessInput();
    input.prompt.sections[1] = { ...input.prompt.sections[1]!, template: '{{skillList}}\nLoad one first.' };
    input.tools.items[0] = {
      ...input.tools.items[0]!,
      description: 'Finds flights.\n\nUsage:\n- pass IATA codes\n- one date',
    };
    const manual = parseHarness(input);
    expect(await applyOperator(listStyle, manual, { params: { style: 'table' } })).toEqual({
      skip: 'a table would squash a description of several lines onto one',
    });
    for (const rng of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const applied = await applyOperator(listStyle, manual, { rng, severity: 1 });
      expect('skip' in applied ? undefined : applied.harness.prompt.listStyle).not.toBe('table');
    }
  });

  it('never numbers the lists under numbered headings', async () => {
    const input = travelHarnessInput();
    input.prompt.sections[1] = { ...input.prompt.sections[1]!, template: '{{skillList}}\nLoad one first.' };
    input.prompt.headingStyle = 'numbered';
    const numbered = parseHarness(input);
    expect(await applyOperator(listStyle, numbered, { params: { style: 'numbered' } })).toEqual({
      skip: 'a numbered list would run into the numbered headings',
    });
    for (const rng of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const applied = await applyOperator(listStyle, numbered, { rng, severity: 1 });
      expect('skip' in applied ? undefined : applied.harness.prompt.listStyle).not.toBe('numbered');
    }
  });

  it('skips when no template uses skillList or toolList', async () => {
    const applied = await applyOperator(listStyle, travelHarness(), { rng: 'x', severity: 1 });
    expect(applied).toEqual({ skip: 'no prompt section uses {{skillList}} or {{toolList}}' });
  });

  it('skips when the requested style is already in use', async () => {
    const applied = await applyOperator(listStyle, withSkillList(), { params: { style: 'bullets' } });
    expect(applied).toEqual({ skip: 'the list style is already "bullets"' });
  });
});
