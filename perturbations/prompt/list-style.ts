// perturbations/prompt/list-style.ts — changes how `{{skillList}}` and `{{toolList}}` render (bullets, numbered, table, JSON, YAML); lists stay.

import { z } from 'zod';
import { defineOperator, identityRelabel, ListStyleSchema } from '../../src/kit/index.js';
import { promptVariantHolds, scanTemplate } from './_template-scan.js';

/**
 * Switches `prompt.listStyle` to another of bullets, numbered, table, json and yaml (or to `style` when
 * given), which changes how `{{skillList}}` and `{{toolList}}` render. Skips when no template uses them.
 *
 * @example
 * const applied = await applyOperator(listStyle, harness, { rng: 'seed', params: { style: 'table' } });
 * applied.harness.prompt.listStyle // 'table'
 */
export const listStyle = defineOperator({
  id: 'prompt/list-style',
  // 2: no numbered lists under numbered headings; no table of descriptions of several lines.
  version: 2,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Changes the list style of the rendered skill and tool lists; their items stay.',
  params: z.object({ style: ListStyleSchema.optional() }),
  apply(harness, { rng, params, trajectory, run }) {
    const usesLists = harness.prompt.sections.some((section) => {
      const scan = scanTemplate(section.template);
      // A template the scanner cannot read is searched as plain text.
      return scan
        ? scan.reads('skillList') || scan.reads('toolList')
        : /\b(skillList|toolList)\b/.test(section.template);
    });
    if (!usesLists) return { skip: 'no prompt section uses {{skillList}} or {{toolList}}' };
    const current = harness.prompt.listStyle;
    if (params.style === current) return { skip: `the list style is already "${current}"` };
    // Numbered lists under numbered headings would read as one list ("2. Skills" then "1. item_qa: …"), and
    // a table row holds one line: a description of several (a coding agent's tool manual) would be squashed.
    const underNumbered = harness.prompt.headingStyle === 'numbered';
    const multiline = [...harness.skills.items, ...harness.tools.items].some((item) =>
      item.description.includes('\n'),
    );
    if (params.style === 'table' && multiline)
      return { skip: 'a table would squash a description of several lines onto one' };
    if (params.style === 'numbered' && underNumbered)
      return { skip: 'a numbered list would run into the numbered headings' };
    const style =
      params.style ??
      rng.pick(
        ListStyleSchema.options.filter(
          (option) =>
            option !== current &&
            !(option === 'numbered' && underNumbered) &&
            !(option === 'table' && multiline),
        ),
      );
    const variant = { ...harness, prompt: { ...harness.prompt, listStyle: style } };
    if (!promptVariantHolds(harness, variant, run, trajectory)) return { skip: 'the prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
