// perturbations/prompt/reorder-sections.ts — shuffles unpinned prompt sections; pinned sections, every template and title stay.

import { z } from 'zod';
import { affectedCount, defineOperator, identityRelabel, type PromptSection } from '../../src/kit/index.js';
import { continuationTitle, promptVariantHolds } from './_template-scan.js';

/**
 * The sections in units: a section titled as the continuation of the one before it ("Compliance
 * (continued)", `continuationTitle`) joins that one's unit.
 */
function continuationUnits(sections: readonly PromptSection[]): PromptSection[][] {
  const units: PromptSection[][] = [];
  sections.forEach((section, index) => {
    const before = sections[index - 1];
    const unit = units.at(-1);
    if (unit && before && section.title === continuationTitle(before.title)) unit.push(section);
    else units.push([section]);
  });
  return units;
}

/**
 * Shuffles the unpinned sections of the system prompt among their positions; pinned sections keep theirs
 * among the others. A section that continues the one before it ("Compliance (continued)", as
 * `prompt/split-section` writes it) moves with it, so the two stay together and in order. Severity is the
 * share of unpinned sections (a section with its continuations counting as one) that take part in the
 * shuffle (at least two).
 *
 * @example
 * const applied = await applyOperator(reorderSections, harness, { rng: 'seed', severity: 1 });
 * applied.harness.prompt.sections.map((section) => section.id) // e.g. ['role', 'tools', 'passenger', 'skills']
 */
export const reorderSections = defineOperator({
  id: 'prompt/reorder-sections',
  // 2: a section and its continuation ("X (continued)") move as one.
  version: 2,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Shuffles unpinned prompt sections; pinned sections keep their positions, content stays.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    const sections = harness.prompt.sections;
    // A section and the sections that continue it move as one unit; a harness without continuations has one
    // section per unit, so its shuffle is the one it always was.
    const units = continuationUnits(sections);
    const free = units.flatMap((unit, index) => (unit.some((section) => section.pinned) ? [] : [index]));
    if (free.length < 2) return { skip: 'fewer than two unpinned prompt sections' };
    const positions = rng.fork('positions').sample(free, Math.max(2, affectedCount(severity, free.length)));
    let order = rng.fork('order').shuffle(positions);
    // A shuffle may give the same order back; rotating by one moves every chosen section instead.
    if (order.every((position, index) => position === positions[index]))
      order = [...positions.slice(1), positions[0] as number];
    const placed = [...units];
    positions.forEach((position, index) => {
      placed[position] = units[order[index] as number] as PromptSection[];
    });
    const next = placed.flat();
    const variant = { ...harness, prompt: { ...harness.prompt, sections: next } };
    if (!promptVariantHolds(harness, variant, run, trajectory))
      return { skip: 'the reordered prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
