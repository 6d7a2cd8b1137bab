// tools/reword-descriptions never swaps a noun for one that names something else in the harness. On
// tau-bench's retail tools (public material, test/demo/fixtures/tau-bench-retail) `product_id` and `item_id`
// are different things: "the product" must not become "the item" there, while verbs still reword.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../../perturbations/index.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { loadHarnessFile } from '../../../src/harness/parse-harness.js';
import type { Harness } from '../../../src/harness/schema.js';

const reword = builtinOperators.find((operator) => operator.id === 'tools/reword-descriptions');
const descriptions = (harness: Harness): string[] => {
  const texts: string[] = [];
  JSON.stringify(harness.tools, (key, value) => {
    if (key === 'description' && typeof value === 'string') texts.push(value);
    return value;
  });
  return texts;
};
const items = (text: string) => (text.match(/\bitems?\b/giu) ?? []).length;

describe('tools/reword-descriptions and the harness terms', () => {
  it('keeps "product" where the harness has item ids of its own, and still rewords', async () => {
    if (!reword) throw new Error('tools/reword-descriptions is not a built-in');
    const harness = await loadHarnessFile('test/demo/fixtures/tau-bench-retail/harness.yaml');
    const before = descriptions(harness);
    let reworded = 0;
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 8 }), async (seed) => {
        const applied = await applyOperator(reword, harness, { rng: seed, severity: 1 });
        if ('skip' in applied) throw new Error(applied.skip);
        const after = descriptions(applied.harness);
        after.forEach((text, index) => {
          expect(items(text), text).toBe(items(before[index] as string));
          if (text !== before[index]) reworded++;
        });
      }),
      { numRuns: 25 },
    );
    expect(reworded).toBeGreaterThan(0);
  });
});
