import { describe, expect, it } from 'vitest';
import { listStyle } from '../../../perturbations/skill-content/list-style.js';
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
const baggage = async (style: string) =>
  applied(await applyOperator(listStyle, harness, { rng: 'golden', params: { style } })).harness.skills
    .items[1]?.body;
const withBody = (body: string) => {
  const input = travelHarnessInput();
  input.skills.items = [{ ...input.skills.items[0]!, body }];
  return parseHarness(input);
};

describe('skill-content/list-style', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(listStyle, {
      cases: await lawCases(),
      params: [{}, { style: 'bullets' }, { style: 'numbered' }, { style: 'prose' }, { style: 'table' }],
    });
  });

  it('writes rules as a numbered list, prose or a table (golden)', async () => {
    expect(await baggage('numbered')).toBe(
      '1. Use `get_baggage_policy` with the fare class.\n2. State weights in kilograms.',
    );
    expect(await baggage('prose')).toBe(
      'Use `get_baggage_policy` with the fare class. State weights in kilograms.',
    );
    expect(await baggage('table')).toBe(
      '| # | rule |\n|---|---|\n| 1 | Use `get_baggage_policy` with the fare class. |\n| 2 | State weights in kilograms. |',
    );
  });

  it('picks a style other than the body’s own when none is given (golden)', async () => {
    const result = applied(await applyOperator(listStyle, harness, { rng: 'golden', severity: 1 }));
    expect(result.harness.skills.items.map((skill) => skill.body)).toEqual([
      // A bullet list that names tools in turn is a procedure: it goes to an ordered style only.
      '1. Call `find_flights` before offering a flight.\n2. Quote fares exactly as `find_flights` returns them.\n3. Never promise a seat before `hold_seat` succeeds.',
      '| # | rule |\n|---|---|\n| 1 | Use `get_baggage_policy` with the fare class. |\n| 2 | State weights in kilograms. |',
      'Apologise once, then move to the fix. Pair it with rebooking.',
    ]);
  });

  it('keeps numbered procedures ordered, keeps other lines, and ends Chinese sentences with 。', async () => {
    const body = '# 规则\n1. 不要承诺到货日期\n2. 先查库存\n\n结尾。\n';
    for (const style of ['bullets', 'prose']) {
      expect(await applyOperator(listStyle, withBody(body), { rng: 'x', params: { style } })).toEqual({
        skip: `no skill body has a rule list that can become ${style}`,
      });
    }
    const independent = `# 规则\n<!-- hsa: independent -->\n${body.slice(5)}`;
    const bullets = applied(
      await applyOperator(listStyle, withBody(independent), { rng: 'x', params: { style: 'bullets' } }),
    );
    expect(bullets.harness.skills.items[0]?.body).toBe(
      '# 规则\n<!-- hsa: independent -->\n- 不要承诺到货日期\n- 先查库存\n\n结尾。\n',
    );
    const prose = applied(
      await applyOperator(listStyle, withBody(independent), { rng: 'x', params: { style: 'prose' } }),
    );
    expect(prose.harness.skills.items[0]?.body).toBe(
      '# 规则\n<!-- hsa: independent -->\n不要承诺到货日期。先查库存。\n\n结尾。\n',
    );
    const table = applied(
      await applyOperator(listStyle, withBody(body), { rng: 'x', params: { style: 'table' } }),
    );
    expect(table.harness.skills.items[0]?.body).toBe(
      '# 规则\n| # | 规则 |\n|---|---|\n| 1 | 不要承诺到货日期 |\n| 2 | 先查库存 |\n\n结尾。\n',
    );
  });

  it('escapes pipes in table cells and leaves lists with nested items as lists', async () => {
    const piped = applied(
      await applyOperator(listStyle, withBody('- a | b\n- c'), { rng: 'x', params: { style: 'table' } }),
    );
    expect(piped.harness.skills.items[0]?.body).toBe('| # | rule |\n|---|---|\n| 1 | a \\| b |\n| 2 | c |');
    expect(
      await applyOperator(listStyle, withBody('- a\n  - nested\n- c'), {
        rng: 'x',
        params: { style: 'prose' },
      }),
    ).toEqual({
      skip: 'no skill body has a rule list that can become prose',
    });
  });

  it('skips when every list is in the style asked already', async () => {
    expect(await applyOperator(listStyle, harness, { rng: 'x', params: { style: 'bullets' } })).toEqual({
      skip: 'no skill body has a rule list that can become bullets',
    });
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(listStyle, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
  });
});
