// Predictions a bench can be scored with before any model answers it: `expected` does what each row expects
// (every row passes: a check of the bench itself), `base-names` gives on every row the answer its item's
// original row expects, in the base harness's names, whatever the variant (what a model that memorised the
// base harness does: its gap is the most a harness-blind model loses).
import type { BenchRow, Prediction } from './schema.js';
import { expectationsAsPredictions } from './score.js';

/** The scripted players of `hsa bench predict --player`. */
export const scriptedPlayers = ['expected', 'base-names'] as const;
export type ScriptedPlayer = (typeof scriptedPlayers)[number];

/**
 * On every row, the answer its item's original row (variant 0) expects, in the base vocabulary.
 *
 * @example
 * scoreBench(rows, baseNamesPredictions(rows), { seed: '0' }).overall.overall.gap.mean // > 0 when variants rename
 */
export function baseNamesPredictions(rows: readonly BenchRow[]): Prediction[] {
  const originals = rows.filter((row) => row.variantIndex === 0);
  const answers = new Map(
    expectationsAsPredictions(originals).map((prediction, index) => [
      originals[index]!.itemId,
      prediction.output,
    ]),
  );
  return rows.map((row) => ({ id: row.id, output: answers.get(row.itemId) ?? [] }));
}

/**
 * The predictions of a scripted player for every row, in bench order.
 *
 * @example
 * scriptedPredictions(rows, 'expected') // every row answered as it expects
 */
export function scriptedPredictions(rows: readonly BenchRow[], player: ScriptedPlayer): Prediction[] {
  return player === 'expected' ? expectationsAsPredictions(rows) : baseNamesPredictions(rows);
}
