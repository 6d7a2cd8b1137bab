// skill-ids/reorder — shuffles the order of the skill registry (the prompt listing and the loader's enum); ids, bodies and loads stay.

import { z } from 'zod';
import { affectedCount, defineOperator, identityRelabel } from '../../src/kit/index.js';

/**
 * Shuffles a share (= severity, at least two) of the skills among their own positions in the registry, so
 * the prompt lists them, and the loader enumerates them, in another order. Nothing is renamed: the relabel
 * is the identity. Skips a harness with fewer than two skills.
 *
 * @example
 * await applyOperator(reorderSkills, travelHarness(), { rng: 'seed', severity: 1 });
 * // skills listed as apology_first, rebooking, baggage (for example)
 */
export const reorderSkills = defineOperator({
  id: 'skill-ids/reorder',
  version: 1,
  dimension: 'skill-ids',
  mode: 'exact',
  description: 'Shuffles the skill registry, and so the prompt listing order; ids, bodies and loads stay.',
  params: z.object({}),
  apply(harness, { rng, severity }) {
    const items = harness.skills.items;
    if (items.length < 2) return { skip: 'fewer than two skills to reorder' };
    const positions = rng.fork('positions').sample(
      items.map((_, index) => index),
      Math.max(2, affectedCount(severity, items.length)),
    );
    let order = rng.fork('order').shuffle(positions);
    // A shuffle may give back the same order; rotating by one always moves every chosen skill.
    if (order.every((position, index) => position === positions[index]))
      order = [...positions.slice(1), positions[0] as number];
    const reordered = [...items];
    positions.forEach((position, index) => {
      reordered[position] = items[order[index] as number] as (typeof items)[number];
    });
    return {
      harness: { ...harness, skills: { ...harness.skills, items: reordered } },
      relabel: identityRelabel,
    };
  },
});
