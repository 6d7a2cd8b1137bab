// perturbations/prompt/merge-sections.ts — merges adjacent unpinned prompt sections into one; every template's text stays, in order.

import { z } from 'zod';
import { affectedCount, defineOperator, identityRelabel, type PromptSection } from '../../src/kit/index.js';
import { isChinese, joinsWhatComesBefore, promptVariantHolds } from './_template-scan.js';

function mergedTitle(first: string, second: string, joiner: 'and' | 'slash'): string {
  if (isChinese(first) && isChinese(second))
    return joiner === 'and' ? `${first}与${second}` : `${first}、${second}`;
  return joiner === 'and' ? `${first} & ${second}` : `${first} / ${second}`;
}

/**
 * Merges pairs of adjacent unpinned sections: the first section's id stays, the title reads "A & B" (or
 * "A / B"), and the template is A's template, a blank line, then B's. A pair is left apart when B's text
 * would read as part of A's under one title (`joinsWhatComesBefore`): B opens with a list or with a value
 * that renders one (a skill catalogue after a policy's rules would read as more rules), or A ends on a colon.
 * Severity is the share of the possible merges carried out (at least one). Skips when no two adjacent
 * sections can merge.
 *
 * @example
 * const applied = await applyOperator(mergeSections, harness, { rng: 'seed', severity: 0.5 });
 * applied.harness.prompt.sections.map((section) => section.title) // e.g. ['Role', 'Skills & Tools', 'Passenger']
 */
export const mergeSections = defineOperator({
  id: 'prompt/merge-sections',
  // 2: a pair is left apart when the second's text would read as part of the first's (a list after the first).
  version: 2,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Merges adjacent unpinned prompt sections; their text and order stay.',
  params: z.object({ joiner: z.enum(['and', 'slash', 'any']).default('any') }),
  apply(harness, { rng, severity, params, trajectory, run }) {
    const original = harness.prompt.sections;
    const pairsIn = (sections: ReadonlyArray<PromptSection & { merged?: boolean }>) =>
      sections.flatMap((section, index) => {
        const next = sections[index + 1];
        return next &&
          !section.pinned &&
          !next.pinned &&
          !section.merged &&
          !next.merged &&
          !joinsWhatComesBefore(section.template, next.template)
          ? [index]
          : [];
      });
    const possible = pairsIn(original);
    if (possible.length === 0)
      return {
        skip: 'no two adjacent unpinned prompt sections can merge without one reading as part of the other',
      };
    // Disjoint pairs at most: a merged section is not merged again, so the target is half the runs' length.
    const target = affectedCount(severity, Math.max(1, Math.floor((possible.length + 1) / 2)));
    let sections: Array<PromptSection & { merged?: boolean }> = [...original];
    for (let step = 0; step < target; step++) {
      const pairs = pairsIn(sections);
      if (pairs.length === 0) break;
      const stepRng = rng.fork(`merge/${step}`);
      const at = stepRng.pick(pairs);
      const first = sections[at] as PromptSection;
      const second = sections[at + 1] as PromptSection;
      const joiner = params.joiner === 'any' ? stepRng.pick(['and', 'slash'] as const) : params.joiner;
      const merged = {
        id: first.id,
        title: mergedTitle(first.title, second.title, joiner),
        template: `${first.template}\n\n${second.template}`,
        pinned: false,
        merged: true,
      };
      sections = [...sections.slice(0, at), merged, ...sections.slice(at + 2)];
    }
    const next: PromptSection[] = sections.map(({ id, title, template, pinned }) => ({
      id,
      title,
      template,
      pinned,
    }));
    const variant = { ...harness, prompt: { ...harness.prompt, sections: next } };
    if (!promptVariantHolds(harness, variant, run, trajectory))
      return { skip: 'the merged prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
