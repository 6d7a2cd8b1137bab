import { describe, expect, it } from 'vitest';
import { reorderTools } from '../../../perturbations/tools/reorder.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';
import { flightCase } from './flight-case.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const names = (result: AppliedOperator) => result.harness.tools.items.map((tool) => tool.name);

describe('tools/reorder', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(reorderTools, { cases: [...(await lawCases()), flightCase()] });
  });

  it('shuffles the registry with an identity relabel (golden)', async () => {
    const result = applied(await applyOperator(reorderTools, harness, { rng: 'golden', severity: 1 }));
    expect(names(result)).toEqual(['hold_seat', 'get_baggage_policy', 'find_flights']);
    expect(result.relabel.steps).toEqual([]);
    expect(result.harness.tools.items[2]).toBe(harness.tools.items[0]);
  });

  it('always changes the order, at any severity above 0', async () => {
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      for (const severity of [0.05, 0.5, 1]) {
        const result = applied(await applyOperator(reorderTools, harness, { rng: seed, severity }));
        expect(names(result)).not.toEqual(names({ harness } as AppliedOperator));
        expect([...names(result)].sort()).toEqual(['find_flights', 'get_baggage_policy', 'hold_seat']);
      }
    }
    expect(applied(await applyOperator(reorderTools, harness, { rng: 'z', severity: 0 })).harness).toBe(
      harness,
    );
  });

  it('skips a registry of fewer than two tools', async () => {
    const input = travelHarnessInput();
    input.tools.items = input.tools.items.slice(2);
    expect(await applyOperator(reorderTools, parseHarness(input), { rng: 'x' })).toEqual({
      skip: 'the registry has fewer than two tools to reorder',
    });
  });
});
