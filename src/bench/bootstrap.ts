// Percentile bootstrap over benchmark items. Items (not rows) are resampled with replacement, because the
// rows of one item (its original and its variants) are not independent. Seeded: the same seed and tallies
// give the same intervals on every machine.
import { createRandom } from '../augment/random.js';

/** A mean with its 95% percentile-bootstrap interval; null where no row contributes. */
export interface BootstrapEstimate {
  mean: number | null;
  low: number | null;
  high: number | null;
}

/** One item's passes per criterion (same order for every item) among its original and its variant rows. */
export interface ItemTally {
  originalPass: number[];
  originalCount: number;
  variantPass: number[];
  variantCount: number;
}

export interface BootstrapOptions {
  seed: string;
  resamples: number;
  /** Two-sided confidence level (default 0.95). */
  confidence?: number;
}

/**
 * The `q`-quantile of sorted values (linear interpolation between order statistics).
 *
 * @example
 * quantile([0, 1, 2, 3], 0.5) // 1.5
 */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below] as number;
  const high = sorted[above] as number;
  return low + (high - low) * (position - below);
}

function ratio(pass: number, count: number): number {
  return count === 0 ? Number.NaN : pass / count;
}

function estimate(point: number, samples: number[], confidence: number): BootstrapEstimate {
  if (Number.isNaN(point)) return { mean: null, low: null, high: null };
  const finite = samples.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return { mean: point, low: quantile(finite, tail), high: quantile(finite, 1 - tail) };
}

/**
 * For each criterion: the original mean, the variants mean and their gap (original − variants), each with a
 * bootstrap interval from resampling the items with replacement. Means are over rows (pooled).
 *
 * @example
 * bootstrapGroup(tallies, 5, { seed: '0/bootstrap/overall', resamples: 1000 })[4].gap
 */
export function bootstrapGroup(
  items: readonly ItemTally[],
  criteriaCount: number,
  options: BootstrapOptions,
): Array<{ original: BootstrapEstimate; variants: BootstrapEstimate; gap: BootstrapEstimate }> {
  const confidence = options.confidence ?? 0.95;
  const count = items.length;
  const totals = (weights: (index: number) => number) => {
    const originalPass = new Float64Array(criteriaCount);
    const variantPass = new Float64Array(criteriaCount);
    let originalCount = 0;
    let variantCount = 0;
    for (let index = 0; index < count; index++) {
      const weight = weights(index);
      if (weight === 0) continue;
      const item = items[index] as ItemTally;
      originalCount += weight * item.originalCount;
      variantCount += weight * item.variantCount;
      for (let criterion = 0; criterion < criteriaCount; criterion++) {
        originalPass[criterion] =
          (originalPass[criterion] as number) + weight * (item.originalPass[criterion] ?? 0);
        variantPass[criterion] =
          (variantPass[criterion] as number) + weight * (item.variantPass[criterion] ?? 0);
      }
    }
    return Array.from({ length: criteriaCount }, (_, criterion) => {
      const original = ratio(originalPass[criterion] as number, originalCount);
      const variants = ratio(variantPass[criterion] as number, variantCount);
      return { original, variants, gap: original - variants };
    });
  };

  const point = totals(() => 1);
  const samples = Array.from({ length: criteriaCount }, () => ({
    original: [] as number[],
    variants: [] as number[],
    gap: [] as number[],
  }));
  if (count > 0) {
    const rng = createRandom(options.seed);
    const weights = new Uint32Array(count);
    for (let resample = 0; resample < options.resamples; resample++) {
      weights.fill(0);
      for (let draw = 0; draw < count; draw++) {
        const index = rng.int(0, count - 1);
        weights[index] = (weights[index] as number) + 1;
      }
      totals((index) => weights[index] as number).forEach((means, criterion) => {
        const sample = samples[criterion] as (typeof samples)[number];
        sample.original.push(means.original);
        sample.variants.push(means.variants);
        sample.gap.push(means.gap);
      });
    }
  }
  return point.map((means, criterion) => {
    const sample = samples[criterion] as (typeof samples)[number];
    return {
      original: estimate(means.original, sample.original, confidence),
      variants: estimate(means.variants, sample.variants, confidence),
      gap: estimate(means.gap, sample.gap, confidence),
    };
  });
}
