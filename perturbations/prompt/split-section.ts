// perturbations/prompt/split-section.ts — splits unpinned prompt sections at a top-level paragraph break; every template's text stays, in order.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  harnessSymbols,
  identityRelabel,
  type PromptSection,
} from '../../src/kit/index.js';
import { freshSectionId, isChinese, promptVariantHolds, scanTemplate } from './_template-scan.js';

/** A blank-line break of a template that lies outside every `{{ }}` and every block. */
interface Break {
  start: number;
  end: number;
}

/** Paragraph breaks where the template can be cut into two templates that each stand alone. */
function safeBreaks(template: string): Break[] {
  const scan = scanTemplate(template);
  if (!scan) return [];
  const breaks: Break[] = [];
  for (const match of template.matchAll(/\n[ \t]*\n\s*/g)) {
    const start = match.index;
    const end = start + match[0].length;
    if (scan.inCode(start) || scan.depthAt(start) !== 0) continue;
    // A `~` on a neighbouring mustache strips this whitespace: the cut would not be a paragraph break.
    if (template.slice(0, start).endsWith('~}}') || template.startsWith('{{~', end)) continue;
    if (template.slice(0, start).trim() === '' || template.slice(end).trim() === '') continue;
    breaks.push({ start, end });
  }
  return breaks;
}

/**
 * Splits unpinned sections whose template has several top-level paragraphs into two sections at a
 * blank line outside any `{{#…}}…{{/…}}` block; the second part gets a fresh id and the title
 * "<title> (continued)". Severity is the share of splittable sections split. Skips when none can be split.
 *
 * @example
 * const applied = await applyOperator(splitSection, harness, { rng: 'seed', severity: 1 });
 * applied.harness.prompt.sections.map((section) => section.id) // e.g. [… 'customer', 'customer_continued', …]
 */
export const splitSection = defineOperator({
  id: 'prompt/split-section',
  version: 1,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Splits prompt sections at a top-level paragraph break; their text and order stay.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    const sections = harness.prompt.sections;
    const breaks = sections.map((section) => (section.pinned ? [] : safeBreaks(section.template)));
    const candidates = sections.flatMap((_, index) => ((breaks[index]?.length ?? 0) > 0 ? [index] : []));
    if (candidates.length === 0) return { skip: 'no unpinned section has a paragraph break outside a block' };
    const chosen = rng.fork('sections').sample(candidates, affectedCount(severity, candidates.length));
    const taken = new Set(harnessSymbols(harness).map((symbol) => symbol.name));
    const next: PromptSection[] = [];
    sections.forEach((section, index) => {
      if (!chosen.includes(index)) {
        next.push(section);
        return;
      }
      const cut = rng.fork(`break/${index}`).pick(breaks[index] as Break[]);
      const id = freshSectionId(`${section.id}_continued`, taken);
      taken.add(id);
      const title = isChinese(section.title) ? `${section.title}（续）` : `${section.title} (continued)`;
      next.push(
        { ...section, template: section.template.slice(0, cut.start) },
        { id, title, template: section.template.slice(cut.end), pinned: false },
      );
    });
    const variant = { ...harness, prompt: { ...harness.prompt, sections: next } };
    if (!promptVariantHolds(harness, variant, run, trajectory))
      return { skip: 'the split prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
