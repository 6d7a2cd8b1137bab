// Drift coverage: each consecutive pair of a harness's real versions described (`describeEdit`), and each
// task-preserving change held against a policy (`changeCoverage`). The document is plain data, the same
// bytes for the same inputs: no clock, no path of the machine, samples drawn from the given seed.
import { type Dimension, dimensions } from '../augment/operator.js';
import type { Plan } from '../augment/plan.js';
import type { Policy } from '../augment/policy.js';
import { hashHarness } from '../harness/hash.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { formatPath } from '../harness/issues.js';
import { type RunContext, runContextOf } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import type { Trajectory } from '../trajectory/schema.js';
import type { ChangeKind } from './change-kinds.js';
import { changeCoverage, policyOperators, sampleVariants, type VariantSample } from './coverage.js';
import { type DriftChange, describeEdit } from './describe-edit.js';
import type { HarnessVersion } from './history.js';

/** A change with its coverage verdict (task-preserving changes only). */
export interface CoveredChange extends DriftChange {
  covered?: boolean;
  reason?: string;
  suggestion?: string;
}

/** One consecutive pair of valid versions. */
export interface DriftEdit {
  from: string;
  to: string;
  /** Invalid versions between the two, left out of the comparison. */
  skipped?: string[];
  changes: CoveredChange[];
  taskPreserving: boolean;
  /** Whether the policy covers every change of a task-preserving edit; `null` when the edit changes the task. */
  covered: boolean | null;
  reason: string;
}

export interface CoverageCount {
  changes: number;
  taskPreserving: number;
  covered: number;
}

/** The drift document (`drift.json`). */
export interface DriftDocument {
  format: 'hsa-drift/1';
  policy: { name: string; severity: number; seed: string; samples: number; examples: number };
  versions: Array<{
    label: string;
    source: string;
    commit?: string;
    date?: string;
    subject?: string;
    valid: boolean;
    issues?: string[];
  }>;
  edits: DriftEdit[];
  byDimension: Record<Dimension, CoverageCount>;
  byKind: Partial<Record<ChangeKind, CoverageCount>>;
  uncovered: Array<{ from: string; to: string; kind: ChangeKind; reason: string; suggestion: string }>;
}

export interface DriftOptions {
  policy: Policy;
  /** The compiled plan of `policy` (resolvePolicy). */
  plan: Plan;
  severity: number;
  seed: string;
  /** Variants sampled per older version. */
  samples: number;
  /** Gold trajectories, for operators that need an example. */
  examples?: readonly Trajectory[];
  /**
   * The run the report belongs to (`createRunContext`, or a CLI command's): its hook checks, and the facts
   * its samples derive. Default: one of its own, with `hookChecks`.
   */
  run?: RunContext | undefined;
  /** The custom hook checks the harnesses name (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
}

/**
 * The drift document of a harness's versions under a policy.
 *
 * @example
 * const document = await driftReport(readGitHistory(repo, 'harness.yaml'), { policy, plan, severity, seed: 'drift', samples: 32 });
 * // In a run of your own (its hook checks, its memory budget):
 * await driftReport(versions, { policy, plan, severity, seed: 'drift', samples: 32, run: createRunContext({ hookChecks }) });
 */
export async function driftReport(
  versions: readonly HarnessVersion[],
  options: DriftOptions,
): Promise<DriftDocument> {
  const operators = policyOperators(options.policy, options.severity);
  // One run for the report: every version's sample derives its facts in it.
  const run = runContextOf(options.run, options.hookChecks);
  const samples = new Map<string, VariantSample>();
  const sampleOf = async (harness: Harness) => {
    const key = hashHarness(harness).harness;
    let sample = samples.get(key);
    if (!sample) {
      sample = await sampleVariants(harness, {
        plan: options.plan,
        severity: options.severity,
        seed: `${options.seed}/${key}`,
        size: options.samples,
        ...(options.examples ? { examples: options.examples } : {}),
        run,
      });
      samples.set(key, sample);
    }
    return sample;
  };

  const edits: DriftEdit[] = [];
  let previous: HarnessVersion | undefined;
  let skipped: string[] = [];
  for (const version of versions) {
    if (!version.harness) {
      if (previous) skipped.push(version.label);
      continue;
    }
    if (previous?.harness) {
      const changes: CoveredChange[] = describeEdit(previous.harness, version.harness);
      const preserving = changes.filter((change) => change.taskPreserving);
      if (preserving.length > 0) {
        const sample = await sampleOf(previous.harness);
        for (const change of preserving) Object.assign(change, changeCoverage(change, operators, sample));
      }
      const taskPreserving = changes.every((change) => change.taskPreserving);
      const missing = preserving.filter((change) => !change.covered);
      edits.push({
        from: previous.label,
        to: version.label,
        ...(skipped.length > 0 ? { skipped } : {}),
        changes,
        taskPreserving,
        covered: taskPreserving ? missing.length === 0 : null,
        reason:
          changes.length === 0
            ? 'no change beyond versions and descriptions'
            : !taskPreserving
              ? `changes the task (${changes
                  .filter((change) => !change.taskPreserving)
                  .map((change) => change.kind)
                  .join(', ')}): regenerate`
              : missing.length === 0
                ? `covered: ${preserving.map((change) => change.kind).join(', ')}`
                : `not covered: ${missing.map((change) => change.kind).join(', ')}`,
      });
    }
    previous = version;
    skipped = [];
  }

  const byDimension = Object.fromEntries(
    dimensions.map((dimension) => [dimension, { changes: 0, taskPreserving: 0, covered: 0 }]),
  ) as Record<Dimension, CoverageCount>;
  const byKind: DriftDocument['byKind'] = {};
  const uncovered: DriftDocument['uncovered'] = [];
  for (const edit of edits)
    for (const change of edit.changes) {
      const kind = byKind[change.kind] ?? { changes: 0, taskPreserving: 0, covered: 0 };
      byKind[change.kind] = kind;
      for (const count of [byDimension[change.dimension], kind]) {
        count.changes++;
        if (change.taskPreserving) count.taskPreserving++;
        if (change.covered) count.covered++;
      }
      if (change.taskPreserving && !change.covered)
        uncovered.push({
          from: edit.from,
          to: edit.to,
          kind: change.kind,
          reason: change.reason ?? '',
          suggestion: change.suggestion ?? '',
        });
    }
  return {
    format: 'hsa-drift/1',
    policy: {
      name: options.policy.name ?? 'policy',
      severity: options.severity,
      seed: options.seed,
      samples: options.samples,
      examples: options.examples?.length ?? 0,
    },
    versions: versions.map((version) => ({
      label: version.label,
      source: version.source,
      ...(version.commit ? { commit: version.commit } : {}),
      ...(version.date ? { date: version.date } : {}),
      ...(version.subject !== undefined ? { subject: version.subject } : {}),
      valid: version.harness !== undefined,
      ...(version.issues
        ? {
            issues: version.issues.map(
              (issue) =>
                `${issue.file ?? version.source}${issue.line ? `:${issue.line}` : ''}: ${formatPath(issue.path)}: ${issue.message}`,
            ),
          }
        : {}),
    })),
    edits,
    byDimension,
    byKind,
    uncovered,
  };
}
