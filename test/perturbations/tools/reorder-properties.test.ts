import { describe, expect, it } from 'vitest';
import { reorderProperties } from '../../../perturbations/tools/reorder-properties.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { forwardTrajectory } from '../../../src/trajectory/relabel.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';
import { flightCase, rebookingTrajectory } from './flight-case.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
type Schema = { properties: Record<string, Schema>; required?: string[] };
/** Keys sorted, `required` lists sorted: what JSON Schema validation sees. */
const normalised = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(normalised);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, child]) => [
        key,
        key === 'required' && Array.isArray(child) ? [...child].sort() : normalised(child),
      ]),
  );
};

describe('tools/reorder-properties', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(reorderProperties, { cases: [...(await lawCases()), flightCase()] });
  });

  it('reorders properties and required lists, nested ones too (golden)', async () => {
    const result = applied(await applyOperator(reorderProperties, harness, { rng: 'golden', severity: 1 }));
    const [findFlights, holdSeat] = result.harness.tools.items.map(
      (tool) => tool.parameters as unknown as Schema,
    );
    expect(Object.keys(findFlights!.properties)).toEqual(['date', 'destination', 'filters', 'origin']);
    expect(findFlights!.required).toEqual(['destination', 'origin', 'date']);
    expect(Object.keys(findFlights!.properties.filters!.properties)).toEqual(['cabin', 'max_stops']);
    expect(Object.keys(holdSeat!.properties)).toEqual(['passengers', 'flight']);
    // The same schemas apart from order.
    expect(result.harness.tools.items.map((tool) => normalised(tool.parameters))).toEqual(
      harness.tools.items.map((tool) => normalised(tool.parameters)),
    );
  });

  it('leaves argument JSON as written (identity relabel)', async () => {
    const trajectory = rebookingTrajectory();
    const result = applied(
      await applyOperator(reorderProperties, harness, { rng: 'args', severity: 1, trajectory }),
    );
    expect(result.relabel.steps).toEqual([]);
    const moved = forwardTrajectory(trajectory, result.relabel, result.harness);
    expect(moved.issues).toEqual([]);
    expect(moved.trajectory.messages.slice(1)).toEqual(trajectory.messages.slice(1));
  });

  it('reorders a share of the tools equal to the severity; identity at 0', async () => {
    const changed = async (severity: number) => {
      const result = applied(await applyOperator(reorderProperties, harness, { rng: 'share', severity }));
      return result.harness.tools.items.filter(
        (tool, index) => JSON.stringify(tool) !== JSON.stringify(harness.tools.items[index]),
      ).length;
    };
    expect(await changed(0.1)).toBe(1);
    expect(await changed(1)).toBe(2);
    const zero = applied(await applyOperator(reorderProperties, harness, { rng: 'zero', severity: 0 }));
    expect(zero.harness).toBe(harness);
  });

  it('skips when no schema has two properties or required names', async () => {
    const input = travelHarnessInput();
    input.tools.items = input.tools.items.slice(2);
    expect(await applyOperator(reorderProperties, parseHarness(input), { rng: 'x' })).toEqual({
      skip: 'no tool has two properties or required names to reorder',
    });
  });
});
