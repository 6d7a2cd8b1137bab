// perturbations/prompt/heading-style.ts — changes how section headings render (Markdown, XML, numbered, bracketed); sections stay.

import { z } from 'zod';
import { defineOperator, HeadingStyleSchema, identityRelabel } from '../../src/kit/index.js';
import { promptVariantHolds } from './_template-scan.js';

/**
 * Switches `prompt.headingStyle` to another of markdown, xml, numbered and bracketed (or to `style` when
 * given). Any severity above zero changes the style; the sections themselves stay as they are.
 *
 * @example
 * const applied = await applyOperator(headingStyle, harness, { rng: 'seed', params: { style: 'xml' } });
 * applied.harness.prompt.headingStyle // 'xml'
 */
export const headingStyle = defineOperator({
  id: 'prompt/heading-style',
  version: 1,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Changes the heading style of prompt sections; titles, order and templates stay.',
  params: z.object({ style: HeadingStyleSchema.optional() }),
  apply(harness, { rng, params, trajectory, run }) {
    const current = harness.prompt.headingStyle;
    if (params.style === current) return { skip: `the heading style is already "${current}"` };
    const style = params.style ?? rng.pick(HeadingStyleSchema.options.filter((option) => option !== current));
    const variant = { ...harness, prompt: { ...harness.prompt, headingStyle: style } };
    if (!promptVariantHolds(harness, variant, run, trajectory)) return { skip: 'the prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
