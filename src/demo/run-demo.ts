// `runDemo`: the HAT effect end to end on a CPU. Training data goes through the real pipeline (replay
// teacher, certificates, collapsing) into TRL exports; learners are trained on those files; a variant
// benchmark of held-out items, under held-out seeds, one dimension per variant, is answered by each learner
// through `answerBenchRow` and scored by `scoreBench` (what `hsa bench score` runs). Every learner gets the
// same features, settings, number of examples and steps; only the policy behind its data differs.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Dimension, dimensions } from '../augment/operator.js';
import { compilePolicy, type PolicyInput, parsePolicy } from '../augment/policy.js';
import { presets } from '../augment/presets.js';
import { createRandom } from '../augment/random.js';
import type { Registry } from '../augment/registry.js';
import { answerBenchRow } from '../bench/answer-row.js';
import { type BenchReject as GenerateReject, generateBench } from '../bench/generate.js';
import { readBenchItems } from '../bench/items.js';
import { writeReport } from '../bench/report.js';
import type { BenchItem, BenchRow, Prediction } from '../bench/schema.js';
import { expectationsAsPredictions, scoreBench } from '../bench/score.js';
import { readInputLines } from '../harness/input-file.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { writeJsonLines } from '../harness/json-lines.js';
import { loadHarnessFile } from '../harness/parse-harness.js';
import { writeFileAtomic } from '../harness/write-file-atomic.js';
import {
  decisionAccuracy,
  type Learner,
  learnerChatModel,
  type MessageDecider,
  uniformChooser,
} from '../learner/learner.js';
import { FeatureCache } from '../learner/text-features.js';
import { trainLearner } from '../learner/train-learner.js';
import { parsePipelineConfig } from '../pipeline/config.js';
import { type PipelineDependencies, runPipeline } from '../pipeline/run-pipeline.js';
import type { DemoLearner, DemoSizes, RouteStats } from './demo-types.js';
import { splitByTrajectory } from './split.js';
import { type DemoSummary, renamedRows, summarize, type VocabularyPart } from './summary.js';
import { addTrainingNames } from './training-names.js';

/** A bench variant that could not become a row, with the dimension whose variant it was. */
type BenchReject = GenerateReject & { dimension: Dimension };

/**
 * The sizes `hsa demo` runs with: large enough that the learners' original scores are well above the
 * uniform floor (40–80 s of CPU per seed on one thread without the ablation on the bundled domains, measured
 * on a loaded shared machine; the ablation adds five learners).
 *
 * @example
 * await runDemo({ ...options, sizes: { ...defaultDemoSizes, ablation: false } });
 */
export const defaultDemoSizes: DemoSizes = {
  trainTasks: 240,
  variants: 3,
  benchItems: 120,
  benchVariants: 2,
  steps: 1000,
  ablation: true,
};

/**
 * Disjoint rename vocabularies: training variants draw new names from one part of a hash partition of all
 * names, bench variants from the other, in every operator that takes a `vocabulary` param.
 */
export const demoVocabulary: { training: VocabularyPart; bench: VocabularyPart } = {
  training: { part: 0, parts: 2 },
  bench: { part: 1, parts: 2 },
};

/** Whether the operator takes a `vocabulary` param (its parsed params keep it). */
function takesVocabulary(registry: Registry, id: string): boolean {
  const operator = registry.get(id);
  if (!operator) return false;
  const parsed = operator.params.safeParse({ vocabulary: demoVocabulary.training });
  return parsed.success && (parsed.data as { vocabulary?: unknown }).vocabulary !== undefined;
}

/** The operators of a policy that take a `vocabulary` param, sorted. */
function vocabularyOperators(policy: PolicyInput, registry: Registry): string[] {
  const ids = Object.values(policy.dimensions ?? {}).flatMap((entry) =>
    (entry?.operators ?? []).map(operatorId),
  );
  return [...new Set(ids)].filter((id) => takesVocabulary(registry, id)).sort();
}

/** The policy with `vocabulary` added to the params of every operator that takes one. */
export function withVocabulary(
  policy: PolicyInput,
  vocabulary: VocabularyPart,
  registry: Registry,
): PolicyInput {
  return {
    ...policy,
    dimensions: Object.fromEntries(
      Object.entries(policy.dimensions ?? {}).map(([dimension, entry]) => [
        dimension,
        {
          ...entry,
          operators: (entry?.operators ?? []).map((operator) => {
            if (!takesVocabulary(registry, operatorId(operator))) return operator;
            const spec = typeof operator === 'string' ? { op: operator } : operator;
            return { ...spec, params: { ...(spec.params ?? {}), vocabulary } };
          }),
        },
      ]),
    ),
  };
}

/**
 * What `runDemo` runs on: the harness, its gold trajectories, optional bench items, the output folder, seed
 * and sizes.
 */
export interface DemoOptions {
  /** The base harness file. */
  harness: string;
  /** Gold trajectories under the base harness (JSONL). */
  trajectories: string;
  /**
   * Bench items (JSONL); their gold trajectories are never trained on. Without a file, items are derived from
   * held-out gold trajectories (`itemFromTrajectory`).
   */
  items?: string;
  out: string;
  seed: string | number;
  /** Registry, teachers, judge and exporters (the TRL exporter must be among them). */
  dependencies: PipelineDependencies;
  sizes?: Partial<DemoSizes>;
  onProgress?: (message: string) => void;
}

/** What `runDemo` returns: the summary, the trained learners, the bench rows and the files it wrote. */
export interface DemoResult {
  summary: DemoSummary;
  learners: DemoLearner[];
  rows: BenchRow[];
  files: { report: string; markdown: string; summary: string; bench: string };
}

/**
 * The operator held out of HSA training in each dimension: the last one the `hat` preset lists. Bench
 * rows made with it are the `test` split of that dimension (an unseen kind of change).
 */
export function heldOutOperators(): Record<Dimension, string> {
  const hat = presets.hat as PolicyInput;
  return Object.fromEntries(
    dimensions.map((dimension) => {
      const operators = hat.dimensions?.[dimension]?.operators ?? [];
      const last = operators.at(-1);
      return [dimension, typeof last === 'string' ? last : (last?.op ?? '')];
    }),
  ) as Record<Dimension, string>;
}

function operatorId(entry: string | { op: string }): string {
  return typeof entry === 'string' ? entry : entry.op;
}

/** `hat`, restricted to some dimensions, without the held-out operators. */
export function demoPolicy(name: string, only: readonly Dimension[] | 'all'): PolicyInput {
  const hat = presets.hat as PolicyInput;
  const held = heldOutOperators();
  const chosen = only === 'all' ? dimensions : only;
  return {
    name,
    description: `hat over ${chosen.join(', ')}, without the held-out operators (${chosen.map((dimension) => held[dimension]).join(', ')})`,
    severity: hat.severity ?? 'medium',
    dimensions: Object.fromEntries(
      chosen.map((dimension) => {
        const entry = hat.dimensions?.[dimension];
        return [
          dimension,
          {
            probability: entry?.probability ?? 1,
            operators: (entry?.operators ?? []).filter(
              (operator) => operatorId(operator) !== held[dimension],
            ),
          },
        ];
      }),
    ),
  };
}

/** The bench policy of one dimension: every `hat` operator of it, always applied. */
function benchPolicy(dimension: Dimension): PolicyInput {
  const hat = presets.hat as PolicyInput;
  return {
    name: `bench-${dimension}`,
    severity: hat.severity ?? 'medium',
    dimensions: { [dimension]: { probability: 1, operators: hat.dimensions?.[dimension]?.operators ?? [] } },
  };
}

async function readLines(file: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const entry of readInputLines(file)) {
    if ('issue' in entry)
      throw new HarnessAugmentError(`${file}:${entry.line}: ${entry.issue.message}`, {
        issues: [entry.issue],
      });
    if (entry.text.trim() !== '') lines.push(entry.text);
  }
  return lines;
}

/** The bench items of `file`, through the bench's own reader (forbidden keys, syntax, schema, line numbers). */
async function readItems(file: string): Promise<BenchItem[]> {
  const items: BenchItem[] = [];
  for await (const record of readBenchItems(file)) {
    if ('issues' in record)
      throw new HarnessAugmentError(`${file}:${record.line}: not a bench item`, {
        issues: record.issues.map((issue) => ({ ...issue, file, line: record.line })),
      });
    items.push(record.item);
  }
  return items;
}

/** The bench rows: variant 0 and, per dimension, `benchVariants` one-dimension variants, re-indexed. */
async function buildBench(
  options: DemoOptions,
  sizes: DemoSizes,
  items: BenchItem[],
  onReject: (reject: BenchReject) => void,
): Promise<BenchRow[]> {
  const base = await loadHarnessFile(options.harness);
  const held = heldOutOperators();
  const byItem = new Map<string, BenchRow[]>(items.map((item) => [item.id, []]));
  for (const [position, dimension] of dimensions.entries()) {
    const registry = options.dependencies.registry;
    const policy = withVocabulary(benchPolicy(dimension), demoVocabulary.bench, registry);
    const plan = compilePolicy(parsePolicy(policy), registry);
    for await (const row of generateBench(base, items, {
      plan,
      variants: sizes.benchVariants,
      // Held-out seeds: the bench's variants never share a seed with the training variants.
      seed: `${options.seed}/bench/${dimension}`,
      holdout: { operator: held[dimension] },
      onReject: (reject) => onReject({ ...reject, dimension }),
    })) {
      if (row.variantIndex === 0 && position > 0) continue;
      const variantIndex = row.variantIndex === 0 ? 0 : position * sizes.benchVariants + row.variantIndex;
      byItem.get(row.itemId)?.push({ ...row, id: `${row.itemId}/${variantIndex}`, variantIndex });
    }
  }
  return items.flatMap((item) => byItem.get(item.id) ?? []);
}

async function predict(rows: readonly BenchRow[], decider: MessageDecider): Promise<Prediction[]> {
  const model = learnerChatModel(decider);
  const predictions: Prediction[] = [];
  for (const row of rows) predictions.push(await answerBenchRow(row, model));
  return predictions;
}

/** Predicts with a learner, tracing every decision; the routes' statistics per group of rows. */
async function predictTraced(
  rows: readonly BenchRow[],
  learner: Learner,
  renamed: ReadonlySet<string>,
): Promise<{ predictions: Prediction[]; routes: Record<'original' | 'variants' | 'renamed', RouteStats> }> {
  const totals = {
    original: { names: 0, unoffered: 0, gate: 0 },
    variants: { names: 0, unoffered: 0, gate: 0 },
    renamed: { names: 0, unoffered: 0, gate: 0 },
  };
  const predictions: Prediction[] = [];
  for (const row of rows) {
    const groups = row.variantIndex === 0 ? [totals.original] : [totals.variants];
    if (renamed.has(row.id)) groups.push(totals.renamed);
    const decider: MessageDecider = {
      decide(messages, tools) {
        const { message, decisions } = learner.trace(messages, tools);
        for (const decision of decisions) {
          if (decision.slot === 'key' || decision.chosen.startsWith('<')) continue;
          for (const group of groups) {
            group.names++;
            if (!decision.offeredChosen) group.unoffered++;
            group.gate += decision.gate;
          }
        }
        return message;
      },
    };
    predictions.push(await answerBenchRow(row, learnerChatModel(decider)));
  }
  const stats = (total: { names: number; unoffered: number; gate: number }): RouteStats => ({
    names: total.names,
    unoffered: total.names === 0 ? 0 : total.unoffered / total.names,
    generatorWeight: total.names === 0 ? 0 : total.gate / total.names,
  });
  return {
    predictions,
    routes: {
      original: stats(totals.original),
      variants: stats(totals.variants),
      renamed: stats(totals.renamed),
    },
  };
}

/**
 * Runs the demo into `options.out` and returns what it measured.
 *
 * @example
 * const result = await runDemo({ harness, trajectories, items, out: 'out/demo', seed: 42, dependencies });
 * console.log(renderDemoMarkdown(result.summary));
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const requested: DemoSizes = { ...defaultDemoSizes, ...options.sizes };
  const seed = String(options.seed);
  const progress = options.onProgress ?? (() => {});
  const out = options.out;
  await mkdir(out, { recursive: true });

  // Held-out examples, by trajectory: no trajectory behind a bench item is trained on.
  const lines = await readLines(options.trajectories);
  const base = await loadHarnessFile(options.harness);
  const split = splitByTrajectory({
    harness: base,
    lines,
    file: options.trajectories,
    ...(options.items ? { items: await readItems(options.items) } : {}),
    benchItems: requested.benchItems,
    seed,
  });
  const { items, pool } = split;
  if (pool.length === 0 || items.length === 0)
    throw new HarnessAugmentError(
      `${options.trajectories}: ${pool.length} trajectories outside ${items.length} bench items; the demo needs both (${items.length === 0 && !options.items ? 'no trajectory has a turn that ends in a plain reply' : 'give more trajectories'})`,
      { kind: 'usage' },
    );
  // A small domain trains on every trajectory outside the bench (the report says how many).
  const sizes: DemoSizes = {
    ...requested,
    trainTasks: Math.min(requested.trainTasks, pool.length),
    benchItems: items.length,
  };
  const tasks = createRandom(`${seed}/demo/tasks`).sample(pool, sizes.trainTasks);
  const inputs = join(out, 'inputs', 'train.jsonl');
  await mkdir(join(out, 'inputs'), { recursive: true });
  await writeFileAtomic(inputs, tasks.map((line) => `${line}\n`).join(''));

  const registry = options.dependencies.registry;
  const trainingPolicy = (policy: PolicyInput) => withVocabulary(policy, demoVocabulary.training, registry);
  const configs: Array<{ name: string; policy: PolicyInput; dimension?: Dimension }> = [
    { name: 'fixed', policy: presets.identity as PolicyInput },
    { name: 'hsa', policy: trainingPolicy(demoPolicy('hsa', 'all')) },
    ...(sizes.ablation
      ? dimensions.map((dimension) => ({
          name: `hsa-${dimension}`,
          policy: trainingPolicy(demoPolicy(`hsa-${dimension}`, [dimension])),
          dimension,
        }))
      : []),
  ];

  progress(
    `bench: ${items.length} items from ${split.heldOut} held-out trajectories (of ${split.trajectories}); generating one-dimension variants`,
  );
  const benchRejects: BenchReject[] = [];
  const rows = await buildBench(options, sizes, items, (reject) => benchRejects.push(reject));
  await mkdir(join(out, 'bench'), { recursive: true });
  // Nothing is dropped silently: a variant that could not be certified is written with its reasons.
  await writeJsonLines(join(out, 'bench', 'rejects.jsonl'), benchRejects);
  if (rows.length === 0)
    throw new HarnessAugmentError(
      `no bench row could be made from ${items.length} items (every item or variant was rejected by generateBench)`,
      { kind: 'invalid' },
    );
  const benchFile = join(out, 'bench', 'rows.jsonl');
  await writeJsonLines(benchFile, rows);

  const renamed = renamedRows(rows);

  // The pipeline runs: one per learner, the same tasks, seed, variant count and exports.
  const exports: Array<{ name: string; file: string; rows: number }> = [];
  for (const config of configs) {
    progress(`pipeline: ${config.name} (${config.policy.name ?? 'policy'})`);
    const directory = join(out, config.name);
    await mkdir(directory, { recursive: true });
    const policyFile = join(directory, 'policy.json');
    await writeFileAtomic(policyFile, `${JSON.stringify(config.policy, null, 2)}\n`);
    const pipelineConfig = parsePipelineConfig({
      harness: options.harness,
      inputs: { trajectories: inputs },
      seed,
      augment: { policy: policyFile, variants: sizes.variants, includeOriginal: true },
      teacher: { exact: 'replay', regenerate: 'oracle' },
      exports: [{ trl: { argumentsEncoding: 'object' } }],
      out: join(directory, 'pipeline'),
      concurrency: 1,
    });
    const manifest = await runPipeline(pipelineConfig, options.dependencies);
    const trl = manifest.exports.find((entry) => entry.format === 'trl');
    if (!trl) throw new HarnessAugmentError('the pipeline wrote no TRL export', { kind: 'usage' });
    exports.push({
      name: config.name,
      file: join(directory, 'pipeline', 'exports', 'trl', 'train.jsonl'),
      rows: trl.rows,
    });
  }
  // The same number of examples for every learner: the smallest export, its first rows.
  const examples = Math.min(...exports.map((entry) => entry.rows));
  const empty = exports.find((entry) => entry.rows === 0);
  if (empty)
    throw new HarnessAugmentError(
      `the pipeline wrote no training row for "${empty.name}": every task was rejected (reasons in ${join(out, empty.name, 'pipeline', 'rejects.jsonl')})`,
      { kind: 'invalid' },
    );

  const learners: DemoLearner[] = [];
  const trainingNames = new Set<string>();
  // One memo of features for every learner: they read the same bench rows and held-out conversations.
  const features = new FeatureCache();
  for (const [index, config] of configs.entries()) {
    const source = exports[index] as (typeof exports)[number];
    progress(`train: ${config.name} on ${examples} TRL rows, ${sizes.steps} steps`);
    const exported = (await readFile(source.file, 'utf8')).split('\n').filter((line) => line.trim() !== '');
    const trainFile = join(out, config.name, 'train.jsonl');
    const trained = exported.slice(0, examples);
    for (const line of trained) addTrainingNames(JSON.parse(line), trainingNames);
    await writeFileAtomic(trainFile, trained.map((line) => `${line}\n`).join(''));
    const { learner, report } = await trainLearner(trainFile, {
      seed: `${seed}/train`,
      steps: sizes.steps,
      cache: features,
    });
    progress(`score: ${config.name} on ${rows.length} bench rows`);
    const { predictions, routes } = await predictTraced(rows, learner, renamed);
    await writeJsonLines(join(out, config.name, 'predictions.jsonl'), predictions);
    const scores = scoreBench(rows, predictions, { seed });
    await writeFileAtomic(join(out, config.name, 'scores.json'), `${JSON.stringify(scores, null, 2)}\n`);
    // The bench's own report of this learner, as `hsa bench report` writes it.
    await writeReport(scores, join(out, config.name, 'report'));
    learners.push({
      name: config.name,
      policy: config.policy.name ?? '',
      ...(config.dimension ? { dimension: config.dimension } : {}),
      examples,
      training: { ...report, file: join(config.name, 'train.jsonl') },
      decisions: decisionAccuracy(
        learner,
        items.map((item) => item.gold),
        features,
      ),
      routes,
      scores,
    });
  }
  const baselinePredictions = await predict(rows, uniformChooser(createRandom(`${seed}/uniform`)));
  await mkdir(join(out, 'uniform'), { recursive: true });
  await writeJsonLines(join(out, 'uniform', 'predictions.jsonl'), baselinePredictions);
  const baseline = scoreBench(rows, baselinePredictions, { seed });
  // The memoriser: on every row, the original row's answer with the base names (the bench's ceiling gap).
  const originalRows = rows.filter((row) => row.variantIndex === 0);
  const originalAnswers = new Map(
    expectationsAsPredictions(originalRows).map((prediction, index) => [
      originalRows[index]?.itemId,
      prediction.output,
    ]),
  );
  const memoriserPredictions: Prediction[] = rows.map((row) => ({
    id: row.id,
    output: originalAnswers.get(row.itemId) ?? [],
  }));
  await mkdir(join(out, 'memoriser'), { recursive: true });
  await writeJsonLines(join(out, 'memoriser', 'predictions.jsonl'), memoriserPredictions);
  const memoriser = scoreBench(rows, memoriserPredictions, { seed });

  const summary = summarize({
    seed,
    sizes,
    rows,
    learners,
    baseline,
    memoriser,
    heldOut: heldOutOperators(),
    trainingNames,
    sourceOf: split.sourceOf,
    data: { trajectories: split.trajectories, heldOut: split.heldOut, items: items.length },
    rejected: benchRejects.length,
    vocabulary: {
      ...demoVocabulary,
      operators: vocabularyOperators(presets.hat as PolicyInput, registry),
    },
  });
  const { renderDemoHtml, renderDemoMarkdown } = await import('./report.js');
  const files = {
    report: join(out, 'report.html'),
    markdown: join(out, 'report.md'),
    summary: join(out, 'summary.json'),
    bench: benchFile,
  };
  await writeFileAtomic(files.summary, `${JSON.stringify(summary, null, 2)}\n`);
  await writeFileAtomic(files.markdown, renderDemoMarkdown(summary));
  await writeFileAtomic(files.report, renderDemoHtml(summary));
  return { summary, learners, rows, files };
}

export type { DemoLearner, DemoSizes, RouteStats } from './demo-types.js';
