import { describe, expect, it } from 'vitest';
import { reorderSkills } from '../../../perturbations/skill-ids/reorder.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../../src/harness/render-prompt.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelContext, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};

describe('skill-ids/reorder', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(reorderSkills, { cases: await lawCases() });
  });

  it('shuffles the registry and so the prompt listing, with the identity relabel (golden)', async () => {
    const result = applied(await applyOperator(reorderSkills, harness, { rng: 'golden', severity: 1 }));
    expect(result.harness.skills.items.map((skill) => skill.id)).toEqual([
      'baggage',
      'apology_first',
      'rebooking',
    ]);
    expect(result.relabel.steps).toEqual([]);
    expect(renderSystemPrompt(result.harness, travelContext)).toContain('- baggage (reply)');
    expect(renderSystemPrompt(result.harness, travelContext).indexOf('- baggage')).toBeLessThan(
      renderSystemPrompt(result.harness, travelContext).indexOf('- rebooking'),
    );
  });

  it('always changes the order when it applies', async () => {
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const result = applied(await applyOperator(reorderSkills, harness, { rng: seed, severity: 0.1 }));
      expect(result.harness.skills.items.map((skill) => skill.id)).not.toEqual([
        'rebooking',
        'baggage',
        'apology_first',
      ]);
      expect(result.harness.skills.items.map((skill) => skill.id).sort()).toEqual([
        'apology_first',
        'baggage',
        'rebooking',
      ]);
    }
  });

  it('skips a harness with fewer than two skills', async () => {
    const input = travelHarnessInput();
    input.skills.items = input.skills.items.slice(0, 1);
    expect(await applyOperator(reorderSkills, parseHarness(input), { rng: 'x' })).toEqual({
      skip: 'fewer than two skills to reorder',
    });
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(reorderSkills, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
  });
});
