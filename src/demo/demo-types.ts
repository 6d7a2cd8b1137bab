// The demo's plain types: the sizes of a run, a trained learner and the route statistics of its names.
// The run (run-demo.ts) and the summary (summary.ts) import them; neither imports the other's types.
import type { Dimension } from '../augment/operator.js';
import type { ScoresDocument } from '../bench/score.js';
import type { DecisionAccuracy } from '../learner/learner.js';
import type { TrainingReport } from '../learner/train-learner.js';

/** Sizes of a demo run; without the ablation the defaults take about a minute of CPU. */
export interface DemoSizes {
  /** Base tasks (gold trajectories not behind any bench item) each learner is trained from. */
  trainTasks: number;
  /** Variants per task (each task also keeps its original): trainTasks × (variants + 1) examples. */
  variants: number;
  /** Bench items (held out of training). */
  benchItems: number;
  /** Bench variants per item and dimension (one dimension per variant). */
  benchVariants: number;
  /** Adam steps of every learner. */
  steps: number;
  /** Run the one-dimension ablation (five more learners). */
  ablation: boolean;
}

/** One trained learner of the demo. */
export interface DemoLearner {
  name: string;
  /** What its training data was made with. */
  policy: string;
  /** The dimension an ablation learner was trained on. */
  dimension?: Dimension;
  examples: number;
  training: TrainingReport;
  /** Teacher-forced decision accuracy on the held-out items' gold trajectories (the original harness). */
  decisions: { learner: DecisionAccuracy; uniform: DecisionAccuracy };
  /** How its tool names and enum values came about, on original, variant and renamed rows. */
  routes: Record<'original' | 'variants' | 'renamed', RouteStats>;
  scores: ScoresDocument;
}

/** How a learner's names came about on a group of rows: written but not offered, and the gate. */
export interface RouteStats {
  /** Tool names and enum values written (not `<reply>`, `<end>` or argument keys). */
  names: number;
  /** Share of them that the prompt did not offer (the old name under a renamed harness). */
  unoffered: number;
  /** Mean gate: the weight of the generator route (1 − it is the copy route's). */
  generatorWeight: number;
}
