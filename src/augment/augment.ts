// augment(): base harness × trajectories → certified (variant harness, rewritten trajectory) rows. Every
// random draw comes from a generator derived from (seed, example id, variant index, operator index), so a
// row is the same on every machine and for every shard count.
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { Issue } from '../harness/issues.js';
import { hookCheckOptions } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import type { Trajectory } from '../trajectory/schema.js';
import { validateTrajectory } from '../trajectory/validate-trajectory.js';
import { applyPlanSteps, baseState } from './apply-plan.js';
import { type AugmentRun, augmentRunOf } from './augment-run.js';
import { certifiedRow } from './certified-row.js';
import { DigestSet, digestOfText } from './digest-set.js';
import { type Dimension, dimensions, type RegenerateFunction } from './operator.js';
import type { Plan } from './plan.js';
import { createRandom } from './random.js';
import type { AugmentReject, AugmentRow, ExampleResult } from './row.js';
import { checkAugmentBounds } from './size-bound.js';
import {
  createVariantPool,
  defaultPoolAttempts,
  defaultVariantPoolSize,
  type VariantPool,
  type VariantPoolOptions,
} from './variant-pool.js';

export type { AugmentReject, AugmentRow, ExampleResult, Provenance } from './row.js';

/**
 * How `augment` runs: the plan, variants per example, the seed, and optional sharding, hook checks, resume,
 * parallelism and the variant pool.
 */
export interface AugmentOptions {
  plan: Plan;
  variants: number;
  seed: string | number;
  /** Severity used where the plan's operators do not set one (default: the plan's own, else 0.5). */
  severity?: number;
  /** Only examples whose position (0-based, input order) modulo `count` equals `index`. */
  shard?: { index: number; count: number };
  regenerate?: RegenerateFunction;
  /** The custom hook checks the harness names (default: none); ignored when `run` is given. */
  hookChecks?: HookCheckRegistry | undefined;
  /**
   * The run (`createAugmentRun(base, { hookChecks })`): its hook checks and the facts its steps share.
   * Default: one made for this call.
   */
  run?: AugmentRun;
  onReject?: (reject: AugmentReject) => void;
  /** Called once per example read (after sharding), for progress. */
  onExample?: (position: number) => void;
  /**
   * Examples (after sharding) already done by an interrupted run: they are read and validated (so that a
   * later duplicate id is still caught) but neither augmented nor reported. Default 0.
   */
  skipExamples?: number;
  /**
   * Runs the variants of one valid example elsewhere (a worker thread): it must return what
   * `augmentExample` returns for variant indexes 0 … variants - 1. Up to `concurrency` examples run at once;
   * rows and rejects still come out in input order, so the output does not depend on the concurrency.
   */
  parallel?: { concurrency: number; augmentVariants: (trajectory: Trajectory) => Promise<ExampleResult[]> };
  /**
   * The variant pool (`createVariantPool`): `size` shared variants built once and drawn by each example,
   * trying `attempts` entries before a build of its own. Default `{ size: defaultVariantPoolSize }`;
   * `{ size: 0 }` builds every variant for its example alone, as before the pool. `label` names the pool
   * in its entries' seeds (`VariantPoolOptions.label`).
   */
  pool?: { size: number; attempts?: number; label?: string };
}

/** An input item: a trajectory, or a JSONL record with its line number. */
export type AugmentInput = unknown | { line: number; value: unknown } | { line: number; issue: Issue };

function isRecord(item: unknown): item is { line: number; value?: unknown; issue?: Issue } {
  return typeof item === 'object' && item !== null && 'line' in item && ('value' in item || 'issue' in item);
}

/**
 * Produces one certified variant of one example, or the reason it could not.
 *
 * @example
 * const result = await augmentExample(harness, trajectory, 0, { plan, variants: 1, seed: 42 });
 */
export async function augmentExample(
  base: Harness,
  original: Trajectory,
  variantIndex: number,
  options: Pick<AugmentOptions, 'plan' | 'seed' | 'severity' | 'regenerate' | 'hookChecks' | 'run'>,
): Promise<ExampleResult> {
  checkAugmentBounds(base);
  const run = augmentRunOf(base, options);
  const seed = String(options.seed);
  const variantSeed = `${seed}/${original.id}/${variantIndex}`;
  const rng = createRandom(variantSeed);
  const planned = options.plan.sample(rng.fork('plan'), options.severity ?? options.plan.severity ?? 0.5);
  const variant = await applyPlanSteps(
    base,
    baseState(base),
    planned.map((step, index) => ({ index, step })),
    {
      rng,
      original,
      ...(options.regenerate ? { regenerate: options.regenerate } : {}),
      run,
    },
  );
  const result = certifiedRow({
    base,
    baseHash: run.baseHash,
    harness: variant.harness,
    original,
    relabel: variant.relabel,
    variantIndex,
    run,
    idSeed: variantSeed,
    provenance: {
      seed,
      variantSeed,
      ops: variant.ops,
      skipped: variant.skipped,
      planned: dimensions.filter((dimension) =>
        planned.some((step) => step.operator.dimension === dimension),
      ),
      changed: variant.changed,
    },
  });
  if ('issues' in result)
    return { reject: { reason: 'uncertified', exampleId: original.id, variantIndex, issues: result.issues } };
  return result;
}

/**
 * Augments trajectories under a plan: for each valid example, `variants` certified rows in order. Bad
 * inputs and uncertified variants go to `onReject` with their reason; nothing is silently dropped.
 *
 * @example
 * for await (const row of augment(harness, trajectories, { plan: compilePolicy(parsePolicy(presets.hat), registry), variants: 8, seed: 42 })) {
 *   out.write(`${JSON.stringify(row)}\n`);
 * }
 */
export async function* augment(
  base: Harness,
  trajectories: Iterable<AugmentInput> | AsyncIterable<AugmentInput>,
  options: AugmentOptions,
): AsyncGenerator<AugmentRow> {
  checkAugmentBounds(base);
  // One run for the whole input: the facts of an example's variants are shared by its steps and its rows.
  const run = augmentRunOf(base, options);
  const perExample = { ...options, run };
  const reject = options.onReject ?? (() => {});
  const pool = options.parallel ? undefined : variantPoolFor(base, perExample);
  const runVariants =
    options.parallel?.augmentVariants ??
    (async (trajectory: Trajectory) => {
      const results: ExampleResult[] = [];
      for (let variantIndex = 0; variantIndex < options.variants; variantIndex++)
        results.push(
          await (pool
            ? pool.augment(trajectory, variantIndex)
            : augmentExample(base, trajectory, variantIndex, perExample)),
        );
      return results;
    });
  const concurrency = Math.max(1, Math.floor(options.parallel?.concurrency ?? 1));
  // An ordered window: examples start as they are read, their results come out in input order. `onExample`
  // is called when an example's turn to come out arrives, so that everything reported before it belongs to
  // the examples before it (the CLI's checkpoint units rely on this).
  const window: Array<{ position: number; at: { line?: number }; results: Promise<ExampleResult[]> }> = [];
  async function* drain(keep: number): AsyncGenerator<AugmentRow> {
    while (window.length > keep) {
      const { position: done, at, results } = window.shift() as (typeof window)[number];
      options.onExample?.(done);
      for (const result of await results) {
        if ('row' in result) yield result.row;
        else reject({ ...result.reject, ...at });
      }
    }
  }
  // The ids seen so far, as 16-byte digests: a duplicate is caught anywhere in the input, at a cost per
  // example that does not depend on the id's length (./digest-set.ts).
  const seen = new DigestSet();
  let position = -1;
  let skip = options.skipExamples ?? 0;
  for await (const item of trajectories as AsyncIterable<AugmentInput>) {
    position++;
    if (options.shard && position % options.shard.count !== options.shard.index) continue;
    if (skip > 0) {
      skip--;
      const value = isRecord(item) ? item.value : item;
      if (isRecord(item) && item.issue) continue;
      const validation = validateTrajectory(value, base);
      if (validation.valid && validation.trajectory) seen.add(digestOfText(validation.trajectory.id));
      continue;
    }
    const line = isRecord(item) ? item.line : undefined;
    const at = line === undefined ? {} : { line };
    const early = (value: AugmentReject) => {
      window.push({ position, at: {}, results: Promise.resolve([{ reject: value }]) });
    };
    if (isRecord(item) && item.issue) {
      early({
        reason: item.issue.code === 'forbidden_key' ? 'forbidden_key' : 'syntax_error',
        ...at,
        issues: [item.issue],
      });
      yield* drain(concurrency - 1);
      continue;
    }
    const value = isRecord(item) ? item.value : item;
    const validation = validateTrajectory(value, base, hookCheckOptions(run));
    const exampleId = validation.trajectory?.id ?? (value as { id?: unknown } | null)?.id;
    const example = typeof exampleId === 'string' ? { exampleId } : {};
    if (!validation.valid || !validation.trajectory) {
      early({ reason: 'invalid_trajectory', ...example, ...at, issues: validation.issues });
      yield* drain(concurrency - 1);
      continue;
    }
    if (!seen.add(digestOfText(validation.trajectory.id))) {
      const issue = {
        code: 'duplicate_id',
        path: ['id'],
        message: `trajectory id "${validation.trajectory.id}" appears twice`,
      };
      early({ reason: 'duplicate_id', ...example, ...at, issues: [issue] });
      yield* drain(concurrency - 1);
      continue;
    }
    const results = runVariants(validation.trajectory);
    // A failure is observed when its turn comes; until then it must not count as unhandled.
    results.catch(() => undefined);
    window.push({ position, at, results });
    yield* drain(concurrency - 1);
  }
  yield* drain(0);
}

/**
 * The variant pool of a run under these options, or `undefined` when `pool.size` is 0 (every variant is then
 * built for its example alone). Examples that no pool entry certifies fall back to `augmentExample`.
 *
 * @example
 * const pool = variantPoolFor(harness, { plan, seed: 42 });
 * const result = pool ? await pool.augment(trajectory, 0) : await augmentExample(harness, trajectory, 0, { plan, seed: 42 });
 */
export function variantPoolFor(
  base: Harness,
  options: Pick<AugmentOptions, 'plan' | 'seed' | 'severity' | 'regenerate' | 'hookChecks' | 'run' | 'pool'>,
  source?: VariantPoolOptions['source'],
): VariantPool | undefined {
  const size = options.pool?.size ?? defaultVariantPoolSize;
  if (size <= 0) return undefined;
  // The pool's builds and its examples' own builds are one run.
  const run = augmentRunOf(base, options);
  return createVariantPool(
    base,
    {
      plan: options.plan,
      seed: options.seed,
      size,
      attempts: options.pool?.attempts ?? defaultPoolAttempts,
      ...(options.pool?.label !== undefined ? { label: options.pool.label } : {}),
      ...(options.severity !== undefined ? { severity: options.severity } : {}),
      ...(options.regenerate ? { regenerate: options.regenerate } : {}),
      run,
      ...(source ? { source } : {}),
    },
    (trajectory, variantIndex) => augmentExample(base, trajectory, variantIndex, { ...options, run }),
  );
}

/** Dimensions a row's policy perturbed: those of the operators that applied. */
export function dimensionsOf(row: Pick<AugmentRow, 'provenance'>): Dimension[] {
  return dimensions.filter((dimension) =>
    row.provenance.ops.some((record) => record.dimension === dimension),
  );
}
