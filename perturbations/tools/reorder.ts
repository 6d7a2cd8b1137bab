// perturbations/tools/reorder.ts — shuffles the order of the tool registry; names, schemas, calls and arguments stay.

import { z } from 'zod';
import { affectedCount, defineOperator, identityRelabel } from '../../src/kit/index.js';

/**
 * Shuffles the tool registry (the skill loader stays first among the offered tools). Severity sets the
 * share of registry positions that take part (at least two); the order always changes.
 *
 * @example
 * const applied = await applyOperator(reorderTools, harness, { rng: 'seed', severity: 1 });
 * // [find_flights, hold_seat, get_baggage_policy] becomes e.g. [get_baggage_policy, find_flights, hold_seat]
 */
export const reorderTools = defineOperator({
  id: 'tools/reorder',
  version: 1,
  dimension: 'tools',
  mode: 'exact',
  description: 'Shuffles the tool registry; names, schemas and calls stay.',
  params: z.object({}),
  apply(harness, { rng, severity }) {
    const tools = harness.tools.items;
    if (tools.length < 2) return { skip: 'the registry has fewer than two tools to reorder' };
    const count = Math.max(2, affectedCount(severity, tools.length));
    const positions = rng.fork('positions').sample(
      tools.map((_, index) => index),
      count,
    );
    let order = rng.fork('order').shuffle(positions);
    // A shuffle may give the same order back: rotate instead, so the registry always changes.
    if (order.every((position, index) => position === positions[index]))
      order = [...positions.slice(1), positions[0] as number];
    const items = [...tools];
    positions.forEach((position, index) => {
      items[position] = tools[order[index] as number] as (typeof tools)[number];
    });
    return { harness: { ...harness, tools: { ...harness.tools, items } }, relabel: identityRelabel };
  },
});
