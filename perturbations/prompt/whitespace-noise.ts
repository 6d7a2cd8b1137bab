// perturbations/prompt/whitespace-noise.ts — adds whitespace and title-casing noise to prompt sections; words, `{{ }}` code and identifiers stay.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  findMentions,
  harnessSymbols,
  identityRelabel,
  type PromptSection,
  type Random,
  type SymbolEntry,
} from '../../src/kit/index.js';
import { promptVariantHolds, scanTemplate } from './_template-scan.js';

const noiseKinds = ['trailing-spaces', 'blank-lines', 'title-case'] as const;
type NoiseKind = (typeof noiseKinds)[number];

/** Adds or removes trailing spaces at line ends that lie outside `{{ }}`. */
function trailingSpaces(template: string, rng: Random, share: number): string {
  const scan = scanTemplate(template);
  if (!scan) return template;
  const lines = template.split('\n');
  let offset = 0;
  const out = lines.map((line) => {
    const lineEnd = offset + line.length;
    offset = lineEnd + 1;
    // Lines of `{{ }}` only are standalone block tags whose whitespace Handlebars strips; leave them be.
    const prose = scan.spans
      .filter((span) => span.end > lineEnd - line.length && span.start < lineEnd)
      .reduce((text, span) => text.replace(template.slice(span.start, span.end), ''), line);
    if (scan.inCode(lineEnd) || prose.trim() === '') return line;
    if (!rng.chance(share)) return line;
    const trimmed = line.replace(/[ \t]+$/, '');
    return trimmed !== line ? trimmed : `${line}${rng.pick([' ', '  '])}`;
  });
  return out.join('\n');
}

/** Doubles some blank lines between paragraphs (outside `{{ }}`). */
function blankLines(template: string, rng: Random, share: number): string {
  const scan = scanTemplate(template);
  if (!scan) return template;
  return template.replace(/\n\n/g, (match, index: number) =>
    !scan.inCode(index) && !scan.inCode(index + 1) && rng.chance(share) ? `${match}\n` : match,
  );
}

const casings = {
  title: (text: string) =>
    text.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase()),
  lower: (text: string) => text.toLowerCase(),
  upper: (text: string) => text.toUpperCase(),
} as const;

/** Re-cases a title, unless it names an identifier (whose spelling must stay). */
function titleCase(title: string, symbols: readonly SymbolEntry[], rng: Random): string {
  if (findMentions({ path: [], text: title }, symbols).length > 0) return title;
  const options = Object.values(casings)
    .map((casing) => casing(title))
    .filter((text) => text !== title);
  return options.length === 0 ? title : rng.pick(options);
}

/**
 * Adds whitespace and casing noise that keeps the content: trailing spaces added or removed at line ends
 * outside `{{ }}`, blank lines between paragraphs doubled, section titles re-cased (Title Case, lower,
 * UPPER) unless they name an identifier. Severity is the share of sections touched and how many kinds of
 * noise each gets.
 *
 * @example
 * const applied = await applyOperator(whitespaceNoise, harness, { rng: 'seed', severity: 1 });
 * applied.harness.prompt.sections[1].title // e.g. 'SKILLS'
 */
export const whitespaceNoise = defineOperator({
  id: 'prompt/whitespace-noise',
  version: 1,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Adds whitespace and title-casing noise to prompt sections; words, code and identifiers stay.',
  params: z.object({
    kinds: z
      .array(z.enum(noiseKinds))
      .min(1)
      .default([...noiseKinds]),
  }),
  apply(harness, { rng, severity, params, trajectory, run }) {
    const symbols = harnessSymbols(harness);
    const kinds = noiseKinds.filter((kind) => params.kinds.includes(kind));
    const sections = harness.prompt.sections;
    const noisy = (
      section: PromptSection,
      kind: NoiseKind,
      kindRng: Random,
      share: number,
    ): PromptSection => {
      switch (kind) {
        case 'trailing-spaces':
          return { ...section, template: trailingSpaces(section.template, kindRng, share) };
        case 'blank-lines':
          return { ...section, template: blankLines(section.template, kindRng, share) };
        case 'title-case':
          return { ...section, title: titleCase(section.title, symbols, kindRng) };
      }
    };
    const same = (a: PromptSection, b: PromptSection) => a.template === b.template && a.title === b.title;
    const order = rng.fork('sections').shuffle(sections.map((_, index) => index));
    const target = affectedCount(severity, sections.length);
    const next = [...sections];
    let changed = 0;
    // Sections in random order until the share is reached; one that no noise changes does not count.
    for (const index of order) {
      if (changed >= target) break;
      const sectionRng = rng.fork(`section/${index}`);
      const count = affectedCount(severity, kinds.length);
      const before = sections[index] as PromptSection;
      let section = before;
      for (const kind of sectionRng.fork('kinds').sample(kinds, count)) {
        section = noisy(section, kind, sectionRng.fork(kind), 0.5);
      }
      // Nothing changed by chance: each allowed kind in turn, on every place it can reach.
      for (const kind of kinds) {
        if (!same(section, before)) break;
        section = noisy(section, kind, sectionRng.fork(`all/${kind}`), 1);
      }
      if (!same(section, before)) {
        next[index] = section;
        changed++;
      }
    }
    if (changed === 0) return { skip: 'no prompt section has text that whitespace noise can change' };
    const variant = { ...harness, prompt: { ...harness.prompt, sections: next } };
    if (!promptVariantHolds(harness, variant, run, trajectory))
      return { skip: 'the noisy prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
