import { describe, expect, it } from 'vitest';
import { retitle } from '../../../perturbations/prompt/retitle.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

describe('prompt/retitle', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(retitle, { cases: await lawCases() });
  });

  it('retitles every section from the synonym table at a fixed seed', async () => {
    const applied = await applyOperator(retitle, travelHarness(), { rng: 'golden', severity: 1 });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.prompt.sections.map((section) => section.title)).toEqual([
      'Who you are',
      'Skill list',
      'Tool guide',
      'Traveller',
    ]);
    // Ids, order and templates stay.
    expect(applied.harness.prompt.sections.map(({ id, template }) => ({ id, template }))).toEqual(
      travelHarness().prompt.sections.map(({ id, template }) => ({ id, template })),
    );
  });

  it('retitles a share of the sections at lower severity', async () => {
    const applied = await applyOperator(retitle, travelHarness(), { rng: 'golden', severity: 0.3 });
    if ('skip' in applied) throw new Error(applied.skip);
    const changed = applied.harness.prompt.sections.filter(
      (section, index) => section.title !== travelHarness().prompt.sections[index]?.title,
    );
    expect(changed).toHaveLength(1);
  });

  it('gives Chinese titles Chinese alternatives, or leaves them', async () => {
    const input = travelHarnessInput();
    input.prompt.sections[1] = { ...input.prompt.sections[1]!, title: '技能' };
    input.prompt.sections[2] = { ...input.prompt.sections[2]!, title: '航班须知一览' };
    for (let seed = 0; seed < 10; seed++) {
      const applied = await applyOperator(retitle, parseHarness(input), { rng: `s${seed}`, severity: 1 });
      if ('skip' in applied) throw new Error(applied.skip);
      expect(['可用技能', '技能列表']).toContain(applied.harness.prompt.sections[1]?.title);
      expect(applied.harness.prompt.sections[2]?.title).toBe('航班须知一览');
    }
  });

  it('only wraps a title that names an identifier', async () => {
    const input = travelHarnessInput();
    input.prompt.sections[2] = { ...input.prompt.sections[2]!, title: 'Using find_flights' };
    const applied = await applyOperator(retitle, parseHarness(input), { rng: 'x', severity: 1 });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.prompt.sections[2]?.title).toBe('Section: Using find_flights');
  });

  it('skips when no title has an alternative', async () => {
    const input = travelHarnessInput();
    input.prompt.sections = [{ id: 'only', title: '航班', template: 'Hi.' }];
    const applied = await applyOperator(retitle, parseHarness(input), { rng: 'x', severity: 1 });
    expect(applied).toEqual({ skip: 'no section title has an alternative' });
  });
});
