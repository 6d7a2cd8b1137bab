// What a demo run decides, in plain words. The headline difference (fixed gap − HSA gap on the dimensions
// that change names) is decided when its 95% interval excludes 0. When it does not, the data is too small
// for the effect it shows, and the rule that an interval's width shrinks as 1/√n (n: the held-out
// trajectories, the bootstrap's units) says about how many would decide an effect of that size: the
// interval's reach from the estimate towards 0, w at n units, is w·√(n/n′) at n′ units, which is below the
// estimate d once n′ > n·(w/d)². The estimate is itself uncertain, so the number is a guide, not a promise.
import type { BootstrapEstimate } from '../bench/bootstrap.js';
import type { PairedReport } from './paired.js';

/** The size of the data behind a run: what the rule scales. */
export interface DemoDataSize {
  /** Gold trajectories read. */
  trajectories: number;
  /** Trajectories held out for the bench (each a bootstrap unit). */
  heldOut: number;
  /** Bench items made from them. */
  items: number;
  /** Seeds pooled (each drew its own held-out trajectories from the same data); the sizes above are per seed. */
  seeds?: number;
}

export interface DemoVerdict {
  /** The 95% interval of fixed gap − HSA gap excludes 0. */
  decided: boolean;
  /** Which learner the decided difference favours (the one that loses less under the changed harness). */
  favours: 'hsa' | 'fixed' | null;
  /** fixed gap − HSA gap on the dimensions that change names. */
  difference: BootstrapEstimate;
  /** HSA − fixed on the original harness. */
  original: BootstrapEstimate;
  /** HSA is not worse on the original harness: that interval reaches 0 or above. */
  originalNotWorse: boolean;
  /** Units of the paired comparison (held-out trajectories with a row of the group). */
  units: number;
  /** Undecided with a non-zero estimate: the held-out units, trajectories and items that would likely decide it. */
  needed: { units: number; trajectories: number; items: number } | null;
  /** The verdict as sentences. */
  text: string[];
}

const points = (value: number) => (100 * value).toFixed(1);
const signed = (value: number) => `${value > 0 ? '+' : ''}${points(value)}`;
const interval = (estimate: BootstrapEstimate) =>
  `${signed(estimate.mean ?? 0)} [${points(estimate.low ?? 0)}, ${points(estimate.high ?? 0)}]`;

/**
 * The verdict of one run (or of seeds pooled) on the headline group.
 *
 * @example
 * demoVerdict(summary.paired.names, { trajectories: 300, heldOut: 80, items: 120 }).text.join(' ')
 */
export function demoVerdict(paired: PairedReport | undefined, size: DemoDataSize): DemoVerdict {
  const none: BootstrapEstimate = { mean: null, low: null, high: null };
  const difference = paired?.gapDifference ?? none;
  const original = paired?.originalDifference ?? none;
  const units = paired?.units ?? 0;
  const originalNotWorse = original.high !== null && original.high >= 0;
  const originalText = `On the original harness HSA − fixed is ${original.mean === null ? '-' : interval(original)} points: ${originalNotWorse ? 'HSA is not worse there' : 'HSA is worse there, the price of augmentation on this data'}.`;
  // Every verdict carries the same measurements; only what it decides and says differs.
  const verdict = (
    decided: boolean,
    favours: DemoVerdict['favours'],
    text: string[],
    needed: DemoVerdict['needed'] = null,
  ): DemoVerdict => ({ decided, favours, difference, original, originalNotWorse, units, needed, text });
  if (difference.mean === null || difference.low === null || difference.high === null)
    return verdict(false, null, [
      'Nothing to decide: no bench row changes a name (no variant row of the skill-ids or tools dimensions could be made from these items).',
    ]);
  const mean = difference.mean;
  const decided = difference.low > 0 || difference.high < 0;
  const favours = decided ? (mean > 0 ? 'hsa' : 'fixed') : null;
  const seeds = size.seeds ?? 1;
  const where =
    seeds > 1
      ? `over ${units} held-out trajectories of ${seeds} seeds (${size.items} bench items per seed)`
      : `over ${units} held-out trajectories (${size.items} bench items)`;
  if (decided)
    return verdict(decided, favours, [
      `Decided: fixed gap − HSA gap is ${interval(difference)} points ${where}; the interval excludes 0, so ${favours === 'hsa' ? 'the fixed learner loses more than HSA when the harness changes names' : 'HSA loses more than the fixed learner when the harness changes names'}.`,
      originalText,
    ]);
  if (mean === 0)
    return verdict(decided, favours, [
      difference.low === difference.high
        ? // Every resample gives 0: no held-out trajectory separates the learners at all.
          `Too small to decide: fixed gap − HSA gap is 0.0 on every resample ${where}: no held-out trajectory separates the learners, so the rule that an interval's width shrinks as 1/√n gives no size. Check that the learners pass original rows at all (below), then give more trajectories (and --steps).`
        : `No difference measured: fixed gap − HSA gap is ${interval(difference)} points ${where}. More data narrows the interval around an estimate of 0 (its width shrinks as 1/√n) but cannot decide a difference that does not show.`,
      originalText,
    ]);
  // The interval's reach from the estimate towards 0.
  const reach = mean > 0 ? mean - difference.low : difference.high - mean;
  const factor = (reach / Math.abs(mean)) ** 2;
  const neededUnits = Math.ceil(units * factor);
  // The same split with more data: trajectories and items grow with the units.
  const needed = {
    units: neededUnits,
    trajectories: Math.ceil((size.trajectories * neededUnits) / units),
    items: Math.ceil((size.items * neededUnits) / units),
  };
  return verdict(
    decided,
    favours,
    [
      `Too small to decide: fixed gap − HSA gap is ${interval(difference)} points ${where}; the interval reaches ${points(reach)} points from the estimate towards 0, more than the ${points(Math.abs(mean))}-point effect itself, so it contains 0.`,
      `An interval's width shrinks as 1/√n in the number n of held-out trajectories: if the effect stays near ${points(Math.abs(mean))} points, about ${units} × (${points(reach)} / ${points(Math.abs(mean))})² ≈ ${neededUnits} held-out trajectories would exclude 0, that is${seeds > 1 ? `, with ${seeds} seeds,` : ''} about ${needed.trajectories} trajectories in all at this split (${Math.max(0, needed.trajectories - size.trajectories)} more than the ${size.trajectories} given) and --bench-items about ${needed.items}.`,
      originalText,
    ],
    needed,
  );
}
