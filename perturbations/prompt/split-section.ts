// perturbations/prompt/split-section.ts — splits unpinned prompt sections at a top-level paragraph break; every template's text stays, in order.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  harnessSymbols,
  identityRelabel,
  leansOnPrevious,
  type PromptSection,
} from '../../src/kit/index.js';
import { continuationTitle, freshSectionId, promptVariantHolds, scanTemplate } from './_template-scan.js';

/** A blank-line break of a template that lies outside every `{{ }}` and every block. */
interface Break {
  start: number;
  end: number;
}

/** A line that is nothing but `{{ … }}` tags (a block's start or end, a condition): it writes no prose itself. */
const onlyTags = /^(?:\{\{[^}]*\}\}\s*)+$/;
const leadingTags = /^(?:\{\{[^}]*\}\}\s*)+/;
const listItem = /^(?:[-*+•]|\d{1,3}[.)、])\s*/u;

/** The lines of a paragraph that write prose, trimmed, tags at their start left out. */
function proseLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !onlyTags.test(line))
    .map((line) => line.replace(leadingTags, ''));
}

/**
 * Why the text after a paragraph break cannot stand apart from the text before it, or undefined: a list
 * right after prose belongs to that prose ("China's advertising law applies to every reply." then its rules),
 * and a paragraph that completes or refers back to the one before it (`leansOnPrevious`: the one before ends
 * on ":" or "or", this one opens with "Otherwise", "This", "If it is not" …) leans on it.
 */
function leansOnParagraphBefore(before: string, after: string): string | undefined {
  const last = proseLines(before).at(-1);
  const first = proseLines(after)[0];
  if (last === undefined || first === undefined) return undefined;
  if (listItem.test(first) && !listItem.test(last)) return 'a list right after the prose that introduces it';
  return leansOnPrevious(last, first);
}

/**
 * Paragraph breaks where the template can be cut into two templates that each stand alone: outside code and
 * blocks, and not where the paragraph after leans on the one before (`leansOnParagraphBefore`).
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
    if (leansOnParagraphBefore(template.slice(0, start), template.slice(end))) continue;
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
  version: 2,
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
