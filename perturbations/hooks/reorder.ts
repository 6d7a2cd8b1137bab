// perturbations/hooks/reorder.ts — reorders the hooks of a stage where no step of the trajectory fails two of them; every decision stays.

import { z } from 'zod';
import {
  affectedCount,
  certifies,
  defineOperator,
  type Harness,
  type Hook,
  type HookDecision,
  type HookStage,
  identityRelabel,
  type RunContext,
  type Trajectory,
  walkHookDecisions,
} from '../../src/kit/index.js';

/**
 * Whether some step of the trajectory fails two or more enabled hooks of the stage at once. Each hook is
 * evaluated alone on every step of the stage (the other hooks of the stage switched off), so that hooks
 * after the first failing one are evaluated too.
 */
function someStepFailsTwo(
  harness: Harness,
  trajectory: Trajectory,
  stage: HookStage,
  run: RunContext,
  everyHookOn: () => readonly HookDecision[],
): boolean {
  // Where no hook of the stage fails with every hook on, none fails alone either: the walk stops at a
  // stage's first failure only, so each hook was evaluated at every step of the stage it runs on, with no
  // failure counted before it, as it is alone (and the other stages decide as they did). One walk, not one
  // per hook.
  if (!everyHookOn().some((decision) => decision.stage === stage && decision.failed !== undefined))
    return false;
  const enabled = harness.hooks.items.filter((hook) => hook.enabled && hook.stage === stage);
  const failuresAt = new Map<string, number>();
  for (const alone of enabled) {
    const only: Harness = {
      ...harness,
      hooks: {
        ...harness.hooks,
        items: harness.hooks.items.map((hook) =>
          hook.stage === stage && hook.id !== alone.id ? { ...hook, enabled: false } : hook,
        ),
      },
    };
    // Only the decisions are read: the system prompt and offered tools, which each fresh `only` harness
    // would render again, and the arguments' schemas decide nothing.
    for (const decision of walkHookDecisions(trajectory, only, { hookChecks: run.hookChecks })) {
      if (decision.stage !== stage || decision.failed !== alone.id) continue;
      const key = JSON.stringify(decision.path);
      const count = (failuresAt.get(key) ?? 0) + 1;
      if (count >= 2) return true;
      failuresAt.set(key, count);
    }
  }
  return false;
}

/**
 * Reorders the hooks of a stage (`input`, `pre_tool`, …) when no step of the trajectory fails two or
 * more of its hooks at once, so the first failing hook, and with it every decision, stays. Severity is
 * the share of each stage's hooks that move and of the stages reordered. Skips without a trajectory or
 * when no stage with two hooks can be reordered.
 *
 * @example
 * const applied = await applyOperator(reorderHooks, harness, { rng: 'seed', severity: 1, trajectory });
 * applied.harness.hooks.items.filter((hook) => hook.stage === 'pre_reply').map((hook) => hook.id)
 */
export const reorderHooks = defineOperator({
  id: 'hooks/reorder',
  version: 1,
  dimension: 'hooks',
  mode: 'exact',
  needsExample: true,
  // Only the trajectory's own decisions stay: for rows from it, never to run episodes.
  enforcement: 'fitted',
  description: 'Reorders independent hooks of a stage; which hook fails first, and so every decision, stays.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    if (!trajectory) return { skip: 'needs the trajectory to know which hooks fail together' };
    const items = harness.hooks.items;
    let decisions: readonly HookDecision[] | undefined;
    const everyHookOn = () => {
      decisions ??= walkHookDecisions(trajectory, harness, { hookChecks: run.hookChecks });
      return decisions;
    };
    const stages = [...new Set(items.map((hook) => hook.stage))]
      .filter((stage) => items.filter((hook) => hook.stage === stage).length >= 2)
      .filter((stage) => !someStepFailsTwo(harness, trajectory, stage, run, everyHookOn));
    if (stages.length === 0) return { skip: 'no stage has two hooks that can be reordered' };
    const next = [...items];
    for (const stage of rng.fork('stages').sample(stages, affectedCount(severity, stages.length))) {
      const stageRng = rng.fork(`stage/${stage}`);
      const slots = items.flatMap((hook, index) => (hook.stage === stage ? [index] : []));
      const moved = stageRng.sample(slots, Math.max(2, affectedCount(severity, slots.length)));
      let order = stageRng.shuffle(moved);
      if (order.every((slot, index) => slot === moved[index]))
        order = [...moved.slice(1), moved[0] as number];
      moved.forEach((slot, index) => {
        next[slot] = items[order[index] as number] as Hook;
      });
    }
    const variant = { ...harness, hooks: { ...harness.hooks, items: next } };
    if (!certifies({ base: harness, variant, trajectory, run }))
      return { skip: 'the reordered hooks change a decision' };
    return { harness: variant, relabel: identityRelabel };
  },
});
