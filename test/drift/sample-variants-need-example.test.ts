// What a drift sample says needs an example: the operators that decide from it, not the other choices of a
// step left to the example (those are tried alone on the base).
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { sampleVariants } from '../../src/drift/coverage.js';
import { fixtureExamples } from '../support/fixture-examples.js';

describe('a drift sample without examples', () => {
  it('names the operators that decide from the example, and not the choices that do not', async () => {
    const { harness } = await fixtureExamples('livestream', 0);
    const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));
    const sample = await sampleVariants(harness, { plan, severity: 0.5, seed: 'need', size: 16 });
    // Before, every choice of a deferred hooks step was listed, `hooks/reword-feedback` among them.
    expect(sample.needExample).toEqual(
      expect.arrayContaining(['hooks/vary-budgets', 'hooks/disable-untriggered', 'hooks/reorder']),
    );
    expect(sample.needExample).not.toContain('hooks/reword-feedback');
    expect(
      sample.needExample.every(
        (id) => id.startsWith('hooks/') || id === 'skill-content/merge' || id === 'tools/drop-unused',
      ),
    ).toBe(true);
  }, 120_000);
});
