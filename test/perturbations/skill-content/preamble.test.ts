import { describe, expect, it } from 'vitest';
import { addPreamble } from '../../../perturbations/skill-content/preamble.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};

describe('skill-content/preamble', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(addPreamble, { cases: await lawCases() });
  });

  it('adds a preamble sentence at the top of a share of the bodies (golden)', async () => {
    const result = applied(await applyOperator(addPreamble, harness, { rng: 'golden', severity: 1 }));
    expect(result.harness.skills.items.map((skill) => skill.body.split('\n\n')[0])).toEqual([
      'The rules below apply whenever this skill is loaded.',
      'What follows is the guidance of this skill.',
      'The instructions of this skill follow.',
    ]);
    result.harness.skills.items.forEach((skill, index) => {
      expect(skill.body.endsWith(harness.skills.items[index]?.body as string)).toBe(true);
    });
  });

  it('puts the sentence under a leading heading, in Chinese for a Chinese body', async () => {
    const input = travelHarnessInput();
    input.skills.items = [
      { ...input.skills.items[0]!, body: '# 发货\n- 不要承诺到货日期。\n- 先查库存。\n' },
      { ...input.skills.items[1]!, body: '# Stock\n\n- Check stock first.\n' },
    ];
    const result = applied(await applyOperator(addPreamble, parseHarness(input), { rng: 'zh', severity: 1 }));
    const [chinese, english] = result.harness.skills.items.map((skill) => skill.body.split('\n'));
    expect(chinese?.[0]).toBe('# 发货');
    expect(chinese?.[1]).toMatch(/^[^A-Za-z]+。$/);
    expect(chinese?.slice(2)).toEqual(['', '- 不要承诺到货日期。', '- 先查库存。', '']);
    expect(english?.[0]).toBe('# Stock');
    expect(english?.[1]).toMatch(/^[A-Z][a-z ]+\.$/);
    expect(english?.slice(2)).toEqual(['', '- Check stock first.', '']);
  });

  it('skips when every body has a preamble already', async () => {
    const once = applied(await applyOperator(addPreamble, harness, { rng: 'a', severity: 1 }));
    expect(await applyOperator(addPreamble, once.harness, { rng: 'b', severity: 1 })).toEqual({
      skip: 'every skill body already has a preamble',
    });
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(addPreamble, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
  });
});
