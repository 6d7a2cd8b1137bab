// One rule for the variants that run episodes (the simulator, the environment server and the RL rows it
// serves, the bench): they enforce what the base harness enforces. An operator declared `enforcement:
// 'fitted'` keeps the hook decisions of one gold trajectory only (a guard that trajectory never failed
// switched off, a budget or threshold moved to its bounds, hooks reordered), which is right for a row made
// from that trajectory and wrong for an episode played anew. The plan such places run is this one: the
// operators left out are dropped after sampling (a `oneOf` falls back to its next kept choice), so the other
// draws of every variant stay as they were, and the callers name what was left out in their summaries.
import type { Operator } from './operator.js';
import type { Plan, PlannedOperator } from './plan.js';

/**
 * A plan that runs episodes, and the ids of the operators it never applies.
 *
 * @example
 * const { plan: runnable, leftOut }: RunnablePlan = runnablePlan(plan);
 */
export interface RunnablePlan {
  plan: Plan;
  /** Operators of the given plan left out because they change what the environment enforces, sorted. */
  leftOut: string[];
}

/**
 * Whether an operator's variants keep what the environment enforces (see `Enforcement`).
 *
 * @example
 * keepsEnforcement(disableUntriggered) // false
 */
export const keepsEnforcement = (operator: Operator): boolean => (operator.enforcement ?? 'kept') === 'kept';

// Pure function of content across runs: a plan object's runnable plan.
const runnables = new WeakMap<Plan, RunnablePlan>();

/**
 * The plan without the operators that change what the environment enforces, for every place that builds a
 * variant to run episodes under; `leftOut` names them for the run's summary. The same plan gives the same
 * value (kept per plan object).
 *
 * @example
 * const { plan: runnable, leftOut } = runnablePlan(plan);
 * if (leftOut.length > 0) console.log(`left out (they change what hooks enforce): ${leftOut.join(', ')}`);
 */
export function runnablePlan(plan: Plan): RunnablePlan {
  const known = runnables.get(plan);
  if (known) return known;
  const leftOut = [
    ...new Set(plan.operators.filter((operator) => !keepsEnforcement(operator)).map(({ id }) => id)),
  ].sort();
  const runnable: RunnablePlan =
    leftOut.length === 0
      ? { plan, leftOut }
      : {
          plan: {
            operators: plan.operators.filter(keepsEnforcement),
            ...(plan.severity !== undefined ? { severity: plan.severity } : {}),
            sample: (rng, severity) => plan.sample(rng, severity).flatMap(kept),
          },
          leftOut,
        };
  runnables.set(plan, runnable);
  // A runnable plan is its own runnable plan.
  runnables.set(runnable.plan, { plan: runnable.plan, leftOut: [] });
  return runnable;
}

/** A planned step with what changes enforcement taken out: itself, its first kept fallback, or nothing. */
function kept(planned: PlannedOperator): PlannedOperator[] {
  const [first, ...rest] = [planned, ...(planned.fallbacks ?? [])]
    .map(({ fallbacks: _fallbacks, ...step }) => step)
    .filter((step) => keepsEnforcement(step.operator));
  if (!first) return [];
  return [rest.length > 0 ? { ...first, fallbacks: rest } : first];
}

/**
 * The summary line that names what a run left out of its plan.
 *
 * @example
 * leftOutNote(['hooks/disable-untriggered']) // 'operators left out (they change what the hooks enforce, and variants run episodes): 1 (hooks/disable-untriggered)'
 */
export const leftOutNote = (leftOut: readonly string[]): string =>
  `operators left out (they change what the hooks enforce, and variants run episodes): ${leftOut.length}${leftOut.length > 0 ? ` (${leftOut.join(', ')})` : ''}`;
