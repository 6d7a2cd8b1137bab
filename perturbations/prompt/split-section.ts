// perturbations/prompt/split-section.ts — splits unpinned prompt sections at a top-level paragraph break; every template's text stays, in order.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  harnessSymbols,
  identityRelabel,
  type PromptSection,
} from '../../src/kit/index.js';
import {
  continuationTitle,
  freshSectionId,
  leansOnTextBefore,
  promptVariantHolds,
  scanTemplate,
} from './_template-scan.js';

/** A blank-line break of a template that lies outside every `{{ }}` and every block. */
interface Break {
  start: number;
  end: number;
}

/** The level of each ATX heading line of a text outside code (`### Modify items` is 3), in order. */
function headingLevels(text: string, inCode: (index: number) => boolean): number[] {
  return [...text.matchAll(/^(#{1,6})[ \t]+\S/gmu)]
    .filter((match) => !inCode(match.index))
    .map((match) => (match[1] as string).length);
}

/**
 * Whether an XML-like element (`<example>` … `</example>`, as prompts fence their examples) is open at the
 * end of `text`: a cut there would put the next part's heading inside it.
 */
function insideElement(text: string): boolean {
  const open: string[] = [];
  for (const match of text.matchAll(/<(\/?)([A-Za-z][\w-]*)(?:\s[^<>]*)?>/gu)) {
    const [, closing, name] = match as unknown as [string, string, string];
    if (match[0].endsWith('/>')) continue;
    if (closing === '') open.push(name);
    else {
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
    }
  }
  return open.length > 0;
}

/**
 * Paragraph breaks where the template can be cut into two templates that each stand alone: outside code and
 * blocks, not where the paragraph after leans on the one before (`leansOnTextBefore`), and not inside a
 * heading's part of the template: under "### Modify items", the rules after a cut would stand under the
 * section's "(continued)" title, no longer under their subsection's. A cut right before a heading of the
 * same or a higher level takes that part whole.
 */
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
    if (leansOnTextBefore(template.slice(0, start), template.slice(end))) continue;
    if (insideElement(template.slice(0, start))) continue;
    const under = headingLevels(template.slice(0, start), scan.inCode).at(-1);
    if (under !== undefined) {
      const opening = /^(#{1,6})[ \t]+\S/u.exec(template.slice(end))?.[1]?.length;
      if (opening === undefined || opening > under) continue;
    }
    breaks.push({ start, end });
  }
  return breaks;
}

/**
 * Splits unpinned sections whose template has several top-level paragraphs into two sections at a
 * blank line outside any `{{#…}}…{{/…}}` block, where the paragraph after does not lean on the one before (a
 * list stays with the sentence that introduces it, a paragraph that refers back stays with what it refers
 * to); the second part gets a fresh id and the title "<title> (continued)". Severity is the share of
 * splittable sections split. Skips when none can be split.
 *
 * @example
 * const applied = await applyOperator(splitSection, harness, { rng: 'seed', severity: 1 });
 * applied.harness.prompt.sections.map((section) => section.id) // e.g. [… 'customer', 'customer_continued', …]
 */
export const splitSection = defineOperator({
  id: 'prompt/split-section',
  // 2: no split where the paragraph after leans on the one before (a list after its lead-in).
  // 3: a line that renders a value (`{{skillList}}`) counts as a list.
  // 4: a paragraph that names what the one before names ("Follow that skill", "offer these compensations") is
  // not split from it.
  // 5: no split inside a heading's part of the template ("### Modify items"): what follows the cut would lose
  // its heading; no split before an example, a warning or a note on the paragraph before (`leansOnPrevious`);
  // no split inside an element (`<example>` … `</example>`).
  version: 5,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Splits prompt sections at a top-level paragraph break; their text and order stay.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    const sections = harness.prompt.sections;
    const breaks = sections.map((section) => (section.pinned ? [] : safeBreaks(section.template)));
    const candidates = sections.flatMap((_, index) => ((breaks[index]?.length ?? 0) > 0 ? [index] : []));
    if (candidates.length === 0)
      return {
        skip: 'no unpinned section has a paragraph break outside a block where its parts stand alone',
      };
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
      next.push(
        { ...section, template: section.template.slice(0, cut.start) },
        {
          id,
          title: continuationTitle(section.title),
          template: section.template.slice(cut.end),
          pinned: false,
        },
      );
    });
    const variant = { ...harness, prompt: { ...harness.prompt, sections: next } };
    if (!promptVariantHolds(harness, variant, run, trajectory))
      return { skip: 'the split prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
