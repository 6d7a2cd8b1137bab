// The demo's headline: the paired difference between two learners answering the same bench rows. Each unit is
// one held-out trajectory of one seed (its items' rows together); a resample draws units with replacement
// within each seed (stratified), and the
// same draw is used for every learner, so the interval is the difference's own (not two intervals compared).
// Means are over rows (pooled), as in `bootstrapGroup`. The memoriser's gap is the bench's ceiling: what a
// learner that always writes the base names would lose.
import { createRandom } from '../augment/random.js';
import { type BootstrapEstimate, quantile } from '../bench/bootstrap.js';
import type { RowResult } from '../bench/score.js';

/** One learner's `names` passes on one item: its original row and the item's rows in a group. */
export interface LearnerTally {
  originalPass: number;
  originalCount: number;
  variantPass: number;
  variantCount: number;
  /** Variant rows that fail where the item's original passes. */
  flips: number;
  /** Variant rows whose item's original passes (the flip rate's denominator). */
  flipBase: number;
}

/** One held-out trajectory of one seed (the items made from it), tallied for every learner. */
export interface PairedUnit {
  /** The seed: units are resampled within it. */
  stratum: string;
  /** The held-out trajectory (or the item, when it names no trajectory). */
  item: string;
  learners: Record<string, LearnerTally>;
}

/** The paired comparison of `a` (fixed) and `b` (hsa) on a group of rows, with the ceiling learner's gap. */
export interface PairedReport {
  units: number;
  strata: number;
  /** Variant rows in the group, per seed summed. */
  rows: number;
  gap: { a: BootstrapEstimate; b: BootstrapEstimate; ceiling: BootstrapEstimate };
  /** a's gap − b's gap: how much more a loses under the changed harness. */
  gapDifference: BootstrapEstimate;
  /** b's variant score − a's. */
  variantDifference: BootstrapEstimate;
  /** b's original score − a's (the price, if any, of augmentation on the original harness). */
  originalDifference: BootstrapEstimate;
  /** Share of variant rows failing where the original passes. */
  flipRate: { a: BootstrapEstimate; b: BootstrapEstimate };
  /** a's flip rate − b's. */
  flipDifference: BootstrapEstimate;
  /** Each gap as a share of the ceiling learner's gap. */
  ceilingShare: { a: BootstrapEstimate; b: BootstrapEstimate };
}

/**
 * Tallies of one learner's row results on one item for the rows `select` keeps.
 *
 * @example
 * tallyItem(rowsOfItem, (result) => result.changed.includes('tools'), passesNames)
 */
export function tallyItem(
  results: readonly RowResult[],
  select: (result: RowResult) => boolean,
  passes: (result: RowResult) => boolean,
): LearnerTally {
  const originals = results.filter((result) => result.variantIndex === 0);
  const variants = results.filter((result) => result.variantIndex > 0 && select(result));
  const originalPass = originals.filter(passes).length;
  const variantPass = variants.filter(passes).length;
  const originalPasses = originals.length > 0 && originalPass === originals.length;
  return {
    originalPass,
    originalCount: originals.length,
    variantPass,
    variantCount: variants.length,
    flips: originalPasses ? variants.length - variantPass : 0,
    flipBase: originalPasses ? variants.length : 0,
  };
}

/** Weighted sums of tallies. */
type Totals = LearnerTally;

/** A tally of nothing. */
export const emptyTally = (): LearnerTally => ({
  originalPass: 0,
  originalCount: 0,
  variantPass: 0,
  variantCount: 0,
  flips: 0,
  flipBase: 0,
});

/** `total` plus `weight` times `tally`, field by field. */
export function addTally(total: LearnerTally, tally: LearnerTally, weight = 1): LearnerTally {
  return {
    originalPass: total.originalPass + weight * tally.originalPass,
    originalCount: total.originalCount + weight * tally.originalCount,
    variantPass: total.variantPass + weight * tally.variantPass,
    variantCount: total.variantCount + weight * tally.variantCount,
    flips: total.flips + weight * tally.flips,
    flipBase: total.flipBase + weight * tally.flipBase,
  };
}

const ratio = (pass: number, count: number) => (count === 0 ? Number.NaN : pass / count);

interface Statistics {
  gapA: number;
  gapB: number;
  gapCeiling: number;
  gapDifference: number;
  variantDifference: number;
  originalDifference: number;
  flipA: number;
  flipB: number;
  flipDifference: number;
  shareA: number;
  shareB: number;
}

function statistics(totals: Record<'a' | 'b' | 'ceiling', Totals>): Statistics {
  const original = (t: Totals) => ratio(t.originalPass, t.originalCount);
  const variants = (t: Totals) => ratio(t.variantPass, t.variantCount);
  const gap = (t: Totals) => original(t) - variants(t);
  const flip = (t: Totals) => ratio(t.flips, t.flipBase);
  const { a, b, ceiling } = totals;
  const share = (value: number) => {
    const top = gap(ceiling);
    return top > 0 ? value / top : Number.NaN;
  };
  return {
    gapA: gap(a),
    gapB: gap(b),
    gapCeiling: gap(ceiling),
    gapDifference: gap(a) - gap(b),
    variantDifference: variants(b) - variants(a),
    originalDifference: original(b) - original(a),
    flipA: flip(a),
    flipB: flip(b),
    flipDifference: flip(a) - flip(b),
    shareA: share(gap(a)),
    shareB: share(gap(b)),
  };
}

function estimate(point: number, samples: number[]): BootstrapEstimate {
  if (Number.isNaN(point)) return { mean: null, low: null, high: null };
  const finite = samples.filter((value) => !Number.isNaN(value)).sort((x, y) => x - y);
  return { mean: point, low: quantile(finite, 0.025), high: quantile(finite, 0.975) };
}

/**
 * The paired comparison of learners `a` and `b` over units (items × seeds), with `ceiling`'s gap as the
 * bench's ceiling; 95% percentile intervals from `resamples` stratified resamples of the units.
 *
 * @example
 * pairedComparison(units, { a: 'fixed', b: 'hsa', ceiling: 'memoriser', seed: '42/paired/names', resamples: 2000 })
 */
export function pairedComparison(
  units: readonly PairedUnit[],
  options: { a: string; b: string; ceiling: string; seed: string; resamples: number },
): PairedReport {
  const kept = units.filter((unit) => (unit.learners[options.a]?.variantCount ?? 0) > 0);
  const strata = [...new Set(kept.map((unit) => unit.stratum))].sort();
  const byStratum = strata.map((stratum) => kept.filter((unit) => unit.stratum === stratum));
  const totalsOf = (weights: readonly number[]) => {
    const totals: Record<'a' | 'b' | 'ceiling', Totals> = {
      a: emptyTally(),
      b: emptyTally(),
      ceiling: emptyTally(),
    };
    kept.forEach((unit, index) => {
      const weight = weights[index] as number;
      if (weight === 0) return;
      for (const role of ['a', 'b', 'ceiling'] as const) {
        const tally = unit.learners[options[role]];
        if (tally) totals[role] = addTally(totals[role], tally, weight);
      }
    });
    return totals;
  };
  const point = statistics(totalsOf(kept.map(() => 1)));
  const offsets = new Map(kept.map((unit, index) => [unit, index]));
  const random = createRandom(options.seed);
  const samples: Statistics[] = [];
  for (let resample = 0; resample < options.resamples; resample++) {
    const weights = new Array<number>(kept.length).fill(0);
    for (const group of byStratum)
      for (let draw = 0; draw < group.length; draw++) {
        const unit = group[random.int(0, group.length - 1)] as PairedUnit;
        const index = offsets.get(unit) as number;
        weights[index] = (weights[index] as number) + 1;
      }
    samples.push(statistics(totalsOf(weights)));
  }
  const of = (key: keyof Statistics) =>
    estimate(
      point[key],
      samples.map((sample) => sample[key]),
    );
  return {
    units: kept.length,
    strata: strata.length,
    rows: kept.reduce((total, unit) => total + (unit.learners[options.a]?.variantCount ?? 0), 0),
    gap: { a: of('gapA'), b: of('gapB'), ceiling: of('gapCeiling') },
    gapDifference: of('gapDifference'),
    variantDifference: of('variantDifference'),
    originalDifference: of('originalDifference'),
    flipRate: { a: of('flipA'), b: of('flipB') },
    flipDifference: of('flipDifference'),
    ceilingShare: { a: of('shareA'), b: of('shareB') },
  };
}
