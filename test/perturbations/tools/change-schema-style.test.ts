import { describe, expect, it } from 'vitest';
import { changeSchemaStyle } from '../../../perturbations/tools/change-schema-style.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { validateAgainstSchema } from '../../../src/harness/json-schema-validator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';
import { flightCase } from './flight-case.js';

const harness = travelHarness();
const applied = (output: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in output) throw new Error(`skipped: ${output.skip}`);
  return output;
};
const styles = ['titles', 'one-of-const', 'mixed'] as const;

describe('tools/change-schema-style', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(changeSchemaStyle, {
      cases: [...(await lawCases()), flightCase()],
      params: styles.map((style) => ({ style })),
    });
  });

  it('writes enums as oneOf of consts and adds titles (golden)', async () => {
    const oneOf = applied(
      await applyOperator(changeSchemaStyle, harness, { rng: 'golden', params: { style: 'one-of-const' } }),
    );
    expect(oneOf.harness.tools.items[2]?.parameters.properties).toEqual({
      fare_class: { type: 'string', oneOf: [{ const: 'basic' }, { const: 'standard' }, { const: 'flex' }] },
    });
    const titles = applied(
      await applyOperator(changeSchemaStyle, harness, { rng: 'golden', params: { style: 'titles' } }),
    );
    expect(titles.harness.tools.items[0]?.parameters.properties).toMatchObject({
      origin: { title: 'Origin' },
      filters: { title: 'Filters', properties: { max_stops: { title: 'Max Stops' } } },
    });
    expect(titles.relabel.steps).toEqual([]);
  });

  it('accepts and rejects the same arguments as before', async () => {
    const output = applied(
      await applyOperator(changeSchemaStyle, harness, { rng: 'v', params: { style: 'one-of-const' } }),
    );
    const samples = [{ fare_class: 'flex' }, { fare_class: 'first' }, { fare_class: 3 }, {}];
    for (const sample of samples) {
      const before = validateAgainstSchema(harness.tools.items[2]!.parameters, sample).length === 0;
      const after = validateAgainstSchema(output.harness.tools.items[2]!.parameters, sample).length === 0;
      expect(after).toBe(before);
    }
    expect(applied(await applyOperator(changeSchemaStyle, harness, { rng: 'z', severity: 0 })).harness).toBe(
      harness,
    );
  });

  it('skips when no schema has what the style changes', async () => {
    const input = travelHarnessInput();
    input.tools.items = input.tools.items.slice(1, 2);
    expect(
      await applyOperator(changeSchemaStyle, parseHarness(input), {
        rng: 'x',
        params: { style: 'one-of-const' },
      }),
    ).toEqual({
      skip: 'no tool schema can take the "one-of-const" style',
    });
  });
});
