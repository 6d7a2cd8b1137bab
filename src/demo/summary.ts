// What the demo reports, from the scores documents of `scoreBench`: for each learner, original vs variant
// means and their gap with 95% bootstrap intervals over held-out trajectories, on every variant row, on the rows whose
// answer key names something differently (a renamed tool, skill, loader or argument), per dimension and on
// the held-out operators; and pass^k. The headline criterion is `names`: tool selection and skill
// selection both pass (what the learner chooses); argument accuracy and the bench's overall are shown too.
import type { Dimension } from '../augment/operator.js';
import { type BootstrapEstimate, bootstrapGroup, type ItemTally } from '../bench/bootstrap.js';
import type { BenchRow } from '../bench/schema.js';
import type { Comparison, RowResult, ScoresDocument } from '../bench/score.js';
import type { DecisionAccuracy } from '../learner/learner.js';
import type { TrainingReport } from '../learner/train-learner.js';
import type { DemoLearner, DemoSizes, RouteStats } from './demo-types.js';
import { addTally, type PairedReport, type PairedUnit, pairedComparison, tallyItem } from './paired.js';
import { type DemoDataSize, type DemoVerdict, demoVerdict } from './verdict.js';

/**
 * The dimensions whose operators rename symbols (tools, parameters, skills, the loader): the headline is
 * over their variant rows; the other dimensions change no name and are reported per dimension.
 */
export const nameDimensions: readonly Dimension[] = ['skill-ids', 'tools'];

/** The groups of variant rows every learner is reported on, and the paired comparison's groups. */
export const pairedGroups = ['names', 'renamed', 'renamed-unseen', 'renamed-seen'] as const;

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

/**
 * The demo's result as data (`summary.json`): the data behind the run, the verdict, the held-out operators
 * and the scores.
 */
export interface DemoSummary {
  format: 'hsa-demo-summary/3';
  seed: string;
  sizes: DemoSizes;
  /** The data behind the run: trajectories read, held out (the bootstrap's units) and bench items. */
  data: DemoDataSize;
  /** What the run decides on the headline group, and how much more data would decide it if it does not. */
  verdict: DemoVerdict;
  heldOut: Record<Dimension, string>;
  bench: {
    items: number;
    rows: number;
    variantRows: number;
    /** Variant rows of the dimensions that change names (the headline group). */
    nameRows: number;
    renamedRows: number;
    /** Renamed rows none of whose new names occurs in any learner's training data. */
    renamedUnseenRows: number;
    /** Renamed rows with a new name that some learner's training data holds (counted apart). */
    renamedSeenRows: number;
    heldOutRows: number;
    /** Variants that could not become a row (uncertified, or the answer key could not be moved): `bench/rejects.jsonl`. */
    rejectedVariants: number;
  };
  /** Disjoint rename vocabularies: the parts training and bench draw new names from, and the operators. */
  vocabulary: { training: VocabularyPart; bench: VocabularyPart; operators: string[] };
  learners: DemoLearnerSummary[];
  baseline: DemoLearnerSummary;
  /** Writes the base names on every row (the original's answer): its gap is the bench's ceiling. */
  memoriser: DemoLearnerSummary;
  /** fixed vs hsa, paired over held-out trajectories, with the memoriser's ceiling: per group of `pairedGroups` and dimension. */
  paired: Record<string, PairedReport>;
  /** The per-trajectory tallies behind `paired`, so that runs of several seeds can be pooled. */
  units: Record<string, PairedUnit[]>;
}

export interface VocabularyPart {
  part: number;
  parts: number;
}

function namesOf(row: BenchRow): string {
  const loader = row.harness.skills.loader;
  return JSON.stringify([
    row.expect.toolCalls.map((call) => [call.name, Object.keys(call.arguments)]),
    row.expect.skills,
    [loader.tool, loader.argument],
  ]);
}

/** Every name of a row's answer key: tools, argument keys (each part of a dotted path), skills, loader. */
function nameSet(row: BenchRow): Set<string> {
  const loader = row.harness.skills.loader;
  return new Set([
    ...row.expect.toolCalls.flatMap((call) => [
      call.name,
      ...Object.keys(call.arguments).flatMap((key) => key.split('.')),
    ]),
    ...row.expect.skills,
    loader.tool,
    loader.argument,
  ]);
}

/**
 * Ids of renamed rows with a new name (one the item's original answer key does not hold) in `seen`, the
 * names of the training data: those rows can be answered by a memorised new name.
 */
export function rowsWithSeenNames(rows: readonly BenchRow[], seen: ReadonlySet<string>): Set<string> {
  const renamed = renamedRows(rows);
  const original = new Map(
    rows.filter((row) => row.variantIndex === 0).map((row) => [row.itemId, nameSet(row)]),
  );
  return new Set(
    rows
      .filter((row) => renamed.has(row.id))
      .filter((row) => {
        const base = original.get(row.itemId) ?? new Set<string>();
        return [...nameSet(row)].some((name) => !base.has(name) && seen.has(name));
      })
      .map((row) => row.id),
  );
}

/** Which variant rows each reported group holds. */
function groupSelectors(
  renamed: ReadonlySet<string>,
  seen: ReadonlySet<string>,
  dimensionNames: readonly string[],
): Record<string, (result: RowResult) => boolean> {
  return {
    all: () => true,
    names: (result) => result.changed.some((dimension) => nameDimensions.includes(dimension as Dimension)),
    renamed: (result) => renamed.has(result.id),
    'renamed-unseen': (result) => renamed.has(result.id) && !seen.has(result.id),
    'renamed-seen': (result) => seen.has(result.id),
    'held-out': (result) => result.split === 'test',
    ...Object.fromEntries(
      dimensionNames.map((dimension) => [
        `dimension/${dimension}`,
        (result: RowResult) => result.changed.includes(dimension),
      ]),
    ),
  };
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

/** Row results grouped by key, keys in first-seen order. */
function groupBy(
  results: readonly RowResult[],
  key: (result: RowResult) => string,
): Map<string, RowResult[]> {
  const groups = new Map<string, RowResult[]>();
  for (const result of results) {
    const list = groups.get(key(result)) ?? [];
    list.push(result);
    groups.set(key(result), list);
  }
  return groups;
}

function summarizeScores(
  name: string,
  scores: ScoresDocument,
  selectors: Record<string, (result: RowResult) => boolean>,
  seed: string,
  unitOf: (itemId: string) => string,
): Pick<DemoLearnerSummary, 'groups' | 'passK'> {
  const itemIds = [...new Set(scores.rows.map((result) => result.itemId))];
  const byItem = groupBy(scores.rows, (result) => result.itemId);
  // Intervals resample units (held-out trajectories): the items of one conversation are not independent.
  const byUnit = groupBy(scores.rows, (result) => unitOf(result.itemId));
  const group = (label: string, select: (result: RowResult) => boolean): DemoGroup => {
    const tallies: ItemTally[] = [...byUnit.values()].flatMap((itemRows) => {
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
      items: itemIds.filter((itemId) =>
        (byItem.get(itemId) ?? []).some((result) => result.variantIndex > 0 && select(result)),
      ).length,
      rows: tallies.reduce((total, tally) => total + tally.variantCount, 0),
      criteria: Object.fromEntries(
        demoCriteria.map((criterion, index) => [criterion, estimates[index] as Comparison]),
      ) as Record<DemoCriterion, Comparison>,
    };
  };
  const groups: Record<string, DemoGroup> = Object.fromEntries(
    Object.entries(selectors).map(([label, select]) => [label, group(label, select)]),
  );
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
  memoriser: ScoresDocument;
  heldOut: Record<Dimension, string>;
  /** Every name (tool, key, enum value) of every learner's training data. */
  trainingNames: ReadonlySet<string>;
  vocabulary: DemoSummary['vocabulary'];
  /** The held-out trajectory behind each item id (the bootstrap's unit); an item not in it is its own unit. */
  sourceOf: ReadonlyMap<string, string>;
  data: DemoDataSize;
  /** Bench variants rejected by `generateBench`. */
  rejected: number;
}): DemoSummary {
  const unitOf = (itemId: string) => input.sourceOf.get(itemId) ?? itemId;
  const renamed = renamedRows(input.rows);
  const seen = rowsWithSeenNames(input.rows, input.trainingNames);
  const variantRows = input.rows.filter((row) => row.variantIndex > 0);
  const dimensionNames = [
    ...new Set(variantRows.flatMap((row) => (row.provenance.changed ?? []) as string[])),
  ].sort();
  const selectors = groupSelectors(renamed, seen, dimensionNames);
  const fixed = input.learners.find((learner) => learner.name === 'fixed');
  const hsa = input.learners.find((learner) => learner.name === 'hsa');
  const pairedLabels = [...pairedGroups, ...dimensionNames.map((dimension) => `dimension/${dimension}`)];
  const units: Record<string, PairedUnit[]> = {};
  const paired: Record<string, PairedReport> = {};
  if (fixed && hsa)
    for (const label of pairedLabels) {
      const select = selectors[label] as (result: RowResult) => boolean;
      units[label] = pairedUnits(
        input.seed,
        { fixed: fixed.scores, hsa: hsa.scores, memoriser: input.memoriser },
        select,
        unitOf,
      );
      paired[label] = pairedComparison(units[label], {
        a: 'fixed',
        b: 'hsa',
        ceiling: 'memoriser',
        seed: `${input.seed}/demo/paired/${label}`,
        resamples: 1000,
      });
    }
  return {
    format: 'hsa-demo-summary/3',
    seed: input.seed,
    sizes: input.sizes,
    data: input.data,
    verdict: demoVerdict(paired.names, input.data),
    heldOut: input.heldOut,
    bench: {
      items: new Set(input.rows.map((row) => row.itemId)).size,
      rows: input.rows.length,
      variantRows: variantRows.length,
      nameRows: input.memoriser.rows.filter(
        (result) => result.variantIndex > 0 && (selectors.names as (result: RowResult) => boolean)(result),
      ).length,
      renamedRows: renamed.size,
      renamedUnseenRows: renamed.size - seen.size,
      renamedSeenRows: seen.size,
      heldOutRows: variantRows.filter((row) => row.split === 'test').length,
      rejectedVariants: input.rejected,
    },
    vocabulary: input.vocabulary,
    learners: input.learners.map((learner) => ({
      name: learner.name,
      policy: learner.policy,
      ...(learner.dimension ? { dimension: learner.dimension } : {}),
      examples: learner.examples,
      training: learner.training,
      decisions: learner.decisions.learner,
      routes: learner.routes,
      ...summarizeScores(learner.name, learner.scores, selectors, input.seed, unitOf),
    })),
    baseline: {
      name: 'uniform',
      policy: 'none (uniform choice among the offered names)',
      examples: 0,
      ...(input.learners[0] ? { decisions: input.learners[0].decisions.uniform } : {}),
      ...summarizeScores('uniform', input.baseline, selectors, input.seed, unitOf),
    },
    memoriser: {
      name: 'memoriser',
      policy: 'none (the original answer, base names, on every row)',
      examples: 0,
      ...summarizeScores('memoriser', input.memoriser, selectors, input.seed, unitOf),
    },
    paired,
    units,
  };
}

/**
 * The units of one seed: per held-out trajectory (`unitOf` an item), every learner's tallies of its items on
 * the group's rows, summed.
 */
function pairedUnits(
  seed: string,
  scores: Record<string, ScoresDocument>,
  select: (result: RowResult) => boolean,
  unitOf: (itemId: string) => string,
): PairedUnit[] {
  const byLearner = Object.entries(scores).map(
    ([name, document]) => [name, groupBy(document.rows, (result) => result.itemId)] as const,
  );
  const items = [...new Set(Object.values(scores)[0]?.rows.map((result) => result.itemId) ?? [])];
  const units = new Map<string, PairedUnit>();
  for (const item of items) {
    const unit = unitOf(item);
    const tallies = Object.fromEntries(
      byLearner.map(([name, byItem]) => [
        name,
        tallyItem(byItem.get(item) ?? [], select, (result) => passes(result, 'names')),
      ]),
    );
    const existing = units.get(unit);
    if (!existing) {
      units.set(unit, { stratum: seed, item: unit, learners: tallies });
      continue;
    }
    for (const [name, tally] of Object.entries(tallies))
      existing.learners[name] = existing.learners[name] ? addTally(existing.learners[name], tally) : tally;
  }
  return [...units.values()];
}
