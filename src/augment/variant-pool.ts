// The variant pool: variant harnesses built once per (base, plan, severity, seed, label) and shared across
// examples. Entry j is built from the seed `seed/<label>/j` (label `pool` unless told) without any example;
// each (example, variant index) draws an entry from its own seed, never from processing order, so shards,
// worker threads and resumed runs give the same rows. Steps that need the example (they skip without one:
// hook facts, unused tools, merges) are applied per example on top of the entry, from the entry's own
// generator. The operators that decide from the example are given it; the others answer as at the entry,
// once for the entry (`exampleFreeAnswers`), and are given the example only where they skip without it; the
// row is then checked against the example as an entry's is. Examples that give such a step the same facts
// get the same variant. The relabel and the certificate are always per example.
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { Issue } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';
import type { Relabel } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';
import {
  applyPlanSteps,
  baseState,
  type ExampleFreeAnswers,
  exampleFreeAnswers,
  type PlanStep,
} from './apply-plan.js';
import { type AugmentRun, augmentRunOf } from './augment-run.js';
import { certifiedRow, variantIdOf } from './certified-row.js';
import { type EntryProof, proveEntry } from './entry-proof.js';
import { type Dimension, dimensions, type OperatorRecord, type RegenerateFunction } from './operator.js';
import type { Plan } from './plan.js';
import { createRandom } from './random.js';
import type { AugmentRow, ExampleResult, PoolProvenance, Provenance } from './row.js';
import { checkAugmentBounds } from './size-bound.js';
import {
  namesMatchedByPatterns,
  parameterNamesInReplies,
  plainToolNamesWritten,
  trajectoryReplies,
} from './unfollowable-names.js';
import { defaultVariantPoolSize } from './variant-pool-size.js';

/** How a pool is made and drawn from. */
export interface VariantPoolOptions {
  plan: Plan;
  seed: string | number;
  /** Severity used where the plan's operators do not set one (default: the plan's own, else 0.5). */
  severity?: number;
  /** Entries in the pool (distinct seeds); at least 1. Default `defaultVariantPoolSize`. */
  size?: number;
  /**
   * The name of the pool in its entries' seeds, `seed/<label>/index` (default `pool`): pools of one seed
   * under other labels hold other variants (the bench's are not the training pool's).
   */
  label?: string;
  /**
   * Entries an example tries, from the one it draws onwards, before its variant is built for it alone (the
   * per-example path of `augmentExample`); default `defaultPoolAttempts`.
   */
  attempts?: number;
  regenerate?: RegenerateFunction;
  /** The custom hook checks the harness names; ignored when `run` is given. */
  hookChecks?: HookCheckRegistry | undefined;
  /** The run the pool belongs to (`createAugmentRun`); default: one of its own. */
  run?: AugmentRun;
  /**
   * Where entries come from instead of being built here (a worker thread asks the main thread): called
   * for an entry this pool has neither built nor taken; `undefined` builds it here.
   */
  source?: (index: number) => Promise<PoolEntryData> | undefined;
}

export { defaultVariantPoolSize };
/** Pool entries an example tries before its own build. */
export const defaultPoolAttempts = 3;

/**
 * One shared variant as plain data: what the plan's example-free steps made of the base, with the steps
 * left for each example named by their index in the entry's sampled plan. Another thread's pool takes it
 * (`VariantPoolOptions.source`) instead of building it again.
 */
export interface PoolEntryData {
  index: number;
  seed: string;
  harness: Harness;
  relabels: readonly Relabel[];
  relabel: Relabel;
  ops: OperatorRecord[];
  skipped: Provenance['skipped'];
  changed: Dimension[];
  planned: Dimension[];
  /** Indexes (in the entry's sampled plan) of the steps tried again for each example. */
  deferred: number[];
  /**
   * The top-level parts the entry's harness holds as the base's own objects (the content check skips a
   * part the variant shares with the base): a pool that takes the entry puts its base's objects back there.
   */
  baseParts: string[];
}

/** One shared variant: what the plan's example-free steps made of the base. */
interface PoolEntry {
  index: number;
  seed: string;
  harness: Harness;
  relabels: readonly Relabel[];
  /** The composed relabel of the shared steps (one object for every example that uses the entry). */
  relabel: Relabel;
  ops: OperatorRecord[];
  skipped: Provenance['skipped'];
  changed: Dimension[];
  planned: Dimension[];
  /** Steps whose operators all skipped without an example: tried again for each example. */
  deferred: PlanStep[];
  /** What the entry proves once for every row drawn from it (`proveEntry`). */
  proof: EntryProof;
  /** What its deferred steps' candidates answered without reading an example: the same for every example. */
  exampleFree: ExampleFreeAnswers;
}

export type { PoolProvenance } from './row.js';

/**
 * A seeded pool of shared variants. `augment` gives what `augmentExample` gives (a certified row or the
 * reason there is none), drawing the variant from the pool; entries are built on first use.
 *
 * @example
 * const pool = createVariantPool(harness, { plan, seed: 42 });
 * const result = await pool.augment(trajectory, 0);
 */
export interface VariantPool {
  readonly size: number;
  augment(original: Trajectory, variantIndex: number): Promise<ExampleResult>;
  /** Entries built or taken from `source` so far (for reports and tests). */
  built(): number;
  /** Entry `index` as plain data (built here on first use), for another thread's pool to take. */
  entryData(index: number): Promise<PoolEntryData>;
}

/**
 * The entry an (example, variant index) draws first: from its own seed, never from processing order. It
 * tries the next ones (modulo `size`) when that one does not certify.
 *
 * @example
 * drawnEntry('42', 'ex-1', 0, 256) // a number in [0, 255]
 */
export function drawnEntry(
  seed: string | number,
  exampleId: string,
  variantIndex: number,
  size: number,
): number {
  return createRandom(`${seed}/${exampleId}/${variantIndex}`)
    .fork('pool')
    .int(0, size - 1);
}

/** What `createVariantPool` needs to fall back to a per-example build. */
export type BuildForExample = (original: Trajectory, variantIndex: number) => Promise<ExampleResult>;

/**
 * Creates the pool of one run. Each (example, variant index) draws entry `start` from `seed/exampleId/index`
 * and tries `attempts` entries from there; where none certifies (or gives a row), `buildForExample` makes the
 * variant for that example alone, and its result (row or reject) stands.
 *
 * @example
 * const pool = createVariantPool(harness, { plan, seed: 42, size: 256 }, (t, i) => augmentExample(harness, t, i, options));
 */
export function createVariantPool(
  base: Harness,
  options: VariantPoolOptions,
  buildForExample: BuildForExample,
): VariantPool {
  checkAugmentBounds(base);
  const size = Math.max(1, Math.floor(options.size ?? defaultVariantPoolSize));
  const attempts = Math.max(1, Math.min(size, Math.floor(options.attempts ?? defaultPoolAttempts)));
  const seed = String(options.seed);
  const entrySeedOf = (index: number) => `${seed}/${options.label ?? 'pool'}/${index}`;
  const severity = options.severity ?? options.plan.severity ?? 0.5;
  const run = augmentRunOf(base, options);
  const baseHash = run.baseHash;
  const entries = new Map<number, Promise<PoolEntry>>();
  // The plan's operators by id: an entry's steps ask theirs whether the entry fits an example.
  const operatorsById = new Map(options.plan.operators.map((operator) => [operator.id, operator]));
  /** Why a variant does not fit the example, from an operator of its steps (`fitsExample`). */
  const unfitFor = (
    ops: readonly OperatorRecord[],
    variant: Harness,
    trajectory: Trajectory,
  ): string | undefined => {
    for (const record of ops) {
      const reason = operatorsById.get(record.name)?.fitsExample?.({ base, variant, trajectory });
      if (reason !== undefined) return reason;
    }
    return undefined;
  };
  // The id of each entry's variant as the entry gives it (rows that took no step of their own share it).
  const variantIds = new WeakMap<PoolEntry, string>();
  const variantIdFor = (shared: PoolEntry) => {
    let id = variantIds.get(shared);
    if (id === undefined) {
      id = variantIdOf(baseHash, shared.ops, shared.seed);
      variantIds.set(shared, id);
    }
    return id;
  };

  const entry = (index: number): Promise<PoolEntry> => {
    let found = entries.get(index);
    if (!found) {
      const elsewhere = options.source?.(index);
      found = elsewhere ? elsewhere.then(fromData) : buildEntry(index);
      entries.set(index, found);
    }
    return found;
  };

  /** An entry another pool built, with this pool's base objects and plan steps put back. */
  function fromData(data: PoolEntryData): PoolEntry {
    if (data.seed !== entrySeedOf(data.index))
      throw new Error(`pool entry ${data.index} has seed ${data.seed}: it belongs to another pool`);
    const planned = plannedOf(data.seed);
    const deferred = data.deferred.map((stepIndex) => {
      const step = planned[stepIndex];
      if (!step) throw new Error(`pool entry ${data.index} defers step ${stepIndex}, which its plan lacks`);
      return { index: stepIndex, step };
    });
    const { baseParts, ...shared } = data;
    const harness = deepFreeze(
      Object.fromEntries(
        Object.entries(data.harness).map(([part, value]) => [
          part,
          baseParts.includes(part) ? base[part as keyof Harness] : value,
        ]),
      ) as Harness,
    );
    const relabel = deepFreeze(data.relabel);
    return {
      ...shared,
      harness,
      relabel,
      deferred,
      proof: proveEntry(data.seed, base, harness, relabel),
      exampleFree: exampleFreeAnswers(),
    };
  }

  /** The plan an entry samples (the same in every thread: from the entry's seed alone). */
  const plannedOf = (entrySeed: string) =>
    options.plan.sample(createRandom(entrySeed).fork('plan'), severity);

  async function buildEntry(index: number): Promise<PoolEntry> {
    const entrySeed = entrySeedOf(index);
    const rng = createRandom(entrySeed);
    const planned = plannedOf(entrySeed);
    // Without an example: what an operator checks against the example (`certifies`) cannot run here,
    // and the steps none of whose operators applies are the example's to try (`deferred`).
    const built = await applyPlanSteps(
      base,
      baseState(base),
      planned.map((step, stepIndex) => ({ index: stepIndex, step })),
      { rng, ...(options.regenerate ? { regenerate: options.regenerate } : {}), run },
    );
    const harness = deepFreeze(built.harness);
    const relabel = deepFreeze(built.relabel);
    return {
      index,
      seed: entrySeed,
      harness,
      relabels: built.relabels,
      relabel,
      proof: proveEntry(entrySeed, base, harness, relabel),
      ops: built.ops,
      skipped: built.skipped,
      changed: dimensions.filter((dimension) => built.changed.has(dimension)),
      planned: dimensions.filter((dimension) =>
        planned.some((step) => step.operator.dimension === dimension),
      ),
      deferred: built.deferred,
      exampleFree: exampleFreeAnswers(),
    };
  }

  /** The row of `original` under one entry, or the issues that kept it from certifying. */
  async function instantiate(
    shared: PoolEntry,
    original: Trajectory,
    variantIndex: number,
    attempt: number,
  ): Promise<{ row: AugmentRow } | { issues: Issue[] }> {
    const variantSeed = `${seed}/${original.id}/${variantIndex}`;
    // The deferred steps, with the example, under the same rule as every other step, from the entry's
    // generator (the fork `op/<index>` the entry's build gave the step).
    const variant =
      shared.deferred.length > 0
        ? await applyPlanSteps(base, { ...shared, changed: new Set(shared.changed) }, shared.deferred, {
            rng: createRandom(shared.seed),
            original,
            ...(options.regenerate ? { regenerate: options.regenerate } : {}),
            run,
            exampleFree: shared.exampleFree,
            walkProof: shared.proof.walk,
          })
        : undefined;
    const perExample = variant?.applied ?? 0;
    // A variant shared by every example that uses the entry as it is has one id; one that took steps for
    // this example is this example's own.
    const pool: PoolProvenance = { seed: shared.seed, index: shared.index, size, attempt, perExample };
    return certifiedRow({
      base,
      baseHash,
      harness: variant?.harness ?? shared.harness,
      original,
      relabel: perExample > 0 && variant ? variant.relabel : shared.relabel,
      variantIndex,
      run,
      idSeed: perExample > 0 ? `${shared.seed}|${variantSeed}` : shared.seed,
      ...(perExample > 0 ? {} : { variantId: variantIdFor(shared) }),
      proof: shared.proof,
      provenance: {
        seed,
        variantSeed,
        ops: variant?.ops ?? [...shared.ops],
        skipped: variant?.skipped ?? [...shared.skipped],
        planned: shared.planned,
        changed: variant?.changed ?? new Set(shared.changed),
        pool,
      },
    });
  }

  return {
    size,
    built: () => entries.size,
    async entryData(index) {
      const {
        deferred,
        proof: _madeAgainWhereTaken,
        exampleFree: _keptPerThread,
        ...shared
      } = await entry(index);
      const baseParts = Object.keys(shared.harness).filter(
        (part) => shared.harness[part as keyof Harness] === base[part as keyof Harness],
      );
      return { ...shared, deferred: deferred.map((step) => step.index), baseParts };
    },
    async augment(original, variantIndex) {
      const start = drawnEntry(seed, original.id, variantIndex, size);
      const replies = trajectoryReplies(original);
      for (let attempt = 0; attempt < attempts; attempt++) {
        const shared = await entry((start + attempt) % size);
        // An entry is built without an example, so its guards read only the harness: one that renames a name
        // this example's replies write where a rename cannot follow ("I'll call fetch again", "set raw to
        // true") is not this example's; its own build, which reads the replies, keeps that name.
        if (leavesNamesInReplies(shared.relabel, replies)) continue;
        // So is one whose operators' own example guards refuse it (`Operator.fitsExample`).
        if (unfitFor(shared.ops, shared.harness, original) !== undefined) continue;
        // An entry none of whose steps applied, here or for this example, is the base itself: its row would be
        // an unchanged copy (a policy of tools steps on a harness without skills draws such entries), which
        // the next entry may spare. The last resort below may still give one, and an empty plan (`identity`)
        // gives nothing else.
        const changes = shared.planned.length > 0;
        if (changes && shared.ops.length === 0 && shared.deferred.length === 0) continue;
        const result = await instantiate(shared, original, variantIndex, attempt);
        if (!('row' in result) || (changes && result.row.provenance.ops.length === 0)) continue;
        // The steps taken for the example asked the operators that do not decide from it as the entry's
        // did, without the example (`ApplyStepsContext.exampleFree`): the same guards read what they made.
        const { row } = result;
        if (
          row.provenance.pool?.perExample &&
          (leavesNamesInReplies(row.relabel, replies) ||
            unfitFor(row.provenance.ops, row.harness, original) !== undefined)
        )
          continue;
        return result;
      }
      return buildForExample(original, variantIndex);
    },
  };
}

/**
 * Whether the relabel renames a tool or a parameter that the replies write where a rename cannot follow, or
 * moves a tool into or out of a family a name pattern of the replies addresses ("the search_* tools").
 */
function leavesNamesInReplies(relabel: Relabel, replies: readonly string[]): boolean {
  if (replies.length === 0) return false;
  const tools: string[] = [];
  const newToolNames: string[] = [];
  const parameters: string[] = [];
  for (const step of relabel.steps) {
    if (step.type === 'rename_tools') {
      tools.push(...Object.keys(step.map));
      newToolNames.push(...Object.values(step.map));
    } else if (step.type === 'rename_arguments')
      parameters.push(...step.renames.map((rename) => rename.from));
  }
  return (
    (tools.length > 0 && plainToolNamesWritten(tools, replies).size > 0) ||
    (tools.length > 0 && namesMatchedByPatterns([...tools, ...newToolNames], replies).size > 0) ||
    (parameters.length > 0 && parameterNamesInReplies(replies, [...new Set(parameters)]).size > 0)
  );
}

/** Freezes a shared value and everything in it: rows of many examples hold the same objects. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
