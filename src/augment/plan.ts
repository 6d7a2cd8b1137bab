// Plans say which operators a variant applies. They compose: `pipe`, `sometimes(p, …)`, `oneOf([[w, …]])`,
// `kOf(k, …)`. Each part draws from its own fork of the generator, so changing one part never changes what
// another drew.
import type { Operator } from './operator.js';
import type { Random } from './random.js';

/** One operator a variant will apply, with its params and severity. */
export interface PlannedOperator {
  operator: Operator;
  params?: unknown;
  severity: number;
  /** Tried in order when the operator does not apply to the example (from `oneOf`). */
  fallbacks?: PlannedOperator[];
}

/** A seeded choice of operators. */
export interface Plan {
  sample(rng: Random, severity: number): PlannedOperator[];
  /** Operators this plan may apply, for listing and validation. */
  readonly operators: readonly Operator[];
  /** The severity the plan runs at when the caller gives none (a compiled policy's own severity). */
  readonly severity?: number;
}

/**
 * Always applies one operator.
 *
 * @example
 * op(renameTools, { style: 'opaque' }, { severity: 1 })
 */
export function op(operator: Operator, params?: unknown, options: { severity?: number } = {}): Plan {
  return {
    operators: [operator],
    sample: (_rng, severity) => [
      { operator, ...(params === undefined ? {} : { params }), severity: options.severity ?? severity },
    ],
  };
}

/**
 * Applies plans one after another.
 *
 * @example
 * pipe(op(renameTools), op(reorderSections))
 */
export function pipe(...plans: Plan[]): Plan {
  return {
    operators: plans.flatMap((plan) => plan.operators),
    sample: (rng, severity) => plans.flatMap((plan, index) => plan.sample(rng.fork(index), severity)),
  };
}

/**
 * Applies a plan with probability `p`.
 *
 * @example
 * sometimes(0.5, op(addDistractors))
 */
export function sometimes(p: number, plan: Plan): Plan {
  return {
    operators: plan.operators,
    sample: (rng, severity) => (rng.fork('coin').chance(p) ? plan.sample(rng.fork('then'), severity) : []),
  };
}

/**
 * Applies one of several plans, chosen by weight.
 *
 * @example
 * oneOf([[2, op(renameTools)], [1, op(renameParameters)]])
 */
export function oneOf(choices: ReadonlyArray<readonly [number, Plan]>): Plan {
  return {
    operators: choices.flatMap(([, plan]) => plan.operators),
    sample: (rng, severity) => {
      if (choices.length === 0) return [];
      // A weighted order of all choices: the first is the pick, the rest stand in if it does not apply.
      const order: number[] = [];
      const remaining = choices.map(([weight], position) => [weight, position] as const);
      const draw = rng.fork('choice');
      while (remaining.length > 0) {
        const position = draw.weighted(remaining);
        order.push(position);
        remaining.splice(
          remaining.findIndex(([, candidate]) => candidate === position),
          1,
        );
      }
      const [first, ...rest] = order.map((index) =>
        (choices[index] as readonly [number, Plan])[1].sample(rng.fork(`option${index}`), severity),
      );
      if (first?.length !== 1) return first ?? [];
      const fallbacks = rest
        .filter((planned) => planned.length === 1)
        .map((planned) => planned[0] as PlannedOperator);
      return [{ ...(first[0] as PlannedOperator), ...(fallbacks.length > 0 ? { fallbacks } : {}) }];
    },
  };
}

/**
 * Applies `k` of the plans, chosen uniformly, in their given order (k-of-n dimension sampling).
 *
 * @example
 * kOf(2, [skillIdPlan, toolPlan, promptPlan])
 */
export function kOf(k: number, plans: readonly Plan[]): Plan {
  return {
    operators: plans.flatMap((plan) => plan.operators),
    sample: (rng, severity) => {
      const chosen = new Set(
        rng.fork('choose').sample(
          plans.map((_, index) => index),
          k,
        ),
      );
      return plans.flatMap((plan, index) =>
        chosen.has(index) ? plan.sample(rng.fork(index), severity) : [],
      );
    },
  };
}

/**
 * The plan that applies nothing.
 *
 * @example
 * identityPlan.operators.length // 0
 */
export const identityPlan: Plan = { operators: [], sample: () => [] };
