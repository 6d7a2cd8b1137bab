// perturbations/prompt/list-style.ts — changes how `{{skillList}}` and `{{toolList}}` render (bullets, numbered, table, JSON, YAML); lists stay.

import { z } from 'zod';
import { defineOperator, type Harness, identityRelabel, ListStyleSchema } from '../../src/kit/index.js';
import { promptVariantHolds, scanTemplate } from './_template-scan.js';

type ListStyle = z.infer<typeof ListStyleSchema>;

/** Words of a lead-in that name a list's format, by the style that renders it. */
const formatWords: readonly (readonly [ListStyle, RegExp])[] = [
  ['json', /\bjson\b/iu],
  ['yaml', /\bya?ml\b/iu],
  ['table', /\btable\b|\btabular\b/iu],
  ['numbered', /\bnumbered\b|\benumerated\b|\bordered list\b/iu],
  ['bullets', /\bbullet(?:s|ed)?\b|\bunordered list\b/iu],
];

const listPlaceholder = /\{\{\{?~?\s*(skillList|toolList)\s*~?\}?\}\}/gu;

/**
 * The styles the prose introducing each rendered list names, by list: the paragraph before the
 * placeholder (back to a blank line or the other list), without its mustaches. BFCL's "Here is a list of
 * functions in JSON format that you can invoke." names `json` for `{{toolList}}`. Only that lead-in is
 * read: a "JSON" elsewhere in the prompt (a reply format) says nothing of the list.
 */
function namedStyles(harness: Harness): Map<'skillList' | 'toolList', Set<ListStyle>> {
  const named = new Map<'skillList' | 'toolList', Set<ListStyle>>();
  for (const { template } of harness.prompt.sections) {
    let from = 0;
    for (const match of template.matchAll(listPlaceholder)) {
      const paragraphs = template.slice(from, match.index).split(/\n[^\S\n]*\n/u);
      const leadIn = (paragraphs[paragraphs.length - 1] as string).replace(/\{\{[^}]*\}\}\}?/gu, ' ');
      from = match.index + match[0].length;
      const styles = formatWords.filter(([, words]) => words.test(leadIn)).map(([style]) => style);
      if (styles.length === 0) continue;
      const name = match[1] as 'skillList' | 'toolList';
      const known = named.get(name);
      // Two lead-ins of one list that name formats: only a style both name fits both.
      named.set(name, new Set(known ? styles.filter((style) => known.has(style)) : styles));
    }
  }
  return named;
}

/**
 * Switches `prompt.listStyle` to another of bullets, numbered, table, json and yaml (or to `style` when
 * given), which changes how `{{skillList}}` and `{{toolList}}` render. Skips when no template uses them,
 * when a description in a list a template renders spans several lines (its own headings and numbered items
 * would run into the restyled list), and never numbers the lists under numbered headings. A list whose
 * lead-in names its format (BFCL's "Here is a list of functions in JSON format that you can invoke.") is
 * restyled only to that format, the one restyle that agrees with the text (a base in another style
 * contradicted it), and is skipped when it already has it: any other style would contradict the prose.
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
  // 4: a list whose lead-in names its format ("a list of functions in JSON format", BFCL) takes only that
  // format: BFCL's JSON list had become a table, YAML or a numbered list.
  version: 4,
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
    // A list whose lead-in names its format keeps to it ("in JSON format": no table).
    const named = [...namedStyles(harness)].filter(
      ([name]) => (name === 'skillList' && usesSkills) || (name === 'toolList' && usesTools),
    );
    const fitsText = (option: ListStyle) => named.every(([, styles]) => styles.has(option));
    if (params.style !== undefined && !fitsText(params.style))
      return { skip: `the text before a rendered list names another format than "${params.style}"` };
    const options = ListStyleSchema.options.filter(
      (option) => option !== current && !(option === 'numbered' && underNumbered) && fitsText(option),
    );
    if (options.length === 0)
      return { skip: 'the text before a rendered list names its format, and no other style fits it' };
    const style = params.style ?? rng.pick(options);
    const variant = { ...harness, prompt: { ...harness.prompt, listStyle: style } };
    if (!promptVariantHolds(harness, variant, run, trajectory)) return { skip: 'the prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
