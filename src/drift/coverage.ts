// Whether a policy's variant distribution covers a real edit: an operator that makes an edit of the kind is
// in the plan with non-zero probability at a severity that reaches the edit's magnitude (how many of the
// part's items `affectedCount` lets it touch), AND a seeded sample of the policy's variants of the older
// version holds an edit of that kind and at least that magnitude, as `describeEdit` reads it. The sample is
// built by the library's own plan machinery (`plan.sample`, `applyPlanSteps`), the way a variant pool builds
// its entries, so it is the distribution `hsa augment` draws from.

import { applyPlanSteps, baseState } from '../augment/apply-plan.js';
import { applyOperator, type Dimension } from '../augment/operator.js';
import type { Plan, PlannedOperator } from '../augment/plan.js';
import { type Policy, severityLevels } from '../augment/policy.js';
import { createRandom } from '../augment/random.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { type RunContext, runContextOf } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { affectedCount } from '../kit/severity.js';
import type { Trajectory } from '../trajectory/schema.js';
import { type ChangeKind, changeKinds } from './change-kinds.js';
import { type DriftChange, describeEdit } from './describe-edit.js';

/** One operator of a policy as the coverage check sees it: its chance to run and its severity. */
export interface PolicyOperatorEntry {
  operator: string;
  dimension: Dimension;
  /** Chance the operator's dimension is perturbed in a variant. */
  probability: number;
  severity: number;
}

/**
 * The operators a policy may apply, with the chance of their dimension and their severity (the operator's
 * own, else the policy's, else `severity`).
 *
 * @example
 * policyOperators(parsePolicy(presets.hat), 0.5).find((entry) => entry.operator === 'tools/rename')
 */
export function policyOperators(policy: Policy, severity: number): PolicyOperatorEntry[] {
  const listed = Object.keys(policy.dimensions).length;
  const entries: PolicyOperatorEntry[] = [];
  for (const [dimension, entry] of Object.entries(policy.dimensions)) {
    if (!entry) continue;
    const probability = policy.choose === undefined ? entry.probability : policy.choose / listed;
    for (const item of entry.operators) {
      const spec = typeof item === 'string' ? { op: item } : item;
      const own = 'severity' in spec && spec.severity !== undefined ? spec.severity : undefined;
      entries.push({
        operator: spec.op,
        dimension: dimension as Dimension,
        probability,
        severity: own === undefined ? severity : typeof own === 'number' ? own : severityLevels[own],
      });
    }
  }
  return entries;
}

/** What a seeded sample of a policy's variants of one harness holds. */
export interface VariantSample {
  size: number;
  /** For each kind seen: how many variants hold it, and the largest count among them. */
  kinds: Partial<Record<ChangeKind, { variants: number; largest: number }>>;
  /** Operators that could not run without an example in some sampled variant. */
  needExample: string[];
}

export interface SampleOptions {
  plan: Plan;
  severity: number;
  seed: string;
  size: number;
  /** Gold trajectories of the harness: operators that need an example (hook budgets) run on them. */
  examples?: readonly Trajectory[];
  /** The run the sample belongs to (default: one of its own, with `hookChecks`). */
  run?: RunContext | undefined;
  /** The custom hook checks the harness names (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
}

/**
 * Builds `size` variants of `base` from the plan (variant j from the seed `<seed>/<j>`) and reads what each
 * changed with `describeEdit`.
 *
 * @example
 * const sample = await sampleVariants(v1, { plan, severity: 0.5, seed: 'drift', size: 32 });
 */
export async function sampleVariants(base: Harness, options: SampleOptions): Promise<VariantSample> {
  const kinds: VariantSample['kinds'] = {};
  const needExample = new Set<string>();
  const applied = new Set<string>();
  const candidates = new Map<string, PlannedOperator>();
  // The run's facts of the examples are shared by the variants built on them.
  const run = runContextOf(options.run, options.hookChecks);
  for (let index = 0; index < options.size; index++) {
    const seed = `${options.seed}/${index}`;
    const planned = options.plan.sample(createRandom(seed).fork('plan'), options.severity);
    const example = options.examples?.length ? options.examples[index % options.examples.length] : undefined;
    const built = await applyPlanSteps(
      base,
      baseState(base),
      planned.map((step, stepIndex) => ({ index: stepIndex, step })),
      {
        rng: createRandom(seed),
        ...(example ? { original: example } : {}),
        run,
      },
    );
    // A deferred step's candidates that say they decide from the example; its others are tried alone below.
    for (const { step } of built.deferred)
      for (const candidate of [step, ...(step.fallbacks ?? [])])
        if (candidate.operator.needsExample) needExample.add(candidate.operator.id);
    for (const record of built.ops) applied.add(record.name);
    for (const step of planned)
      for (const candidate of [step, ...(step.fallbacks ?? [])])
        candidates.set(candidate.operator.id, candidate);
    for (const change of describeEdit(base, built.harness)) {
      const seen = kinds[change.kind] ?? { variants: 0, largest: 0 };
      kinds[change.kind] = { variants: seen.variants + 1, largest: Math.max(seen.largest, change.count) };
    }
  }
  // A fallback behind a candidate that applied was never tried: without examples, one that no sampled
  // variant applied is tried alone on the base, and one that skips there needs an example too, as a deferred
  // step's candidates do (a budget hook behind a feedback rewording that applies).
  if (!options.examples?.length)
    for (const [id, candidate] of [...candidates].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (applied.has(id) || needExample.has(id)) continue;
      const alone = await applyOperator(candidate.operator, base, {
        rng: createRandom(`${options.seed}/alone/${id}`),
        severity: candidate.severity,
        params: candidate.params,
        run,
      });
      if ('skip' in alone) needExample.add(id);
    }
  return { size: options.size, kinds, needExample: [...needExample].sort() };
}

/** The verdict on one change. */
export interface ChangeCoverage {
  covered: boolean;
  reason: string;
  /** For an uncovered change: what would cover it (an operator to add, a severity to reach). */
  suggestion?: string;
}

const levelNames = Object.entries(severityLevels) as Array<[string, number]>;

/** The smallest named severity that lets an operator touch `count` of `total` items. */
function neededLevel(count: number, total: number): string {
  const level = levelNames.find(([, value]) => affectedCount(value, total) >= count);
  return level ? level[0] : 'heavy';
}

/**
 * Whether a policy covers one task-preserving change (see the file comment).
 *
 * @example
 * changeCoverage(change, policyOperators(policy, 0.5), sample)
 */
export function changeCoverage(
  change: DriftChange,
  operators: readonly PolicyOperatorEntry[],
  sample: VariantSample,
): ChangeCoverage {
  const spec = changeKinds[change.kind];
  const magnitude = `${change.count} of ${change.total}`;
  if (spec.operators.length === 0)
    return {
      covered: false,
      reason: `no built-in operator makes ${change.kind} (${spec.summary})`,
      suggestion: `a custom ${change.dimension} operator that makes ${change.kind}`,
    };
  const candidates = operators.filter(
    (entry) => (spec.operators as readonly string[]).includes(entry.operator) && entry.probability > 0,
  );
  if (candidates.length === 0)
    return {
      covered: false,
      reason: `the policy has no ${spec.operators.join(' or ')} with non-zero probability`,
      suggestion: `add ${spec.operators[0]} to dimensions.${change.dimension} at severity ${neededLevel(change.count, change.total)} or more`,
    };
  const reaching = candidates.filter((entry) => affectedCount(entry.severity, change.total) >= change.count);
  if (reaching.length === 0) {
    const best = candidates.reduce((a, b) => (b.severity > a.severity ? b : a));
    return {
      covered: false,
      reason: `${best.operator} runs at severity ${best.severity} (${affectedCount(best.severity, change.total)} of ${change.total}); the edit touched ${magnitude}`,
      suggestion: `run ${best.operator} at severity ${neededLevel(change.count, change.total)}`,
    };
  }
  const seen = sample.kinds[change.kind];
  const names = reaching
    .map((entry) => `${entry.operator} (p ${entry.probability}, severity ${entry.severity})`)
    .join(', ');
  if (!seen || seen.largest < change.count) {
    const waiting = reaching.filter((entry) => sample.needExample.includes(entry.operator));
    return {
      covered: false,
      reason: `${names} in the plan, but none of ${sample.size} sampled variants made ${change.kind} of ${magnitude}${seen ? ` (largest ${seen.largest})` : ''}${waiting.length > 0 ? `: ${waiting.map((entry) => entry.operator).join(', ')} needs an example` : ''}`,
      suggestion:
        waiting.length > 0
          ? 'pass --trajectories (gold trajectories of the older version) so that operators that need an example run'
          : `raise the weight or probability of ${reaching[0]?.operator}, or sample more variants`,
    };
  }
  return {
    covered: true,
    reason: `${names}; ${seen.variants} of ${sample.size} sampled variants make ${change.kind} (up to ${seen.largest} of ${change.total})`,
  };
}
