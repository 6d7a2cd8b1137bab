// perturbations/prompt/list-style.ts — changes how `{{skillList}}` and `{{toolList}}` render (bullets, numbered, table, JSON, YAML); lists stay.

import { z } from 'zod';
import { defineOperator, identityRelabel, ListStyleSchema } from '../../src/kit/index.js';
import { promptVariantHolds, scanTemplate } from './_template-scan.js';

/**
 * Switches `prompt.listStyle` to another of bullets, numbered, table, json and yaml (or to `style` when
 * given), which changes how `{{skillList}}` and `{{toolList}}` render. Skips when no template uses them,
 * when a description in a list a template renders spans several lines (its own headings and numbered items
 * would run into the restyled list), and never numbers the lists under numbered headings.
 *
 * @example
 * const applied = await applyOperator(listStyle, harness, { rng: 'seed', params: { style: 'table' } });
 * applied.harness.prompt.listStyle // 'table'
 */
export const listStyle = defineOperator({
  id: 'prompt/list-style',
  // 2: no numbered lists under numbered headings; no table of descriptions of several lines.
  // 3: no restyle at all of a list with a description of several lines (OpenHands' task_tracker and its own
  // numbered items); only the lists a template renders count.
  version: 3,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Changes the list style of the rendered skill and tool lists; their items stay.',
  params: z.object({ style: ListStyleSchema.optional() }),
  apply(harness, { rng, params, trajectory, run }) {
    const reads = (name: 'skillList' | 'toolList') =>
      harness.prompt.sections.some((section) => {
        const scan = scanTemplate(section.template);
        // A template the scanner cannot read is searched as plain text.
        return scan ? scan.reads(name) : new RegExp(`\\b${name}\\b`).test(section.template);
      });
    const usesSkills = reads('skillList');
    const usesTools = reads('toolList');
    if (!usesSkills && !usesTools) return { skip: 'no prompt section uses {{skillList}} or {{toolList}}' };
    const current = harness.prompt.listStyle;
    if (params.style === current) return { skip: `the list style is already "${current}"` };
    // A listed description of several lines (a coding agent's tool manual) carries its own headings and
    // numbered items: in a numbered list "6. task_tracker: …" runs into its "1. …", bullets or numbers around
    // it read as one list with them, and a table row would squash it. No style is safe: keep the author's.
    const listed = [...(usesSkills ? harness.skills.items : []), ...(usesTools ? harness.tools.items : [])];
    if (listed.some((item) => item.description.includes('\n')))
      return { skip: 'a listed description of several lines would run into the list around it' };
    // Numbered lists under numbered headings would read as one list ("2. Skills" then "1. item_qa: …").
    const underNumbered = harness.prompt.headingStyle === 'numbered';
    if (params.style === 'numbered' && underNumbered)
      return { skip: 'a numbered list would run into the numbered headings' };
    const style =
      params.style ??
      rng.pick(
        ListStyleSchema.options.filter(
          (option) => option !== current && !(option === 'numbered' && underNumbered),
        ),
      );
    const variant = { ...harness, prompt: { ...harness.prompt, listStyle: style } };
    if (!promptVariantHolds(harness, variant, run, trajectory)) return { skip: 'the prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
