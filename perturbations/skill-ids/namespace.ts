// skill-ids/namespace — prefixes skill ids with a namespace (their kind, or a fixed one) everywhere the harness names them; bodies, kinds, order and loads stay.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  mentionedInFreeText,
  nameJudge,
  renameSymbols,
  VocabularyParam,
  withinVocabulary,
} from '../../src/kit/index.js';
import { createNameGuard } from './skill-names.js';

/**
 * Prefixes a share (= severity, at least one) of the skill ids with a namespace and a separator:
 * `reply.item_qa`, `strategy/promo_push`, or `param::item_qa` with `namespace: 'param'`. The namespace is
 * the skill's kind unless the `namespace` param fixes one; without one, a harness whose skills all have the
 * same kind is skipped (the kind would tell them nothing apart, and an importer's default `reply` mislabels). Renames go through the symbol table, so loads
 * and mentions follow with an exact inverse. Skills already under the namespace, skills whose prefixed id
 * would collide, whose namespace is a function word or a word of another identifier (`nameJudge`), and
 * skills a given trajectory names in a reply or a tool result are left alone.
 *
 * @example
 * await applyOperator(namespaceSkillIds, travelHarness(), { rng: 'seed', params: { separator: '::' } });
 * // baggage → reply::baggage, apology_first → strategy::apology_first
 */
export const namespaceSkillIds = defineOperator({
  id: 'skill-ids/namespace',
  // 4: no word from the first item of an enumeration in the description (the name rule).
  // 5: a name after a namespace qualifier (`superpowers:<id>`) is a mention, and is renamed.
  // 6: a plain id followed by the word "skill" ("the docx skill") is a mention, and is renamed.
  // 7: no namespace by kind where every skill has the same kind (`reply.` on every imported skill).
  version: 7,
  dimension: 'skill-ids',
  mode: 'exact',
  description:
    'Prefixes skill ids with a namespace (their kind by default) and a separator; loads and mentions follow.',
  params: z.object({
    namespace: z
      .string()
      .regex(
        /^[^\s./:](?:[^\r\n]*[^\s./:])?$/u,
        'must be one line, without edge spaces or separators at the edges',
      )
      .optional(),
    separator: z.enum(['.', '/', '::']).default('.'),
    vocabulary: VocabularyParam,
  }),
  apply(harness, { rng, severity, params, trajectory, run }) {
    const skills = harness.skills.items;
    if (skills.length === 0) return { skip: 'the harness has no skills' };
    // A kind that every skill shares tells the skills nothing apart, and where it is an importer's default
    // (`reply` for every imported SKILL.md) it mislabels them: `reply.github` for a knowledge skill.
    if (params.namespace === undefined && new Set(skills.map((skill) => skill.kind)).size < 2)
      return { skip: 'every skill has the same kind: a namespace by kind would tell them nothing' };
    const mentioned = mentionedInFreeText(
      trajectory,
      harness,
      skills.map((skill) => skill.id),
      'skill',
    );
    const target = (skill: (typeof skills)[number]) =>
      `${params.namespace ?? skill.kind}${params.separator}${skill.id}`;
    const eligible = skills.filter(
      (skill) =>
        !mentioned.has(skill.id) &&
        !skill.id.startsWith(`${params.namespace ?? skill.kind}${params.separator}`),
    );
    if (eligible.length === 0)
      return { skip: 'no skill can take the namespace (already namespaced, or named in the trajectory)' };
    const chosen = rng.fork('skills').sample(eligible, affectedCount(severity, eligible.length));
    const accept = withinVocabulary(
      createNameGuard(harness, { trajectory, freed: chosen.map((skill) => skill.id) }),
      params.vocabulary,
    );
    const map: Record<string, string> = {};
    for (const skill of chosen) {
      const judge = nameJudge(harness, { kind: 'skill', name: skill.id });
      if (judge.accepts(target(skill)) && accept(target(skill))) map[skill.id] = target(skill);
    }
    if (Object.keys(map).length === 0)
      return { skip: 'every namespaced id would collide with a name the harness already uses' };
    return renameSymbols(harness, { skills: map }, { hookChecks: run.hookChecks });
  },
});
