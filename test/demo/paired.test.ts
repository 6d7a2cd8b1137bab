// The paired comparison behind the demo's headline: its point estimates are the pooled row means, the
// difference's interval comes from one resample for both learners, strata are resampled apart, and swapping
// the learners negates the difference.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RowResult } from '../../src/bench/score.js';
import { type LearnerTally, type PairedUnit, pairedComparison, tallyItem } from '../../src/demo/paired.js';

const tally = (originalPass: number, variantPass: number, variantCount: number): LearnerTally => ({
  originalPass,
  originalCount: 1,
  variantPass,
  variantCount,
  flips: originalPass === 1 ? variantCount - variantPass : 0,
  flipBase: originalPass === 1 ? variantCount : 0,
});

const unit = (stratum: string, item: string, fixed: LearnerTally, hsa: LearnerTally): PairedUnit => ({
  stratum,
  item,
  learners: { fixed, hsa, memoriser: tally(1, 0, fixed.variantCount) },
});

const options = { a: 'fixed', b: 'hsa', ceiling: 'memoriser', seed: 'test', resamples: 400 };

describe('pairedComparison', () => {
  it('gives the pooled means, flip rates and shares of the ceiling', () => {
    const units = [
      unit('1', 'a', tally(1, 0, 2), tally(1, 2, 2)),
      unit('1', 'b', tally(1, 1, 2), tally(1, 1, 2)),
      unit('2', 'c', tally(0, 0, 2), tally(1, 2, 2)),
    ];
    const report = pairedComparison(units, options);
    // fixed: original 2/3, variants 1/6, gap 1/2; hsa: original 1, variants 5/6, gap 1/6.
    expect(report.gap.a.mean).toBeCloseTo(2 / 3 - 1 / 6);
    expect(report.gap.b.mean).toBeCloseTo(1 - 5 / 6);
    expect(report.gapDifference.mean).toBeCloseTo(1 / 2 - 1 / 6);
    expect(report.variantDifference.mean).toBeCloseTo(5 / 6 - 1 / 6);
    expect(report.originalDifference.mean).toBeCloseTo(1 - 2 / 3);
    // fixed flips: 3 of the 4 variant rows whose original passes; hsa: 1 of 6.
    expect(report.flipRate.a.mean).toBeCloseTo(3 / 4);
    expect(report.flipRate.b.mean).toBeCloseTo(1 / 6);
    // The memoriser: original 1, variants 0, gap 1.
    expect(report.gap.ceiling.mean).toBe(1);
    expect(report.ceilingShare.a.mean).toBeCloseTo(1 / 2);
    expect(report.units).toBe(3);
    expect(report.strata).toBe(2);
    expect(report.rows).toBe(6);
  });

  it('the interval of identical learners is a point at zero; swapping them negates the difference', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 1 }),
            fc.integer({ min: 1, max: 3 }),
            fc.integer({ min: 0, max: 3 }),
          ),
          { minLength: 1, maxLength: 12 },
        ),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 12, maxLength: 12 }),
        (specs, others) => {
          const units = specs.map(([original, count, pass], index) => {
            const fixed = tally(original, Math.min(pass, count), count);
            const hsa = tally(others[index] as number, count - Math.min(pass, count), count);
            return unit(String(index % 3), `i${index}`, fixed, hsa);
          });
          const same = pairedComparison(
            units.map((u) => ({ ...u, learners: { ...u.learners, hsa: u.learners.fixed as LearnerTally } })),
            options,
          );
          expect(same.gapDifference).toEqual({ mean: 0, low: 0, high: 0 });
          const forward = pairedComparison(units, options);
          const backward = pairedComparison(units, { ...options, a: 'hsa', b: 'fixed' });
          expect(backward.gapDifference.mean).toBeCloseTo(-(forward.gapDifference.mean as number));
          expect(backward.gapDifference.low).toBeCloseTo(-(forward.gapDifference.high as number));
          expect(pairedComparison(units, options)).toEqual(forward);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('resamples within each seed: a seed whose items all agree keeps its weight', () => {
    // Stratum 1: fixed loses every variant, hsa none; stratum 2: both lose nothing. Stratified resampling
    // keeps each stratum's size, so the difference never leaves the value it has with equal weights.
    const units = [
      ...['a', 'b', 'c'].map((item) => unit('1', item, tally(1, 0, 2), tally(1, 2, 2))),
      ...['d', 'e', 'f'].map((item) => unit('2', item, tally(1, 2, 2), tally(1, 2, 2))),
    ];
    const report = pairedComparison(units, options);
    expect(report.gapDifference).toEqual({ mean: 0.5, low: 0.5, high: 0.5 });
  });
});

describe('tallyItem', () => {
  const result = (variantIndex: number, pass: boolean, changed: string[] = []): RowResult => ({
    id: `x/${variantIndex}`,
    itemId: 'x',
    variantIndex,
    split: 'train',
    changed,
    ops: [],
    missing: false,
    scores: {
      toolSelection: pass,
      argumentAccuracy: pass,
      skillSelection: pass,
      replyCompliance: false,
      overall: false,
    },
  });
  const names = (row: RowResult) => row.scores.toolSelection && row.scores.skillSelection;

  it('counts flips only where the original passes, and only the selected variants', () => {
    const rows = [
      result(0, true),
      result(1, false, ['tools']),
      result(2, true, ['tools']),
      result(3, false, ['prompt']),
    ];
    expect(tallyItem(rows, (row) => row.changed.includes('tools'), names)).toEqual({
      originalPass: 1,
      originalCount: 1,
      variantPass: 1,
      variantCount: 2,
      flips: 1,
      flipBase: 2,
    });
    const failing = [result(0, false), result(1, false, ['tools'])];
    expect(tallyItem(failing, () => true, names)).toMatchObject({ flips: 0, flipBase: 0 });
  });
});
