// runnablePlan: the operators that change what the environment enforces never reach a variant that runs
// episodes; a oneOf falls back to its next kept choice, and the other draws stay as they were.
import { describe, expect, it } from 'vitest';
import { disableUntriggered, rewordFeedback, varyBudgets } from '../../perturbations/hooks/index.js';
import { builtinOperators } from '../../perturbations/index.js';
import { renameTools } from '../../perturbations/tools/rename.js';
import { oneOf, op, pipe, sometimes } from '../../src/augment/plan.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRandom } from '../../src/augment/random.js';
import { createRegistry } from '../../src/augment/registry.js';
import { keepsEnforcement, leftOutNote, runnablePlan } from '../../src/augment/runnable-plan.js';

const ids = (planned: ReturnType<ReturnType<typeof runnablePlan>['plan']['sample']>) =>
  planned.map((step) => [
    step.operator.id,
    ...(step.fallbacks ?? []).map((fallback) => fallback.operator.id),
  ]);

describe('runnablePlan', () => {
  it('built-ins that keep only the trajectory’s own hook decisions are the fitted ones', () => {
    expect(
      builtinOperators
        .filter((operator) => !keepsEnforcement(operator))
        .map(({ id }) => id)
        .sort(),
    ).toEqual(['hooks/disable-untriggered', 'hooks/reorder', 'hooks/vary-budgets']);
  });

  it('drops fitted steps after sampling, falls back within a oneOf, and leaves the other draws alone', () => {
    const plan = pipe(
      op(renameTools),
      oneOf([
        [5, op(disableUntriggered)],
        [1, op(varyBudgets)],
        [1, op(rewordFeedback)],
      ]),
      sometimes(1, op(varyBudgets)),
    );
    const { plan: runnable, leftOut } = runnablePlan(plan);
    expect(leftOut).toEqual(['hooks/disable-untriggered', 'hooks/vary-budgets']);
    expect(runnable.operators.map(({ id }) => id)).toEqual(['tools/rename', 'hooks/reword-feedback']);
    for (const seed of ['1', '2', '3', '4']) {
      const full = plan.sample(createRandom(seed), 0.5);
      const kept = runnable.sample(createRandom(seed), 0.5);
      expect(ids(kept)).toEqual([['tools/rename'], ['hooks/reword-feedback']]);
      expect(kept[0]).toEqual(full[0]);
    }
  });

  it('is the plan itself when nothing changes enforcement, and the same value for the same plan', () => {
    const plan = op(renameTools);
    expect(runnablePlan(plan)).toEqual({ plan, leftOut: [] });
    const hat = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));
    expect(runnablePlan(hat)).toBe(runnablePlan(hat));
    expect(runnablePlan(runnablePlan(hat).plan).leftOut).toEqual([]);
    expect(leftOutNote(runnablePlan(hat).leftOut)).toBe(
      'operators left out (they change what the hooks enforce, and variants run episodes): 3 (hooks/disable-untriggered, hooks/reorder, hooks/vary-budgets)',
    );
  });
});
