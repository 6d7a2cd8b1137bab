// The one rule for applying a plan's steps, shared by every augmentation path (an example's own variant,
// a pool entry's build and a pool entry's per-example steps): each step tries its operator, then its
// fallbacks; a candidate that skips, or whose result loses protected content of the base
// (`checkContentPreservation`, the part of the certificate that needs no example), counts as skipped and
// the next one is tried. Without an example, a step none of whose candidates applies, or whose candidate
// that needs the example (`needsExample`) is reached, is deferred (the example's to try, from its first
// candidate); with one, its reasons are recorded as skipped. Paths differ only in which steps they
// start from, never in how a step is checked.
//
// The content check is made once for the steps together: where their whole result keeps the base's
// protected content, that result stands (the certificate's check is that same check). Only a whole that
// loses content is applied again with a check after every step, so that the first candidate losing it
// falls to its fallbacks; the operators' results up to that step are taken from the first pass, not asked
// for again (a `regenerate` operator's model is called once for them).
import type { RunContext } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { forwardFacts, knownForward, rememberForward } from '../trajectory/facts.js';
import { composeRelabels, type Relabel } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';
import type { WalkProof } from '../trajectory/walk-by-proof.js';
import { checkContentPreservation } from './content-preservation.js';
import {
  type AppliedOperator,
  applyOperator,
  type Dimension,
  type OperatorRecord,
  type OperatorSkip,
  type RegenerateFunction,
} from './operator.js';
import type { PlannedOperator } from './plan.js';
import type { Random } from './random.js';

/** A step of a sampled plan, with its position (its generator is the fork `op/<index>`). */
export interface PlanStep {
  index: number;
  step: PlannedOperator;
}

/** Where a variant stands: what the applied steps made of the base. */
export interface VariantState {
  harness: Harness;
  relabels: readonly Relabel[];
  ops: readonly OperatorRecord[];
  skipped: ReadonlyArray<{ name: string; reason: string }>;
  changed: ReadonlySet<Dimension>;
}

/** A variant state after more steps, with the steps left for an example and how many applied. */
export interface StepsApplied extends VariantState {
  relabels: Relabel[];
  ops: OperatorRecord[];
  skipped: Array<{ name: string; reason: string }>;
  changed: Set<Dimension>;
  /** The composed relabel of every applied step. */
  relabel: Relabel;
  /** Steps none of whose candidates applied without an example (empty when an example was given). */
  deferred: PlanStep[];
  /** How many steps applied here. */
  applied: number;
}

export interface ApplyStepsContext {
  /** The generator of the variant: step `index` draws from its fork `op/<index>`. */
  rng: Random;
  /** The example, in the base's vocabulary; without it, steps that need one are deferred. */
  original?: Trajectory;
  regenerate?: RegenerateFunction;
  /** The run: its hook checks, and the facts the steps and the row's certificate share. */
  run: RunContext;
  /**
   * For a pool entry's deferred steps (`exampleFreeAnswers`, one per entry; every call shares the entry's
   * generator seed): a candidate that does not declare `needsExample` answers first as it does at the
   * entry, without the example, once for the entry (the answer is kept here for its other examples); only
   * where that answer is a skip is it asked again with the example. The pool checks such rows against the
   * example as it checks the entry's (`leavesNamesInReplies`, `fitsExample`).
   */
  exampleFree?: ExampleFreeAnswers;
  /**
   * The walk proof of the harness and relabels the steps start from (a pool entry's, `proveWalk`): the
   * example under them is told from its walk under the base where the proof covers it.
   */
  walkProof?: WalkProof | undefined;
}

/**
 * An empty store of the answers a pool entry's deferred steps gave without reading the example (see
 * `ApplyStepsContext.exampleFree`).
 *
 * @example
 * const exampleFree = exampleFreeAnswers(); // once per pool entry
 */
export const exampleFreeAnswers = (): ExampleFreeAnswers => new Map();

/** The state of the base before any step. */
export const baseState = (base: Harness): VariantState => ({
  harness: base,
  relabels: [],
  ops: [],
  skipped: [],
  changed: new Set(),
});

/**
 * Applies `steps` on top of `from`, under the one fallback rule (see the file comment).
 *
 * @example
 * const variant = await applyPlanSteps(base, baseState(base), planned.map((step, index) => ({ index, step })), { rng, original });
 */
export async function applyPlanSteps(
  base: Harness,
  from: VariantState,
  steps: readonly PlanStep[],
  context: ApplyStepsContext,
): Promise<StepsApplied> {
  const results: AppliedResults = new Map();
  const together = await applySteps(base, from, steps, context, { checkEachStep: false, results });
  if (together.applied === 0 || checkContentPreservation(base, together.harness, together.relabel).kept)
    return together;
  return applySteps(base, from, steps, context, { checkEachStep: true, results });
}

/**
 * An operator's answer by its step and candidate, with the harness and relabels it was given: a second pass
 * reuses it where it gives the same ones (the same objects).
 */
type AppliedResults = Map<string, OperatorAnswer>;

/** The answers a pool entry's deferred steps gave without reading the example, by step and candidate. */
export type ExampleFreeAnswers = Map<string, OperatorAnswer>;

/** An operator's answer with the harness and relabels it was given. */
interface OperatorAnswer {
  on: Harness;
  after: readonly Relabel[];
  result: AppliedOperator | OperatorSkip;
}

const sameChain = (one: readonly Relabel[], other: readonly Relabel[]) =>
  one.length === other.length && one.every((relabel, index) => relabel === other[index]);

async function applySteps(
  base: Harness,
  from: VariantState,
  steps: readonly PlanStep[],
  context: ApplyStepsContext,
  pass: { checkEachStep: boolean; results: AppliedResults },
): Promise<StepsApplied> {
  let harness = from.harness;
  const relabels = [...from.relabels];
  const ops = [...from.ops];
  const skipped = [...from.skipped];
  const changed = new Set(from.changed);
  const deferred: PlanStep[] = [];
  let applied = 0;
  // The example in the vocabulary of the harness the next operator is given: a fact of (original, relabels,
  // harness), derived once (`forwardFacts`); the row's certificate reads the same fact. It is derived only
  // when a candidate of the step reads it (`ApplyOptions.trajectory` as a function): an operator that never
  // looks at the example (a rewording of skill bodies) costs no move of it.
  for (const { index, step } of steps) {
    const { original } = context;
    let trajectory: Trajectory | undefined;
    const example = (): Trajectory => {
      trajectory ??=
        harness === base && relabels.length === 0
          ? (original as Trajectory)
          : forwardFacts(
              original as Trajectory,
              composeRelabels(...relabels),
              harness,
              context.run,
              context.walkProof,
            ).trajectory;
      return trajectory;
    };
    const reasons: Array<{ name: string; reason: string }> = [];
    let done = false;
    const candidates = [step, ...(step.fallbacks ?? [])] as PlannedOperator[];
    for (const [position, candidate] of candidates.entries()) {
      // The same step, candidate, harness and relabels give the same answer (the generator is the step's
      // fork, the example a fact of the rest).
      const key = `${index}/${position}`;
      const given = (answer: OperatorAnswer | undefined) =>
        answer?.on === harness && sameChain(answer.after, relabels) ? answer.result : undefined;
      let readExample = false;
      const ask = (withExample: boolean) =>
        applyOperator(candidate.operator, harness, {
          rng: context.rng.fork(`op/${index}`),
          severity: candidate.severity,
          params: candidate.params,
          ...(withExample && original
            ? {
                trajectory: () => {
                  readExample = true;
                  return example();
                },
              }
            : {}),
          ...(context.regenerate ? { regenerate: context.regenerate } : {}),
          run: context.run,
        });
      const free = context.exampleFree;
      let result = given(pass.results.get(key));
      if (!result && original && free && !candidate.operator.needsExample) {
        // As at the entry, once for it. One that skips there may still apply with the example; one that
        // skipped with an example without reading it skips so for every example.
        const answer = { on: harness, after: [...relabels] };
        result = given(free.get(key));
        if (!result) {
          result = await ask(false);
          free.set(key, { ...answer, result });
        }
        if ('skip' in result) {
          result = given(free.get(`${key}/unread`));
          if (!result) {
            result = await ask(true);
            if (!readExample && 'skip' in result) free.set(`${key}/unread`, { ...answer, result });
          }
        }
      }
      result ??= await ask(true);
      // Only the first pass's answers are read again (by the second).
      if (!pass.checkEachStep) pass.results.set(key, { on: harness, after: [...relabels], result });
      if ('skip' in result) {
        reasons.push({ name: candidate.operator.id, reason: result.skip });
        // Without the example, an operator that decides from it leaves the step to the example: a fallback
        // applied here would stand in for it in every row of the variant.
        if (!original && candidate.operator.needsExample) break;
        continue;
      }
      if (
        pass.checkEachStep &&
        !checkContentPreservation(base, result.harness, composeRelabels(...relabels, result.relabel)).kept
      ) {
        reasons.push({ name: candidate.operator.id, reason: 'changes protected content of the base' });
        continue;
      }
      if (trajectory && original) {
        // An operator that certified its step moved the example into its variant (`certifies`): with no
        // issue there, that is the example under the whole chain (what a step's re-derivation makes
        // depends only on the free content, which the chain and the composed relabel move alike), so the
        // next step and the row's certificate read it instead of moving the original again. An example
        // no candidate read was moved by none.
        const moved = knownForward(trajectory, result.relabel, result.harness, context.run);
        if (moved && moved.issues.length === 0)
          rememberForward(
            original,
            composeRelabels(...relabels, result.relabel),
            result.harness,
            moved,
            context.run,
          );
      }
      harness = result.harness;
      relabels.push(result.relabel);
      ops.push(result.record);
      if (result.changed) changed.add(result.record.dimension);
      applied++;
      done = true;
      break;
    }
    if (done || context.original) skipped.push(...reasons);
    else deferred.push({ index, step });
  }
  return {
    harness,
    relabels,
    relabel: composeRelabels(...relabels),
    ops,
    skipped,
    changed,
    deferred,
    applied,
  };
}
