// `attribution: one-dimension`: each variant perturbs one dimension, and the report says when the
// per-dimension gaps are attributable (and when they are confounded).
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { compileDimensionPlans, compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { generateBench } from '../../src/bench/generate.js';
import { readBenchItems } from '../../src/bench/items.js';
import { renderMarkdownReport } from '../../src/bench/report.js';
import type { BenchItem, BenchRow } from '../../src/bench/schema.js';
import { expectationsAsPredictions, scoreBench } from '../../src/bench/score.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';

describe('bench attribution', async () => {
  const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
  const registry = createRegistry([...builtinOperators]);
  const policy = parsePolicy(presets.hat);
  const dimensionPlans = compileDimensionPlans(policy, registry);
  const items: BenchItem[] = [];
  for await (const record of readBenchItems('fixtures/livestream/bench/items.jsonl'))
    if ('item' in record && items.length < 6) items.push(record.item);
  const generate = async (attribution: 'mixed' | 'one-dimension') => {
    const rows: BenchRow[] = [];
    for await (const row of generateBench(harness, items, {
      plan: compilePolicy(policy, registry),
      attribution,
      dimensionPlans,
      variants: 5,
      seed: 9,
    }))
      rows.push(row);
    return rows;
  };

  it('one-dimension: variant v changes only the ((v - 1) mod n)-th dimension of the policy', async () => {
    const rows = await generate('one-dimension');
    const variants = rows.filter((row) => row.variantIndex > 0);
    expect(variants.length).toBeGreaterThan(20);
    for (const row of variants) {
      const expected = dimensionPlans[(row.variantIndex - 1) % dimensionPlans.length]?.dimension;
      expect((row.provenance.changed as string[]).length, row.id).toBeLessThanOrEqual(1);
      expect(
        (row.provenance.changed as string[]).every((dimension) => dimension === expected),
        row.id,
      ).toBe(true);
    }
    const scores = scoreBench(rows, expectationsAsPredictions(rows), { seed: 1, resamples: 50 });
    expect(scores.attribution.attributable).toBe(true);
    expect(renderMarkdownReport(scores)).toContain('each per-dimension gap is attributable to its dimension');
  });

  it('mixed: the report says the per-dimension gaps are confounded, and how to fix it', async () => {
    const rows = await generate('mixed');
    const scores = scoreBench(rows, expectationsAsPredictions(rows), { seed: 1, resamples: 50 });
    expect(scores.attribution.severalDimensions).toBeGreaterThan(0);
    const report = renderMarkdownReport(scores);
    expect(report).toContain('Per-dimension gaps are confounded');
    expect(report).toContain('--attribution one-dimension');
  });
});
