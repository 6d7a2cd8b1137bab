// What the demo reports, from the scores documents of `scoreBench`: for each learner, original vs variant
// means and their gap with 95% bootstrap intervals over items, on every variant row, on the rows whose
// answer key names something differently (a renamed tool, skill, loader or argument), per dimension and on
// the held-out operators; and pass^k. The headline criterion is `names`: tool selection and skill
// selection both pass (what the learner chooses); argument accuracy and the bench's overall are shown too.
import type { Dimension } from '../augment/operator.js';
import { type BootstrapEstimate, bootstrapGroup, type ItemTally } from '../bench/bootstrap.js';
import type { BenchRow } from '../bench/schema.js';
import type { Comparison, RowResult, ScoresDocument } from '../bench/score.js';
import type { DecisionAccuracy } from '../learner/learner.js';
import type { TrainingReport } from '../learner/train-learner.js';
import type { DemoLearner, DemoSizes, RouteStats } from './run-demo.js';

/** The criteria the demo reports; `names` is tool selection and skill selection together. */
export const demoCriteria = [
  'names',
  'toolSelection',
  'skillSelection',
  'argumentAccuracy',
  'overall',
] as const;
export type DemoCriterion = (typeof demoCriteria)[number];

/** One group of variant rows compared with the originals of the same items. */
export interface DemoGroup {
  items: number;
  rows: number;
  criteria: Record<DemoCriterion, Comparison>;
}

export interface DemoLearnerSummary {
  name: string;
  policy: string;
  dimension?: Dimension;
  examples: number;
  training?: Omit<TrainingReport, 'file'> & { file: string };
  /** Teacher-forced decision accuracy on the held-out items under the original harness. */
  decisions?: DecisionAccuracy;
  /** Names written (tools, enum values) that were not offered, and the generator's weight, per row group. */
  routes?: Record<'original' | 'variants' | 'renamed', RouteStats>;
  /** `all`, `renamed`, `held-out`, and `dimension/<d>` for each dimension. */
  groups: Record<string, DemoGroup>;
  /** pass^k on `names`: the share of items all of whose rows pass. */
  passK: { k: number; estimate: BootstrapEstimate };
}

export interface DemoSummary {
  format: 'hsa-demo-summary/1';
  seed: string;
  sizes: DemoSizes;
  heldOut: Record<Dimension, string>;
  bench: { items: number; rows: number; variantRows: number; renamedRows: number; heldOutRows: number };
  learners: DemoLearnerSummary[];
  baseline: DemoLearnerSummary;
}

function namesOf(row: BenchRow): string {
  const loader = row.harness.skills.loader;
  return JSON.stringify([
    row.expect.toolCalls.map((call) => [call.name, Object.keys(call.arguments)]),
    row.expect.skills,
    [loader.tool, loader.argument],
  ]);
}

/** Ids of variant rows whose answer key names a tool, skill, loader or argument differently from variant 0. */
export function renamedRows(rows: readonly BenchRow[]): Set<string> {
  const original = new Map(
    rows.filter((row) => row.variantIndex === 0).map((row) => [row.itemId, namesOf(row)]),
  );
  return new Set(
    rows
      .filter(
        (row) =>
          row.variantIndex > 0 && original.has(row.itemId) && namesOf(row) !== original.get(row.itemId),
      )
      .map((row) => row.id),
  );
}

function passes(result: RowResult, criterion: DemoCriterion): boolean {
  if (criterion === 'names') return result.scores.toolSelection && result.scores.skillSelection;
  return result.scores[criterion];
}

function summarizeScores(
  name: string,
  scores: ScoresDocument,
  renamed: ReadonlySet<string>,
  seed: string,
): Pick<DemoLearnerSummary, 'groups' | 'passK'> {
  const itemIds = [...new Set(scores.rows.map((result) => result.itemId))];
  const byItem = new Map<string, RowResult[]>(itemIds.map((id) => [id, []]));
  for (const result of scores.rows) byItem.get(result.itemId)?.push(result);
  const group = (label: string, select: (result: RowResult) => boolean): DemoGroup => {
    const tallies: ItemTally[] = itemIds.flatMap((itemId) => {
      const itemRows = byItem.get(itemId) ?? [];
      const variants = itemRows.filter((result) => result.variantIndex > 0 && select(result));
      if (variants.length === 0) return [];
      const originals = itemRows.filter((result) => result.variantIndex === 0);
      const sum = (list: RowResult[]) =>
        demoCriteria.map((criterion) => list.filter((result) => passes(result, criterion)).length);
      return [
        {
          originalPass: sum(originals),
          originalCount: originals.length,
          variantPass: sum(variants),
          variantCount: variants.length,
        },
      ];
    });
    const estimates = bootstrapGroup(tallies, demoCriteria.length, {
      seed: `${seed}/demo/${name}/${label}`,
      resamples: 1000,
    });
    return {
      items: tallies.length,
      rows: tallies.reduce((total, tally) => total + tally.variantCount, 0),
      criteria: Object.fromEntries(
        demoCriteria.map((criterion, index) => [criterion, estimates[index] as Comparison]),
      ) as Record<DemoCriterion, Comparison>,
    };
  };
  const dimensionNames = [...new Set(scores.rows.flatMap((result) => result.changed))].sort();
  const groups: Record<string, DemoGroup> = {
    all: group('all', () => true),
    renamed: group('renamed', (result) => renamed.has(result.id)),
    'held-out': group('held-out', (result) => result.split === 'test'),
    ...Object.fromEntries(
      dimensionNames.map((dimension) => [
        `dimension/${dimension}`,
        group(`dimension/${dimension}`, (result) => result.changed.includes(dimension)),
      ]),
    ),
  };
  const passItems: ItemTally[] = itemIds.map((itemId) => {
    const pass = (byItem.get(itemId) ?? []).every((result) => passes(result, 'names')) ? 1 : 0;
    return { originalPass: [pass], originalCount: 1, variantPass: [0], variantCount: 0 };
  });
  const passK = bootstrapGroup(passItems, 1, { seed: `${seed}/demo/${name}/pass-k`, resamples: 1000 })[0]!;
  return {
    groups,
    passK: {
      k: Math.max(0, ...itemIds.map((itemId) => byItem.get(itemId)?.length ?? 0)),
      estimate: passK.original,
    },
  };
}

/**
 * The demo's summary of its learners' scores.
 *
 * @example
 * const summary = summarize({ seed: '42', sizes, rows, learners, baseline, heldOut: heldOutOperators() });
 */
export function summarize(input: {
  seed: string;
  sizes: DemoSizes;
  rows: readonly BenchRow[];
  learners: readonly DemoLearner[];
  baseline: ScoresDocument;
  heldOut: Record<Dimension, string>;
}): DemoSummary {
  const renamed = renamedRows(input.rows);
  const variantRows = input.rows.filter((row) => row.variantIndex > 0);
  return {
    format: 'hsa-demo-summary/1',
    seed: input.seed,
    sizes: input.sizes,
    heldOut: input.heldOut,
    bench: {
      items: new Set(input.rows.map((row) => row.itemId)).size,
      rows: input.rows.length,
      variantRows: variantRows.length,
      renamedRows: renamed.size,
      heldOutRows: variantRows.filter((row) => row.split === 'test').length,
    },
    learners: input.learners.map((learner) => ({
      name: learner.name,
      policy: learner.policy,
      ...(learner.dimension ? { dimension: learner.dimension } : {}),
      examples: learner.examples,
      training: learner.training,
      decisions: learner.decisions.learner,
      routes: learner.routes,
      ...summarizeScores(learner.name, learner.scores, renamed, input.seed),
    })),
    baseline: {
      name: 'uniform',
      policy: 'none (uniform choice among the offered names)',
      examples: 0,
      ...(input.learners[0] ? { decisions: input.learners[0].decisions.uniform } : {}),
      ...summarizeScores('uniform', input.baseline, renamed, input.seed),
    },
  };
}
