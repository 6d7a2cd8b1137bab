// perturbations/prompt/reorder-sections.ts — shuffles unpinned prompt sections; pinned sections, every template and title stay.

import { z } from 'zod';
import { affectedCount, defineOperator, identityRelabel } from '../../src/kit/index.js';
import { promptVariantHolds } from './_template-scan.js';

/**
 * Shuffles the unpinned sections of the system prompt among their positions; pinned sections keep theirs.
 * Severity is the share of unpinned sections that take part in the shuffle (at least two).
 *
 * @example
 * const applied = await applyOperator(reorderSections, harness, { rng: 'seed', severity: 1 });
 * applied.harness.prompt.sections.map((section) => section.id) // e.g. ['role', 'tools', 'passenger', 'skills']
 */
export const reorderSections = defineOperator({
  id: 'prompt/reorder-sections',
  version: 1,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Shuffles unpinned prompt sections; pinned sections keep their positions, content stays.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    const sections = harness.prompt.sections;
    const free = sections.flatMap((section, index) => (section.pinned ? [] : [index]));
    if (free.length < 2) return { skip: 'fewer than two unpinned prompt sections' };
    const positions = rng.fork('positions').sample(free, Math.max(2, affectedCount(severity, free.length)));
    let order = rng.fork('order').shuffle(positions);
    // A shuffle may give the same order back; rotating by one moves every chosen section instead.
    if (order.every((position, index) => position === positions[index]))
      order = [...positions.slice(1), positions[0] as number];
    const next = [...sections];
    positions.forEach((position, index) => {
      next[position] = sections[order[index] as number] as (typeof sections)[number];
    });
    const variant = { ...harness, prompt: { ...harness.prompt, sections: next } };
    if (!promptVariantHolds(harness, variant, run, trajectory))
      return { skip: 'the reordered prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
