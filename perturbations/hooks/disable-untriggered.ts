// perturbations/hooks/disable-untriggered.ts — disables hooks that never fail on the trajectory; every decision and every other hook stays.

import { z } from 'zod';
import {
  affectedCount,
  certifies,
  defineOperator,
  type Harness,
  identityRelabel,
} from '../../src/kit/index.js';
import { hookFacts } from './_hook-facts.js';

/** The harness with its hook at `index` disabled (a new harness; the other hooks are the same objects). */
function disabled(harness: Harness, index: number): Harness {
  const items = harness.hooks.items.map((hook, at) => (at === index ? { ...hook, enabled: false } : hook));
  return { ...harness, hooks: { ...harness.hooks, items } };
}

/**
 * Sets `enabled: false` on hooks that never fail on the trajectory. A hook that only ever passed adds
 * nothing to the decisions (a step's decision is its first failing hook, or a pass), so every decision
 * stays. A hook that failed anywhere is never disabled. Severity is the share of such hooks disabled.
 * Skips without a trajectory.
 *
 * @example
 * const applied = await applyOperator(disableUntriggered, harness, { rng: 'seed', severity: 1, trajectory });
 * applied.harness.hooks.items.filter((hook) => !hook.enabled).map((hook) => hook.id) // e.g. ['no_profanity', 'tool_budget']
 */
export const disableUntriggered = defineOperator({
  id: 'hooks/disable-untriggered',
  // 2: a harness without an enabled hook is skipped as such (it said every hook fails somewhere).
  version: 2,
  dimension: 'hooks',
  mode: 'exact',
  needsExample: true,
  // Only the trajectory's own decisions stay: for rows from it, never to run episodes.
  enforcement: 'fitted',
  description: 'Disables hooks that never fail on the trajectory; every decision stays.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    if (!harness.hooks.items.some((hook) => hook.enabled)) return { skip: 'the harness has no enabled hook' };
    if (!trajectory) return { skip: 'needs the trajectory to know which hooks never fail' };
    const facts = hookFacts(trajectory, harness, run);
    if (!facts) return { skip: 'the trajectory does not validate under the harness' };
    const quiet = harness.hooks.items.flatMap((hook, index) =>
      hook.enabled && !facts.failuresPerTurn.has(hook.id) ? [index] : [],
    );
    if (quiet.length === 0) return { skip: 'every enabled hook fails somewhere on the trajectory' };
    const chosen = rng.fork('hooks').sample(quiet, affectedCount(severity, quiet.length));
    // Every chosen hook at once first: a hook that never fails decides nothing, so this one certificate
    // (one walk of the trajectory) usually holds. Where it does not (a prompt template may read a hook),
    // one at a time, each kept only if the trajectory stays certified.
    const all = chosen.reduce(disabled, harness);
    if (certifies({ base: harness, variant: all, trajectory, run }))
      return { harness: all, relabel: identityRelabel };
    let variant = harness;
    for (const index of chosen) {
      const candidate = disabled(variant, index);
      if (certifies({ base: harness, variant: candidate, trajectory, run })) variant = candidate;
    }
    if (variant === harness) return { skip: 'disabling a quiet hook breaks the trajectory' };
    return { harness: variant, relabel: identityRelabel };
  },
});
