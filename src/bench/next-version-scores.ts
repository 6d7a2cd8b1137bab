// The real gap beside the synthetic one. The rows of a next-version bench set (an item under v, then under the
// real v+1) are scored like any bench rows; on the items it shares with a synthetic bench of v, three gaps
// are compared, each with a bootstrap interval over the same items: v → v+1 (the real edit), v → the
// synthetic variants, and v → the synthetic variants that changed a dimension the real edit changed. A user
// reads whether the synthetic gap predicts the real one.
import { HarnessAugmentError } from '../harness/issues.js';
import type { BootstrapEstimate, ItemTally } from './bootstrap.js';
import { type BenchRow, criteria, type Prediction } from './schema.js';
import {
  type GroupScores,
  groupScores as group,
  type RowResult,
  type ScoresDocument,
  scoreRow,
} from './score.js';

/** One side of the real edit, as the next-version rows record it. */
export interface NextVersionSide {
  label: string;
  hash: string;
}

/** The `nextVersion` section of a scores document. */
export interface NextVersionScores {
  from: NextVersionSide;
  to: NextVersionSide;
  /** The edit's changes, `<dimension>/<kind>`. */
  changes: string[];
  /** The dimensions the edit changed. */
  dimensions: string[];
  counts: { rows: number; items: number; compared: number; predictions: number; missing: number };
  /** Next-version row ids without a prediction (they fail every criterion). */
  missing: string[];
  /** Items of the next-version set that the synthetic bench does not hold: scored, not compared. */
  notInSynthetic: string[];
  /** v (variant 0 of the next-version set) vs the real v+1, over the compared items. */
  real: GroupScores;
  /** v vs the synthetic variants, over the same items. */
  synthetic: GroupScores;
  /** v vs the synthetic variants that changed one of the edit's dimensions, over the same items. */
  sameDimensions: GroupScores;
  /** Whether the synthetic gap (overall) lies inside the real gap's interval, and by how much they differ. */
  verdict: { syntheticInsideReal: boolean | null; difference: number | null };
  rows: RowResult[];
}

/** A scores document with the real next version beside the synthetic variants (`hsa bench score --next-version`). */
export type ScoresWithNextVersion = ScoresDocument & { nextVersion?: NextVersionScores };

interface NextRecord {
  from: NextVersionSide;
  to: NextVersionSide;
  changes: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The edit a next-version row was made for, or undefined for a row of another kind. */
export function nextVersionOf(row: Pick<BenchRow, 'provenance'>): NextRecord | undefined {
  const record = row.provenance.nextVersion;
  if (!isObject(record) || !isObject(record.from) || !isObject(record.to)) return undefined;
  const side = (value: Record<string, unknown>) => ({ label: String(value.label), hash: String(value.hash) });
  return {
    from: side(record.from),
    to: side(record.to),
    changes: Array.isArray(record.changes) ? record.changes.map(String) : [],
  };
}

function resultOf(row: BenchRow, prediction: Prediction | undefined): RowResult {
  const changed = row.provenance.changed;
  return {
    id: row.id,
    itemId: row.itemId,
    variantIndex: row.variantIndex,
    split: row.split,
    changed: Array.isArray(changed) ? changed.map(String) : [],
    ops: [],
    missing: prediction === undefined,
    scores: scoreRow(row, prediction),
  };
}

function tally(originals: readonly RowResult[], variants: readonly RowResult[]): ItemTally {
  const sum = (list: readonly RowResult[]) =>
    criteria.map((criterion) => list.filter((result) => result.scores[criterion]).length);
  return {
    originalPass: sum(originals),
    originalCount: originals.length,
    variantPass: sum(variants),
    variantCount: variants.length,
  };
}

function inside(value: BootstrapEstimate, interval: BootstrapEstimate): boolean | null {
  if (value.mean === null || interval.low === null || interval.high === null) return null;
  return value.mean >= interval.low && value.mean <= interval.high;
}

/**
 * Scores a next-version bench set and compares its real gap with the synthetic gap of `synthetic` (the
 * scores of `hsa bench generate`'s rows for the same items under v). Throws when the rows are not one
 * next-version set (rows of several edits, or no row under v+1).
 *
 * @example
 * const scores = scoreBench(rows, predictions, { seed: '0' });
 * scores.nextVersion = scoreNextVersion(scores, nextRows, nextPredictions, { seed: '0' });
 */
export function scoreNextVersion(
  synthetic: Pick<ScoresDocument, 'rows'>,
  rows: readonly BenchRow[],
  predictions: readonly Prediction[] | ReadonlyMap<string, Prediction>,
  options: { seed: string | number; resamples?: number },
): NextVersionScores {
  const seed = String(options.seed);
  const resamples = options.resamples ?? 1000;
  const byId =
    predictions instanceof Map ? predictions : new Map((predictions as Prediction[]).map((p) => [p.id, p]));
  const edits = new Map<string, NextRecord>();
  for (const row of rows) {
    const record = nextVersionOf(row);
    if (record) edits.set(`${record.from.hash}→${record.to.hash}`, record);
  }
  const [edit, ...others] = [...edits.values()];
  if (!edit)
    throw new HarnessAugmentError('no row under a real next version: not a next-version bench set', {
      kind: 'usage',
    });
  if (others.length > 0)
    throw new HarnessAugmentError(
      `the rows hold ${edits.size} next-version sets (${[...edits.values()].map((entry) => `${entry.from.label} → ${entry.to.label}`).join(', ')}); score one at a time`,
      { kind: 'usage' },
    );
  const results = rows.map((row) => resultOf(row, byId.get(row.id)));
  const dimensions = [
    ...new Set(results.filter((result) => result.variantIndex > 0).flatMap((result) => result.changed)),
  ].sort();

  const syntheticByItem = new Map<string, RowResult[]>();
  for (const result of synthetic.rows) {
    const list = syntheticByItem.get(result.itemId) ?? [];
    list.push(result);
    syntheticByItem.set(result.itemId, list);
  }
  const itemIds = [...new Set(results.map((result) => result.itemId))];
  const compared = itemIds.filter((itemId) =>
    (syntheticByItem.get(itemId) ?? []).some((result) => result.variantIndex === 0),
  );
  const real: ItemTally[] = [];
  const allVariants: ItemTally[] = [];
  const sameDimensions: ItemTally[] = [];
  for (const itemId of compared) {
    const own = results.filter((result) => result.itemId === itemId);
    real.push(
      tally(
        own.filter((result) => result.variantIndex === 0),
        own.filter((result) => result.variantIndex > 0),
      ),
    );
    const theirs = syntheticByItem.get(itemId) ?? [];
    const originals = theirs.filter((result) => result.variantIndex === 0);
    const variants = theirs.filter((result) => result.variantIndex > 0);
    allVariants.push(tally(originals, variants));
    const alike = variants.filter((result) =>
      result.changed.some((dimension) => dimensions.includes(dimension)),
    );
    // As in the per-dimension groups of `scoreBench`: an item counts where it has rows of the group.
    if (alike.length > 0) sameDimensions.push(tally(originals, alike));
  }
  const base = `${seed}/bootstrap/next-version`;
  const realScores = group(real, `${base}/real`, resamples);
  const syntheticScores = group(allVariants, `${base}/synthetic`, resamples);
  const realGap = realScores.criteria.overall.gap;
  const syntheticGap = syntheticScores.criteria.overall.gap;
  const missing = results.filter((result) => result.missing).map((result) => result.id);
  return {
    from: edit.from,
    to: edit.to,
    changes: edit.changes,
    dimensions,
    counts: {
      rows: results.length,
      items: itemIds.length,
      compared: compared.length,
      predictions: results.length - missing.length,
      missing: missing.length,
    },
    missing,
    notInSynthetic: itemIds.filter((itemId) => !compared.includes(itemId)),
    real: realScores,
    synthetic: syntheticScores,
    sameDimensions: group(sameDimensions, `${base}/same-dimensions`, resamples),
    verdict: {
      syntheticInsideReal: inside(syntheticGap, realGap),
      difference:
        realGap.mean === null || syntheticGap.mean === null ? null : syntheticGap.mean - realGap.mean,
    },
    rows: results,
  };
}
