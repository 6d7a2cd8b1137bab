// skill-ids/rename — renames skill ids (re-cased, opaque codes, phrases, non-ASCII labels) everywhere the harness names them; bodies, kinds, order and loads stay.

import { z } from 'zod';
import {
  affectedCount,
  buildSymbolTable,
  type CaseStyle,
  defineOperator,
  findMentions,
  formatWords,
  functionWords,
  type Harness,
  type HookCheckRegistry,
  harnessTextLocations,
  identifierWords,
  kindNouns,
  mentionedInFreeText,
  type NameJudge,
  namedByKindWord,
  nameJudge,
  namesQuotedAsWords,
  type Random,
  renameSymbols,
  type Script,
  type Skill,
  scripts,
  skillWord,
  trajectoryReplies,
  translateWord,
  VocabularyParam,
  withinVocabulary,
  wordJoiner,
} from '../../src/kit/index.js';
import { createNameGuard } from './skill-names.js';

const concreteStyles = ['snake', 'camel', 'kebab', 'opaque', 'phrase', 'non-ascii'] as const;
type ConcreteStyle = (typeof concreteStyles)[number];

const suffixWords = ['skill', 'rules', 'guide', 'playbook', 'notes'] as const;
const phraseNouns = kindNouns.skill;
const opaquePrefixes = ['S', 'SK', 'R', 'K'] as const;
/** Function words and the imperative verbs descriptions open with; phrases are built from the rest. */
const stopwords = new Set(
  [
    'a an the and or of to for with on in at by from about into onto one two each any all their its his her',
    'your our what when how that this these those is are be as it no not only then than more most other another',
    'answer handle explain quote say give find guide respond recommend help use make get tell ask keep open',
  ]
    .join(' ')
    .split(' '),
);

type Accept = (candidate: string) => boolean;

/** An unused code `PREFIX-NN` (more digits once two-digit codes run short). */
function opaqueCode(prefix: string, rng: Random, accept: Accept): string {
  for (let attempt = 0; ; attempt++) {
    const digits = attempt < 50 ? 2 : attempt < 500 ? 3 : 4;
    const number = rng.int(1, 10 ** digits - 1);
    const candidate = `${prefix}-${String(number).padStart(digits, '0')}`;
    if (accept(candidate)) return candidate;
  }
}

function recased(skill: Skill, style: CaseStyle, rng: Random, accept: Accept): string | undefined {
  const words = identifierWords(skill.id);
  if (words.length === 0) return undefined;
  const candidates = [
    formatWords(words, style),
    ...rng.shuffle(suffixWords).map((suffix) => formatWords([...words, suffix], style)),
    ...Array.from({ length: 8 }, (_, index) => formatWords([...words, String(index + 2)], style)),
  ];
  return candidates.find((candidate) => candidate !== skill.id && accept(candidate));
}

/**
 * Skill ids a text names bare, in prose, other than before the word "skill" ("Every research-lookup result
 * MUST be saved", "use scientific-critical-thinking"): a phrase with spaces would read there as ordinary words
 * ("Every research lookup rules result"). The harness's texts and the given replies are read.
 */
function namedBareInProse(
  harness: Harness,
  replies: readonly string[],
  hookChecks: HookCheckRegistry | undefined,
): Set<string> {
  const texts = new Map(
    harnessTextLocations(harness).map((location) => [JSON.stringify(location.path), location.text]),
  );
  const bare = new Set<string>();
  for (const mention of buildSymbolTable(harness, hookChecks).mentions) {
    const text = texts.get(JSON.stringify(mention.path));
    if (mention.kind === 'skill' && text !== undefined && bareInProse(text, mention)) bare.add(mention.name);
  }
  for (const name of bareInReplies(harness.skills.items, replies)) bare.add(name);
  return bare;
}

/** A mention written bare, other than before the word "skill" (where a phrase still reads as a name). */
const bareInProse = (text: string, mention: { start: number; end: number; form: string }) =>
  mention.form === 'bare' && !namedByKindWord(text, mention.start, mention.end, 'skill');

/** The ids of `skills` that the replies name bare in prose, in the order found. */
function* bareInReplies(skills: readonly Skill[], replies: readonly string[]): Generator<string> {
  if (skills.length === 0) return;
  const symbols = skills.map((skill) => ({ kind: 'skill' as const, name: skill.id, definedAt: [] }));
  for (const reply of replies)
    for (const mention of findMentions({ path: [], text: reply }, symbols))
      if (bareInProse(reply, mention)) yield mention.name;
}

/** Content words of a description, in order, without stop words and words the judge refuses to add. */
function contentWords(description: string, judge: NameJudge): string[] {
  return (description.match(/[\p{L}\p{N}]+/gu) ?? [])
    .map((word) => word.toLowerCase())
    .filter((word) => !stopwords.has(word) && !/^\p{N}+$/u.test(word) && judge.mayAdd(word))
    .map((word) =>
      [...word].length > 8 && /\p{Script=Han}/u.test(word) ? [...word].slice(0, 6).join('') : word,
    );
}

function phrase(skill: Skill, judge: NameJudge, rng: Random, accept: Accept): string | undefined {
  const words = contentWords(skill.description, judge);
  const idWords = identifierWords(skill.id);
  const nouns = rng.shuffle(phraseNouns);
  // The id's own words first (`stock check guide`), then the description's first content words.
  const heads = [idWords, [...idWords, ...words.slice(0, 1)], words.slice(0, 2), words.slice(0, 3)].filter(
    (head) => head.length > 0,
  );
  for (const head of heads) {
    for (const noun of nouns) {
      const candidate = [...head, noun].join(' ');
      if (accept(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * A label in another script: the translations of every content word of the id, in order (function words and
 * nouns of a skill's kind aside), else an opaque code in that script. A description word alone ("plan" for
 * `data-refueling`) would name another task, and so would a part of the id (`取消订单`, "cancel order", for
 * `cancel-pending-order`).
 */
function nonAscii(skill: Skill, script: Script, rng: Random, accept: Accept): string {
  const labels: string[] = [];
  for (const word of identifierWords(skill.id)) {
    if (functionWords.has(word) || phraseNouns.includes(word)) continue;
    const label = translateWord(word, script);
    if (label === undefined) return opaqueCode(skillWord[script], rng, accept);
    if (!labels.includes(label)) labels.push(label);
  }
  const label = labels.join(wordJoiner[script]);
  return labels.length > 0 && accept(label) ? label : opaqueCode(skillWord[script], rng, accept);
}

/**
 * Renames a share (= severity, at least one) of the skills in one style, through the symbol table: the
 * registry, every mention in the harness, and the skill loads and mentions of trajectories follow, with an
 * exact inverse. `mixed` picks one style per variant. Skills that a given trajectory names in a reply or a
 * tool result keep their id, since renaming them would change text that hooks judge. New ids are opaque or
 * faithful (`nameJudge`): phrases are built from the id and the description, never from function words or
 * words of other identifiers.
 *
 * @example
 * await applyOperator(renameSkillIds, travelHarness(), { rng: 'seed', params: { style: 'camel' } });
 * // apology_first → apologyFirst, and `load_skill` calls follow
 */
export const renameSkillIds = defineOperator({
  id: 'skill-ids/rename',
  // 3: labels in another script translate the id's own words only.
  // 5: and every content word of the id, or the skill takes a code.
  // 6: no word from the first item of an enumeration in the description (the name rule).
  // 7: a name after a namespace qualifier (`superpowers:<id>`) is a mention, and is renamed; fewer synonyms
  // (`nameSynonyms`: no add/insert, status/state, count/total …).
  // 8: a plain id followed by the word "skill" ("the docx skill") is a mention, and is renamed.
  // 9: no hold for reserve, no post for send (`nameSynonyms`); a skill named bare in prose takes no phrase
  // (spaces) but a kebab-case name ("Every research lookup rules result"); a re-cased name differs from the id.
  // 10: an id a text quotes as a word to match ("mentions "azure_devops"") stays; a pool entry that gave a
  // phrase does not fit an example whose replies name the skill bare (`fitsExample`).
  // 11: no void nor revoke for cancel, no note for message, no remove for delete nor delete for remove, no
  // diff for compare, no account for user (`nameSynonyms`, BFCL's travel and message tools).
  // 12: fewer synonyms, none that names another thing (`nameSynonyms`: no purchase for order, no inventory for
  // stock, no problem for issue, no summary for report …: BFCL's trading tools, GitHub's MCP server), and none
  // for a verb a particle follows (`check_in`).
  // 13: no synonym for a verb the id holds as a noun, after its first verb (`verbsNotActing`), and none of
  // the loader's (use, activate, consult) for a skill that loads something (`loaderSynonyms`).
  version: 13,
  dimension: 'skill-ids',
  mode: 'exact',
  description:
    'Renames skill ids (snake, camel, kebab, opaque codes, phrases, non-ASCII labels); loads and mentions follow.',
  params: z.object({
    style: z.enum([...concreteStyles, 'mixed']).default('mixed'),
    vocabulary: VocabularyParam,
  }),
  apply(harness, { rng, severity, params, trajectory, run }) {
    const skills = harness.skills.items;
    if (skills.length === 0) return { skip: 'the harness has no skills' };
    const mentioned = mentionedInFreeText(
      trajectory,
      harness,
      skills.map((skill) => skill.id),
      'skill',
    );
    // An id a text quotes as a word to match ("Load when a message mentions "azure_devops"") is what a user
    // writes, not a reference to the skill: the text cannot follow a rename, so the id stays.
    const literal = namesQuotedAsWords(
      skills.map((skill) => skill.id),
      harnessTextLocations(harness).map((location) => location.text),
    );
    const eligible = skills.filter((skill) => !mentioned.has(skill.id) && !literal.has(skill.id));
    if (eligible.length === 0) {
      return {
        skip:
          literal.size > 0
            ? 'every skill is named in the trajectory or quoted by a text as a word to match; renaming would change them'
            : 'the trajectory names every skill in its replies or tool results; renaming would change them',
      };
    }
    const chosen = rng.fork('skills').sample(eligible, affectedCount(severity, eligible.length));
    const style: ConcreteStyle =
      params.style === 'mixed' ? rng.fork('style').pick(concreteStyles) : params.style;
    const prefix = rng.fork('prefix').pick(opaquePrefixes);
    const script = rng.fork('script').pick(scripts);
    const accept = withinVocabulary(
      createNameGuard(harness, { trajectory, freed: chosen.map((skill) => skill.id) }),
      params.vocabulary,
    );
    const names = rng.fork('names');
    // A phrase only where every bare mention is followed by "skill"; elsewhere the id is kebab-cased.
    const bare =
      style === 'phrase'
        ? namedBareInProse(harness, trajectoryReplies(trajectory), run.hookChecks)
        : undefined;
    const map: Record<string, string> = {};
    chosen.forEach((skill, index) => {
      const draw = names.fork(index);
      const judge = nameJudge(harness, { kind: 'skill', name: skill.id });
      const faithful: Accept = (candidate) => judge.accepts(candidate) && accept(candidate);
      let name: string | undefined;
      if (style === 'snake' || style === 'camel' || style === 'kebab')
        name = recased(skill, style, draw, faithful);
      else if (style === 'phrase')
        name = bare?.has(skill.id)
          ? recased(skill, 'kebab', draw, faithful)
          : phrase(skill, judge, draw, faithful);
      else if (style === 'non-ascii') name = nonAscii(skill, script, draw, faithful);
      map[skill.id] = name ?? opaqueCode(prefix, draw, faithful);
    });
    return renameSymbols(harness, { skills: map }, { hookChecks: run.hookChecks });
  },
  // A pool entry is built without an example, so it cannot see the replies that name a skill bare ("Per
  // fix_test, I check out…"): a phrase there would read as ordinary words ("Per fix test handbook, I…").
  fitsExample({ base, variant, trajectory }) {
    const own = new Set(base.skills.items.map((skill) => skill.id));
    if (!variant.skills.items.some((skill) => /\s/u.test(skill.id) && !own.has(skill.id))) return undefined;
    const kept = new Set(variant.skills.items.map((skill) => skill.id));
    const renamed = base.skills.items.filter((skill) => !kept.has(skill.id));
    const named = bareInReplies(renamed, trajectoryReplies(trajectory)).next();
    return named.done
      ? undefined
      : `the example names the skill ${named.value} bare, where a phrase reads as plain words`;
  },
});
