// The verdict of a demo run: decided when the interval excludes 0; otherwise "too small to decide", with the
// number of held-out trajectories that the 1/√n rule says would decide an effect of the size measured.
import { describe, expect, it } from 'vitest';
import type { BootstrapEstimate } from '../../src/bench/bootstrap.js';
import type { PairedReport } from '../../src/demo/paired.js';
import { demoVerdict } from '../../src/demo/verdict.js';

const estimate = (mean: number, low: number, high: number): BootstrapEstimate => ({ mean, low, high });

function report(difference: BootstrapEstimate, original: BootstrapEstimate, units: number): PairedReport {
  const zero = estimate(0, 0, 0);
  return {
    units,
    strata: 1,
    rows: units * 4,
    gap: { a: zero, b: zero, ceiling: zero },
    gapDifference: difference,
    variantDifference: zero,
    originalDifference: original,
    flipRate: { a: zero, b: zero },
    flipDifference: zero,
    ceilingShare: { a: zero, b: zero },
  };
}

const size = { trajectories: 100, heldOut: 25, items: 40 };

describe('demoVerdict', () => {
  it('decides when the interval excludes 0, and says whether HSA is worse on the original harness', () => {
    const verdict = demoVerdict(report(estimate(0.05, 0.02, 0.08), estimate(-0.01, -0.04, 0.02), 25), size);
    expect(verdict.decided).toBe(true);
    expect(verdict.favours).toBe('hsa');
    expect(verdict.originalNotWorse).toBe(true);
    expect(verdict.needed).toBeNull();
    expect(verdict.text[0]).toMatch(/^Decided: fixed gap − HSA gap is \+5\.0 \[2\.0, 8\.0\]/);
    const worse = demoVerdict(report(estimate(0.05, 0.02, 0.08), estimate(-0.05, -0.09, -0.01), 25), size);
    expect(worse.originalNotWorse).toBe(false);
    expect(worse.text[1]).toMatch(/HSA is worse there/);
    expect(demoVerdict(report(estimate(-0.05, -0.08, -0.02), estimate(0, 0, 0), 25), size).favours).toBe(
      'fixed',
    );
  });

  it('says the data is too small and how many trajectories would decide it, by the 1/√n rule', () => {
    // The interval reaches 6 points below a 2-point estimate over 25 units: 25 × (6 / 2)² = 225 units.
    const verdict = demoVerdict(report(estimate(0.02, -0.04, 0.07), estimate(0, -0.02, 0.02), 25), size);
    expect(verdict.decided).toBe(false);
    expect(verdict.needed).toEqual({ units: 225, trajectories: 900, items: 360 });
    expect(verdict.text[0]).toMatch(/^Too small to decide: fixed gap − HSA gap is \+2\.0 \[-4\.0, 7\.0\]/);
    expect(verdict.text[1]).toContain('25 × (6.0 / 2.0)² ≈ 225 held-out trajectories');
    expect(verdict.text[1]).toContain(
      'about 900 trajectories in all at this split (800 more than the 100 given)',
    );
    // A negative estimate uses the interval's reach above it.
    const negative = demoVerdict(report(estimate(-0.02, -0.05, 0.04), estimate(0, 0, 0), 25), size);
    expect(negative.needed?.units).toBe(25 * 9);
  });

  it('gives no size for an estimate of 0, and says so plainly when no trajectory separates the learners', () => {
    const flat = demoVerdict(report(estimate(0, 0, 0), estimate(0, 0, 0), 4), size);
    expect(flat.decided).toBe(false);
    expect(flat.needed).toBeNull();
    expect(flat.text[0]).toMatch(/^Too small to decide: .*no held-out trajectory separates the learners/);
    const zero = demoVerdict(report(estimate(0, -0.01, 0.01), estimate(0, 0, 0), 80), size);
    expect(zero.text[0]).toMatch(/^No difference measured/);
    expect(demoVerdict(undefined, size).text[0]).toMatch(/^Nothing to decide/);
  });
});
