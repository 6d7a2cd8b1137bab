// The variant pool: variant harnesses built once per (base, plan, severity, seed) and shared across examples.
// Entry j is built from the seed `seed/pool/j` without any example; each (example, variant index) draws an
// entry from its own seed, never from processing order, so shards, worker threads and resumed runs give the
// same rows. Steps that need the example (they skip without one: hook facts, unused tools, merges) are
// applied per example on top of the entry; the relabel and the certificate are always per example.
import { hashHarness } from '../harness/hash.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { Issue } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';
import { composeRelabels, forwardTrajectory, type Relabel } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';
import type { AugmentRow, ExampleResult, Provenance } from './augment.js';
import { certifiedRow } from './certified-row.js';
import { checkContentPreservation } from './content-preservation.js';
import {
  applyOperator,
  type Dimension,
  dimensions,
  type OperatorRecord,
  type RegenerateFunction,
} from './operator.js';
import type { Plan, PlannedOperator } from './plan.js';
import { createRandom } from './random.js';

/** How a pool is made and drawn from. */
export interface VariantPoolOptions {
  plan: Plan;
  seed: string | number;
  /** Severity used where the plan's operators do not set one (default: the plan's own, else 0.5). */
  severity?: number;
  /** Entries in the pool (distinct seeds); at least 1. Default `defaultVariantPoolSize`. */
  size?: number;
  /**
   * Entries an example tries, from the one it draws onwards, before its variant is built for it alone (the
   * per-example path of `augmentExample`); default `defaultPoolAttempts`.
   */
  attempts?: number;
  regenerate?: RegenerateFunction;
  hookChecks?: HookCheckRegistry;
}

/** Entries in a pool unless told otherwise (the trade-off between shared work and diversity: docs/performance.md). */
export const defaultVariantPoolSize = 256;
/** Pool entries an example tries before its own build. */
export const defaultPoolAttempts = 3;

/** One shared variant: what the plan's example-free steps made of the base. */
interface PoolEntry {
  index: number;
  seed: string;
  harness: Harness;
  relabels: Relabel[];
  /** The composed relabel of the shared steps (one object for every example that uses the entry). */
  relabel: Relabel;
  ops: OperatorRecord[];
  skipped: Provenance['skipped'];
  changed: Dimension[];
  planned: Dimension[];
  /** Steps whose operators all skipped without an example: tried again for each example. */
  deferred: Array<{ index: number; step: PlannedOperator }>;
}

/** Where a pooled row's variant came from, in its provenance. */
export interface PoolProvenance {
  /** The entry's seed, `seed/pool/index`. */
  seed: string;
  index: number;
  size: number;
  /** 0 when the drawn entry certified, n when the n-th next one did. */
  attempt: number;
  /** Operators applied for this example on top of the entry. */
  perExample: number;
}

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
  /** Entries built so far (for reports and tests). */
  built(): number;
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
  const size = Math.max(1, Math.floor(options.size ?? defaultVariantPoolSize));
  const attempts = Math.max(1, Math.min(size, Math.floor(options.attempts ?? defaultPoolAttempts)));
  const seed = String(options.seed);
  const severity = options.severity ?? options.plan.severity ?? 0.5;
  const checks = options.hookChecks ? { hookChecks: options.hookChecks } : {};
  const baseHash = hashHarness(base).harness;
  const entries = new Map<number, Promise<PoolEntry>>();

  const entry = (index: number): Promise<PoolEntry> => {
    let found = entries.get(index);
    if (!found) {
      found = buildEntry(index);
      entries.set(index, found);
    }
    return found;
  };

  async function buildEntry(index: number): Promise<PoolEntry> {
    const entrySeed = `${seed}/pool/${index}`;
    const rng = createRandom(entrySeed);
    const planned = options.plan.sample(rng.fork('plan'), severity);
    let harness = base;
    const relabels: Relabel[] = [];
    const ops: OperatorRecord[] = [];
    const skipped: Provenance['skipped'] = [];
    const changed = new Set<Dimension>();
    const deferred: PoolEntry['deferred'] = [];
    for (const [stepIndex, step] of planned.entries()) {
      const reasons: Provenance['skipped'] = [];
      let applied = false;
      for (const candidate of [step, ...(step.fallbacks ?? [])] as PlannedOperator[]) {
        const result = await applyOperator(candidate.operator, harness, {
          rng: rng.fork(`op/${stepIndex}`),
          severity: candidate.severity,
          params: candidate.params,
          ...(options.regenerate ? { regenerate: options.regenerate } : {}),
          ...checks,
        });
        if ('skip' in result) {
          reasons.push({ name: candidate.operator.id, reason: result.skip });
          continue;
        }
        // What an operator checks against the example it is given (`certifiedUnder`) cannot be checked
        // here; the part of the certificate that needs no example can: the protected content of the texts.
        if (
          !checkContentPreservation(base, result.harness, composeRelabels(...relabels, result.relabel)).kept
        ) {
          reasons.push({ name: candidate.operator.id, reason: 'changes protected content of the base' });
          continue;
        }
        harness = result.harness;
        relabels.push(result.relabel);
        ops.push(result.record);
        if (result.changed) changed.add(result.record.dimension);
        applied = true;
        break;
      }
      // A step none of whose operators applies without an example is the example's to try.
      if (applied) skipped.push(...reasons);
      else deferred.push({ index: stepIndex, step });
    }
    return {
      index,
      seed: entrySeed,
      harness: deepFreeze(harness),
      relabels,
      relabel: deepFreeze(composeRelabels(...relabels)),
      ops,
      skipped,
      changed: dimensions.filter((dimension) => changed.has(dimension)),
      planned: dimensions.filter((dimension) =>
        planned.some((step) => step.operator.dimension === dimension),
      ),
      deferred,
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
    let harness = shared.harness;
    let relabel = shared.relabel;
    const ops = [...shared.ops];
    const skipped = [...shared.skipped];
    const changed = new Set(shared.changed);
    let perExample = 0;
    if (shared.deferred.length > 0) {
      const rng = createRandom(variantSeed);
      const relabels = [...shared.relabels];
      for (const { index, step } of shared.deferred) {
        // The example in the vocabulary of the harness the operator is given.
        const current = forwardTrajectory(original, relabel, harness, checks).trajectory;
        for (const candidate of [step, ...(step.fallbacks ?? [])] as PlannedOperator[]) {
          const result = await applyOperator(candidate.operator, harness, {
            rng: rng.fork(`op/${index}`),
            severity: candidate.severity,
            params: candidate.params,
            trajectory: current,
            ...(options.regenerate ? { regenerate: options.regenerate } : {}),
            ...checks,
          });
          if ('skip' in result) {
            skipped.push({ name: candidate.operator.id, reason: result.skip });
            continue;
          }
          harness = result.harness;
          relabels.push(result.relabel);
          relabel = composeRelabels(...relabels);
          ops.push(result.record);
          if (result.changed) changed.add(result.record.dimension);
          perExample++;
          break;
        }
      }
    }
    // A variant shared by every example that uses the entry as it is has one id; one that took steps for
    // this example is this example's own.
    const pool: PoolProvenance = { seed: shared.seed, index: shared.index, size, attempt, perExample };
    return certifiedRow({
      base,
      baseHash,
      harness,
      original,
      relabel,
      variantIndex,
      ...checks,
      idSeed: perExample > 0 ? `${shared.seed}|${variantSeed}` : shared.seed,
      provenance: { seed, variantSeed, ops, skipped, planned: shared.planned, changed, pool },
    });
  }

  return {
    size,
    built: () => entries.size,
    async augment(original, variantIndex) {
      const start = createRandom(`${seed}/${original.id}/${variantIndex}`)
        .fork('pool')
        .int(0, size - 1);
      for (let attempt = 0; attempt < attempts; attempt++) {
        const result = await instantiate(
          await entry((start + attempt) % size),
          original,
          variantIndex,
          attempt,
        );
        if ('row' in result) return result;
      }
      return buildForExample(original, variantIndex);
    },
  };
}

/** Freezes a shared value and everything in it: rows of many examples hold the same objects. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
