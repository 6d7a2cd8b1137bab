// perturbations/prompt/heading-style.ts — changes how section headings render (Markdown, XML, numbered, bracketed); sections stay.

import { z } from 'zod';
import { defineOperator, type Harness, HeadingStyleSchema, identityRelabel } from '../../src/kit/index.js';
import { promptVariantHolds } from './_template-scan.js';

/** A line of a numbered list ("1. Ask first"), as a template or a rendered list writes it. */
const numberedLine = /^[ \t]*\d{1,9}[.)][ \t]+\S/mu;

/**
 * Whether numbered headings ("2. Workflow") would run into a numbered list of the prompt: a template's own,
 * or the skill and tool lists rendered numbered. Markdown would read them as one list and renumber it.
 */
const numberedListsIn = (harness: Harness): boolean =>
  harness.prompt.listStyle === 'numbered' ||
  harness.prompt.sections.some((section) => numberedLine.test(section.template));

/** A Markdown heading line ("### Modify items"), outside fenced code. */
const markdownHeadingLine = /^ {0,3}#{1,6}[ \t]+\S/mu;
const fencedCode = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[ \t]*$|(?![\s\S]))/gmu;

/**
 * Whether a section holds Markdown headings of its own. Numbered ("4. Modify pending order") and bracketed
 * ("[Modify pending order]") section headings are no Markdown headings: a section's own "### Modify items"
 * would then be the last heading before the next section, and that section's rules would read as part of
 * it. Markdown headings and XML tags still bound each section.
 */
const ownHeadingsIn = (harness: Harness): boolean =>
  harness.prompt.sections.some((section) =>
    markdownHeadingLine.test(section.template.replace(fencedCode, '')),
  );

/** The styles whose section headings would not bound a section that holds headings of its own. */
const unboundedStyles = new Set(['numbered', 'bracketed']);

/**
 * Switches `prompt.headingStyle` to another of markdown, xml, numbered and bracketed (or to `style` when
 * given). Any severity above zero changes the style; the sections themselves stay as they are. Numbered
 * headings are not drawn for a prompt that holds a numbered list (`numberedListsIn`), nor numbered or
 * bracketed ones for a prompt whose sections hold Markdown headings of their own (`ownHeadingsIn`).
 *
 * @example
 * const applied = await applyOperator(headingStyle, harness, { rng: 'seed', params: { style: 'xml' } });
 * applied.harness.prompt.headingStyle // 'xml'
 */
export const headingStyle = defineOperator({
  id: 'prompt/heading-style',
  // 2: no numbered headings over a numbered list ("2. Workflow" then "1. First …").
  // 3: no numbered or bracketed headings over sections with headings of their own (τ-bench's "### Modify items").
  version: 3,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Changes the heading style of prompt sections; titles, order and templates stay.',
  params: z.object({ style: HeadingStyleSchema.optional() }),
  apply(harness, { rng, params, trajectory, run }) {
    const current = harness.prompt.headingStyle;
    if (params.style === current) return { skip: `the heading style is already "${current}"` };
    const listed = numberedListsIn(harness);
    if (params.style === 'numbered' && listed)
      return { skip: 'numbered headings would run into a numbered list of the prompt' };
    const headed = ownHeadingsIn(harness);
    if (params.style !== undefined && headed && unboundedStyles.has(params.style))
      return { skip: `${params.style} headings would not bound sections that hold headings of their own` };
    const style =
      params.style ??
      rng.pick(
        HeadingStyleSchema.options.filter(
          (option) =>
            option !== current &&
            !(option === 'numbered' && listed) &&
            !(headed && unboundedStyles.has(option)),
        ),
      );
    const variant = { ...harness, prompt: { ...harness.prompt, headingStyle: style } };
    if (!promptVariantHolds(harness, variant, run, trajectory)) return { skip: 'the prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
