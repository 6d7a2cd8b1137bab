// Which operators of a plan can change a harness at all, found up front by trying each on the harness
// (and a few of its trajectories) at full severity, so that a policy that cannot apply says so before it
// writes unchanged copies.
import type { Harness } from '../harness/schema.js';
import type { Trajectory } from '../trajectory/schema.js';
import { applyOperator, type Dimension } from './operator.js';
import type { Plan } from './plan.js';
import { checkAugmentBounds } from './size-bound.js';

/** Whether one operator can change the harness, and why not when it cannot. */
export interface OperatorApplicability {
  operator: string;
  dimension: Dimension;
  applies: boolean;
  /** The operator's own reason (its skip message), when it does not apply. */
  reason?: string;
}

export interface PlanApplicability {
  operators: OperatorApplicability[];
  /** At least one operator of the plan applies: some variant can differ from the base. */
  canChange: boolean;
}

const probeSeeds = ['applicability/0', 'applicability/1', 'applicability/2'];

/**
 * Tries every operator of a plan on the harness, at severity 1 with default params, once without a
 * trajectory and once with each of the given ones (the first few examples are enough), under a few
 * seeds. An operator applies when some try changes the harness or the trajectory's relabel; otherwise its
 * first skip reason is reported.
 *
 * @example
 * const { canChange, operators } = await planApplicability(plan, harness, firstTrajectories);
 * for (const entry of operators) if (!entry.applies) console.warn(`${entry.operator}: ${entry.reason}`);
 */
export async function planApplicability(
  plan: Plan,
  harness: Harness,
  trajectories: readonly Trajectory[] = [],
): Promise<PlanApplicability> {
  checkAugmentBounds(harness);
  const seen = new Set<string>();
  const operators: OperatorApplicability[] = [];
  for (const operator of plan.operators) {
    if (seen.has(operator.id)) continue;
    seen.add(operator.id);
    let reason: string | undefined;
    let applies = false;
    const contexts: Array<Trajectory | undefined> = trajectories.length > 0 ? [...trajectories] : [undefined];
    search: for (const trajectory of contexts) {
      for (const seed of probeSeeds) {
        try {
          const result = await applyOperator(operator, harness, {
            rng: seed,
            severity: 1,
            ...(trajectory ? { trajectory } : {}),
          });
          if ('skip' in result) {
            reason ??= result.skip;
            continue;
          }
          if (result.changed) {
            applies = true;
            break search;
          }
          reason ??= 'it changes nothing on this harness';
        } catch (error) {
          reason ??= (error as Error).message;
        }
      }
    }
    operators.push({
      operator: operator.id,
      dimension: operator.dimension,
      applies,
      ...(applies ? {} : { reason: reason ?? 'it changes nothing on this harness' }),
    });
  }
  return { operators, canChange: operators.some((entry) => entry.applies) };
}
