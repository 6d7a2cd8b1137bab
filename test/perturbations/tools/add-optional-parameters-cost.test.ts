// Issue 23 item 4: the work of tools/add-optional-parameters grows linearly with the harness. Work is
// counted, not timed: every substring search (`String.prototype.includes`) made while the operator runs.
// Before, each tool scanned every text of the harness for each pool name (tools × texts); a registry of
// 4× the tools (and so 4× the descriptions) cost 16× the searches.
import { afterEach, describe, expect, it } from 'vitest';
import { addOptionalParameters } from '../../../perturbations/tools/add-optional-parameters.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { travelHarnessInput } from '../../support/travel-harness.js';

const original = String.prototype.includes;
afterEach(() => {
  String.prototype.includes = original;
});

/** The travel harness with `count` tools, each with a description (one harness text per tool). */
function harnessWithTools(count: number) {
  const input = travelHarnessInput();
  input.tools.items = Array.from({ length: count }, (_, index) => ({
    name: `lookup_record_${index}`,
    description: `Looks up record number ${index} of the archive.`,
    parameters: { type: 'object', properties: { key: { type: 'string' } } },
  }));
  input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
  return parseHarness(input);
}

/** Substring searches made by one application of the operator (the harness is built before counting). */
async function searchesFor(count: number): Promise<number> {
  const harness = harnessWithTools(count);
  let searches = 0;
  String.prototype.includes = function (this: string, ...args: Parameters<string['includes']>) {
    searches++;
    return original.apply(this, args);
  };
  try {
    const applied = await applyOperator(addOptionalParameters, harness, { rng: 'cost', severity: 1 });
    expect('skip' in applied).toBe(false);
  } finally {
    String.prototype.includes = original;
  }
  return searches;
}

describe('tools/add-optional-parameters: cost linear in the harness', () => {
  it('4× the tools and texts cost at most about 4× the substring searches (tools × texts would be 16×)', async () => {
    const small = await searchesFor(50);
    const large = await searchesFor(200);
    expect(small).toBeGreaterThan(0);
    expect(large / small).toBeLessThan(5);
  });
});
