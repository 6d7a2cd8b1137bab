import { describe, expect, it } from 'vitest';
import { reorderRules } from '../../../perturbations/skill-content/reorder-rules.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/testing/operator-laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const withBody = (body: string) => {
  const input = travelHarnessInput();
  input.skills.items = [{ ...input.skills.items[0]!, body }];
  return parseHarness(input);
};

describe('skill-content/reorder-rules', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(reorderRules, { cases: await lawCases() });
  });

  it('shuffles the rules of a share of the bodies (golden)', async () => {
    const result = applied(await applyOperator(reorderRules, harness, { rng: 'golden', severity: 1 }));
    expect(result.harness.skills.items.map((skill) => skill.body)).toEqual([
      '- Call `find_flights` before offering a flight.\n- Never promise a seat before `hold_seat` succeeds.\n- Quote fares exactly as `find_flights` returns them.',
      '- State weights in kilograms.\n- Use `get_baggage_policy` with the fare class.',
      'Apologise once, then move to the fix. Pair it with rebooking.',
    ]);
    expect(result.relabel.steps).toEqual([]);
  });

  it('keeps order-sensitive rules in place and renumbers numbered lists', async () => {
    const body = [
      '# Steps',
      '1. First resolve the product.',
      '2. Quote the price.',
      '3. Name the coupon.',
      '4. Mention stock.',
      '5. Finally thank the viewer.',
      '6. Keep it short (order-sensitive)',
      '',
    ].join('\n');
    for (const seed of ['a', 'b', 'c', 'd']) {
      const result = applied(await applyOperator(reorderRules, withBody(body), { rng: seed }));
      const lines = result.harness.skills.items[0]!.body.split('\n');
      expect(lines[0]).toBe('# Steps');
      expect(lines[1]).toBe('1. First resolve the product.');
      expect(lines[5]).toBe('5. Finally thank the viewer.');
      expect(lines[6]).toBe('6. Keep it short (order-sensitive)');
      expect(lines.slice(2, 5).map((line) => line.slice(0, 3))).toEqual(['2. ', '3. ', '4. ']);
      expect(
        lines
          .slice(2, 5)
          .map((line) => line.slice(3))
          .sort(),
      ).toEqual(['Mention stock.', 'Name the coupon.', 'Quote the price.']);
      expect(lines.slice(2, 5).map((line) => line.slice(3))).not.toEqual([
        'Quote the price.',
        'Name the coupon.',
        'Mention stock.',
      ]);
      expect(lines[7]).toBe('');
    }
  });

  it('skips when no body has two independent rules', async () => {
    expect(
      await applyOperator(reorderRules, withBody('- First do this.\n- Then that.\n\nProse.'), { rng: 'x' }),
    ).toEqual({
      skip: 'no skill body has two independent rules to reorder',
    });
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(reorderRules, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
  });
});
