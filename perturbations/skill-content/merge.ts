// skill-content/merge — merges two skills of the same kind into one (both bodies under subheadings); every rule stays, loads of either source become loads of the merged skill, with an exact inverse.

import { Buffer } from 'node:buffer';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import {
  affectedCount,
  applyEdits,
  buildSymbolTable,
  defineOperator,
  findMentions,
  type Harness,
  harnessSymbols,
  harnessTextLocations,
  identifierWords,
  type JsonPath,
  occursAsWord,
  parseRawJson,
  type RelabelStep,
  type RunContext,
  type Skill,
  singularWord,
  type TextEdit,
  type Trajectory,
  wordOccurrence,
} from '../../src/kit/index.js';
import { isMostlyCjk } from './rules.js';

type Pair = readonly [Skill, Skill];

/**
 * The skill named by each loader call of a trajectory, in order, with the index of the user turn it is
 * in. Only string values of the loader's argument count, as the relabel's `merge_skills` step reads them.
 */
function skillLoads(trajectory: Trajectory, harness: Harness): Array<{ skill: string; turn: number }> {
  const { tool, argument } = harness.skills.loader;
  const loads: Array<{ skill: string; turn: number }> = [];
  let turn = 0;
  for (const message of trajectory.messages) {
    if (message.role === 'user' && !message.hsa) turn++;
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      if (call.function.name !== tool) continue;
      const root = parseRawJson(call.function.arguments);
      if (root?.kind !== 'object') continue;
      for (const member of root.members) {
        if (
          member.key === argument &&
          member.value.kind === 'scalar' &&
          typeof member.value.value === 'string'
        ) {
          loads.push({ skill: member.value.value, turn });
        }
      }
    }
  }
  return loads;
}

/**
 * Skill ids that a string outside the skills part (hooks, prompt, tools) mentions in text. A hook field that
 * names a skill outright (`skill_loaded.skill`, a custom check's params) is not text: it follows the merge.
 */
function mentionedOutsideSkills(harness: Harness, run: RunContext): Set<string> {
  const ids = new Set<string>();
  for (const mention of buildSymbolTable(harness, run.hookChecks).mentions) {
    if (mention.kind !== 'skill' || mention.form === 'reference') continue;
    if (mention.path[0] !== 'skills') {
      ids.add(mention.name);
      continue;
    }
    // In another skill's text, a mention follows the merge ("then load `baggage`" loads the merged skill)
    // unless its sentence rules which skills are used: "The ONLY skill you invoke after brainstorming is
    // writing-plans" would name a merged skill that also debugs.
    const [, list, index, field] = mention.path;
    const skill = list === 'items' ? harness.skills.items[index as number] : undefined;
    const text = skill && (field === 'body' || field === 'description') ? skill[field] : undefined;
    if (text !== undefined && skill?.id !== mention.name && skillGate.test(sentenceAround(text, mention)))
      ids.add(mention.name);
  }
  return ids;
}

/** The sentence (or line) of `text` that holds `[start, end)`. */
function sentenceAround(text: string, { start, end }: { start: number; end: number }): string {
  let from = start;
  while (from > 0 && !/[.!?\n]/u.test(text[from - 1] as string)) from--;
  let to = end;
  while (to < text.length && !/[.!?\n]/u.test(text[to] as string)) to++;
  return text.slice(from, to);
}

/** Skill ids that hook fields name outright; merging one with a skill the trajectory loads could flip a decision. */
function referencedByHooks(harness: Harness, run: RunContext): Set<string> {
  return new Set(
    buildSymbolTable(harness, run.hookChecks)
      .mentions.filter((mention) => mention.kind === 'skill' && mention.form === 'reference')
      .map((mention) => mention.name),
  );
}

function joinIds(a: string, b: string, suffix?: string): string {
  const parts = suffix === undefined ? [a, b] : [a, b, suffix];
  if (/\s/u.test(a)) return parts.join(' + ');
  if (a.includes('_') || !/[-\p{Lu}]/u.test(a)) return parts.join('_');
  if (a.includes('-')) return parts.join('-');
  return parts
    .map((part, index) => (index === 0 ? part : `${part.slice(0, 1).toUpperCase()}${part.slice(1)}`))
    .join('');
}

/** Raises every ATX heading outside code fences by one level (`#` → `##`). */
function demoteHeadings(body: string): string {
  let inFence = false;
  return body
    .split('\n')
    .map((line) => {
      if (/^(```|~~~)/u.test(line)) inFence = !inFence;
      return !inFence && /^#{1,5}\s/u.test(line) ? `#${line}` : line;
    })
    .join('\n');
}

const withoutFinalStop = (text: string) => text.replace(/[\s.。;；]+$/u, '');

/** A source body as a part of the merged body: its own headings one level down, or its description as a subheading. */
function part(skill: Skill): string {
  const body = skill.body.replace(/\s+$/u, '');
  if (/^#{1,6}\s/u.test(body)) return demoteHeadings(body);
  return `## ${withoutFinalStop(skill.description)}\n\n${body}`;
}

const riskOrder = ['low', 'medium', 'high'] as const;

type SkillFile = NonNullable<Skill['files']>[number];
const bytesOf = (file: SkillFile) => Buffer.from(file.content, file.encoding ?? 'utf8');

/** Front-matter keys that describe a skill rather than govern it: one skill's may stand for both. */
const describingKeys = new Set(['metadata', 'author', 'version', 'tags']);

/** Whether a word is written in a text of the harness: once per harness object. */
function harnessWords(harness: Harness): (word: string) => boolean {
  let known = harnessWordsOf.get(harness);
  if (!known) {
    known = wordOccurrence(harnessTextLocations(harness).map((location) => location.text));
    harnessWordsOf.set(harness, known);
  }
  return known;
}
// Pure function of content across runs: a harness object's words (each example merging in one pool entry
// asks the entry's).
const harnessWordsOf = new WeakMap<Harness, (word: string) => boolean>();

/**
 * Why two skills cannot share one folder and one front matter, or undefined when they can: a path both
 * bundle with different bytes, or a front-matter key both set to different values (two `allowed-tools`,
 * two licenses), or a key that governs the skill (`allowed-tools`, `compatibility`, any key but
 * `describingKeys`) that only one sets: in the merged skill it would govern the other's procedure too.
 * Describing keys only one sets, and keys both set alike, are kept by the merged skill. A pair where one
 * says it is not for what the other is for (`excludes`) is refused too.
 */
function contentConflict(a: Skill, b: Skill): string | undefined {
  let byOther = conflictsOf.get(a);
  if (!byOther) {
    byOther = new WeakMap();
    conflictsOf.set(a, byOther);
  }
  const known = byOther.get(b);
  if (known !== undefined) return known.conflict;
  const conflict = findContentConflict(a, b);
  byOther.set(b, { conflict });
  return conflict;
}
// Pure function of content across runs: the conflict of a pair of skill objects (a pool entry's skills meet
// the same pairs for every example that merges them).
const conflictsOf = new WeakMap<Skill, WeakMap<Skill, { conflict: string | undefined }>>();

function findContentConflict(a: Skill, b: Skill): string | undefined {
  const excluded = excludes(a, b) ?? excludes(b, a);
  if (excluded) return excluded;
  const gate = gatesSkills(a) ?? gatesSkills(b);
  if (gate) return gate;
  const files = new Map((a.files ?? []).map((file) => [file.path, file]));
  for (const file of b.files ?? []) {
    const other = files.get(file.path);
    if (other !== undefined && !bytesOf(other).equals(bytesOf(file)))
      return `both bundle \`${file.path}\` with other bytes`;
  }
  const first = a.frontMatter ?? {};
  const second = b.frontMatter ?? {};
  for (const key of new Set([...Object.keys(first), ...Object.keys(second)])) {
    const inFirst = Object.hasOwn(first, key);
    const inSecond = Object.hasOwn(second, key);
    if (inFirst && inSecond && !isDeepStrictEqual(first[key], second[key]))
      return `both set front matter \`${key}\` differently`;
    if (inFirst !== inSecond && !describingKeys.has(key))
      return `only one sets front matter \`${key}\`, which governs it`;
  }
  return undefined;
}

/** What a skill says it is not for: "Do NOT use for PDFs, spreadsheets, Google Docs…", "Never for …". */
const notForClause = /\b(?:do\s+not|don['’]t|never|not)\s+(?:use\b|for\b|meant\b|intended\b)[^.!?\n]*/giu;
const clauseFiller = new Set([
  'use',
  'used',
  'for',
  'meant',
  'intended',
  'the',
  'a',
  'an',
  'to',
  'or',
  'and',
  'this',
  'skill',
  'it',
  'with',
  'of',
  'in',
  'on',
  'any',
  'other',
]);

/**
 * Why `a` cannot stand for `b` in one skill, or undefined: `a`'s description or body says it is not for what
 * `b`'s id names (docx's "Do NOT use for PDFs" and `pdf`): the merged skill would tell the agent not to do
 * the task it loads it for.
 */
function excludes(a: Skill, b: Skill): string | undefined {
  const words = new Set<string>();
  for (const text of [a.description, a.body])
    for (const clause of text.matchAll(notForClause))
      for (const word of clause[0].toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
        if (!clauseFiller.has(word)) words.add(singularWord(word));
  const named = identifierWords(b.id)
    .map(singularWord)
    .find((word) => words.has(word));
  return named === undefined ? undefined : `${a.id} says it is not for "${named}", which ${b.id} is for`;
}

/**
 * A sentence that rules which skills may be used, and when: "Do NOT invoke any implementation skill … until",
 * "The ONLY skill you invoke after brainstorming is …", "… instead of this skill". Merged, it would rule the
 * partner's procedure too (executing a plan would wait for a design to be approved).
 */
const skillGate =
  /\b(?:do\s+not|don['’]t|never|only|instead\s+of|until|unless)\b[^.!?\n]*\bskills?\b|\bskills?\b[^.!?\n]*\b(?:only|instead\s+of|until|unless)\b/iu;

/** Why `skill` cannot be merged with another: its text rules which skills are used, or undefined. */
function gatesSkills(skill: Skill): string | undefined {
  const sentence = [skill.description, skill.body].map((text) => text.match(skillGate)?.[0]).find(Boolean);
  return sentence === undefined
    ? undefined
    : `${skill.id} rules which skills are used ("${sentence.trim().slice(0, 60)}")`;
}

/** Both skills' bundled files (a path both hold once) and front matter, for a pair without a conflict. */
function mergedContent(a: Skill, b: Skill): Pick<Skill, 'files' | 'frontMatter'> {
  const paths = new Set((a.files ?? []).map((file) => file.path));
  const files =
    a.files === undefined && b.files === undefined
      ? undefined
      : [...(a.files ?? []), ...(b.files ?? []).filter((file) => !paths.has(file.path))];
  const frontMatter =
    a.frontMatter === undefined && b.frontMatter === undefined
      ? undefined
      : { ...a.frontMatter, ...b.frontMatter };
  return {
    ...(frontMatter !== undefined ? { frontMatter: structuredClone(frontMatter) } : {}),
    ...(files !== undefined ? { files: structuredClone(files) } : {}),
  };
}

function mergePair(a: Skill, b: Skill, id: string): Skill {
  const cjk = isMostlyCjk(a.description + b.description);
  const second = /^\p{Lu}\p{Ll}/u.test(b.description)
    ? `${b.description.slice(0, 1).toLowerCase()}${b.description.slice(1)}`
    : b.description;
  const risks = [a.risk, b.risk].filter((risk) => risk !== undefined);
  const risk =
    risks.length === 0 ? undefined : riskOrder[Math.max(...risks.map((level) => riskOrder.indexOf(level)))];
  const trailing = a.body.endsWith('\n') || b.body.endsWith('\n') ? '\n' : '';
  return {
    id,
    kind: a.kind,
    description: cjk
      ? `${withoutFinalStop(a.description)}；${b.description}`
      : `${withoutFinalStop(a.description)}; ${second}`,
    body: `${part(a)}\n\n${part(b)}${trailing}`,
    ...(risk !== undefined ? { risk } : {}),
    ...mergedContent(a, b),
  };
}

function getAt(root: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>(
    (node, key) => (node as Record<string | number, unknown> | undefined)?.[key],
    root,
  );
}

/**
 * Rewrites the mentions of merged skills to the merged ids, through the symbol table: those inside the
 * skills part and the hook fields that name a skill outright.
 */
function rewriteMentions(harness: Harness, into: ReadonlyMap<string, string>, run: RunContext): Harness {
  const variant = structuredClone(harness);
  const byPath = new Map<string, { path: JsonPath; edits: TextEdit[] }>();
  const reached = new Map<string, number>();
  for (const mention of buildSymbolTable(harness, run.hookChecks).mentions) {
    const to = mention.kind === 'skill' ? into.get(mention.name) : undefined;
    if (to === undefined) continue;
    const key = JSON.stringify(mention.path);
    if ((reached.get(key) ?? -1) > mention.start) continue;
    reached.set(key, mention.end);
    const entry = byPath.get(key) ?? { path: mention.path, edits: [] };
    entry.edits.push({ start: mention.start, end: mention.end, text: to });
    byPath.set(key, entry);
  }
  for (const { path, edits } of byPath.values()) {
    const parent = getAt(variant, path.slice(0, -1)) as Record<string | number, unknown>;
    const key = path.at(-1) as string | number;
    parent[key] = applyEdits(parent[key] as string, edits);
  }
  return variant;
}

/**
 * Merges pairs of skills of the same kind into one skill each: the merged id joins both ids
 * (`rebooking_baggage`), the body holds both bodies under subheadings (a body's own headings go one level
 * down; a body without one gets its description as a `##` subheading), the descriptions are joined, the
 * higher risk is kept, and so are both skills' bundled files (a path both hold once) and front matter. A pair
 * is refused when both bundle one path with different bytes, set one front-matter key to different values
 * (two `allowed-tools`, two licenses), or only one sets a key that governs it (`allowed-tools`,
 * `compatibility`; `metadata`, `author`, `version` and `tags` only describe): the merged skill could not keep
 * both, or would hold the other's procedure to it. A share (= severity) of the disjoint pairs that qualify is merged, at least one.
 * The relabel has one `merge_skills` step per pair: loads of either source become loads of the merged
 * skill; `loads` records, in order, the source each load of the given trajectory named, and `loadTurns`
 * the user turn of each, so the inverse is exact for that trajectory and a model's output maps a load
 * of the merged skill back to the source the gold loaded in the same turn (`invertOutput`). Mentions of a source in the
 * skills part (other bodies, descriptions, the loader description) are rewritten to the merged id through
 * the symbol table, and so are hook fields that name a source outright (`skill_loaded.skill`, a custom
 * check's params). Needs `context.trajectory`. Leaves out pairs whose sources the trajectory loads in the
 * same turn (the merged skill would be loaded twice), pairs where a hook names one source and the trajectory
 * loads the other (the hook would pass where it failed), and skills mentioned in the text of hooks, prompt or
 * tools (which a skill-content operator does not change), and pairs whose files or front matter conflict;
 * skips when no pair is left.
 *
 * @example
 * await applyOperator(mergeSkills, travelHarness(), { rng: 'seed', trajectory: baggageTrajectory() });
 * // skills: rebooking_baggage (reply), apology_first; load_skill("baggage") → load_skill("rebooking_baggage")
 */
export const mergeSkills = defineOperator({
  id: 'skill-content/merge',
  // 2: the relabel records the user turn of each load (`loadTurns`), so outputs invert by turn.
  // 3: pairs drawn in one pass over the shuffled skills (linear in the skills); merged ids need only be
  // absent as a word, the boundary every mention lookup uses.
  // 4: the merged skill keeps both skills' bundled files and front matter; pairs where they conflict, or where
  // only one sets a key that governs it (`allowed-tools`), are refused.
  // 5: a pair where one says it is not for what the other's id names ("Do NOT use for PDFs") is refused.
  // 6: a skill whose text rules which skills are used ("Do NOT invoke any implementation skill until …"),
  // or that such a rule names ("The ONLY skill you invoke after brainstorming is writing-plans"), is not merged.
  // 7: a plain id followed by the word "skill" ("the docx skill") is a mention: it follows the merge, or keeps a
  // skill named so outside the skills part out of one.
  version: 7,
  dimension: 'skill-content',
  mode: 'exact',
  needsExample: true,
  description:
    'Merges two skills of the same kind into one with both bodies under subheadings; loads follow, exact inverse.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    if (!trajectory)
      return { skip: 'merging needs the trajectory: the relabel records which source each load named' };
    const loads = skillLoads(trajectory, harness);
    const hasSameKindPair = (skills: readonly Skill[]) => {
      const kinds = new Set<string>();
      return skills.some((skill) => kinds.size === kinds.add(skill.kind).size);
    };
    if (!hasSameKindPair(harness.skills.items)) return { skip: 'fewer than two skills of one kind' };
    const outside = mentionedOutsideSkills(harness, run);
    const referenced = referencedByHooks(harness, run);
    const candidates = harness.skills.items.filter((skill) => !outside.has(skill.id));
    if (!hasSameKindPair(candidates)) {
      return {
        skip: 'every same-kind pair has a skill that hooks, prompt or tools mention, or that a rule on which skills to use names',
      };
    }
    const turnsOf = new Map<string, Set<number>>();
    for (const load of loads) turnsOf.set(load.skill, (turnsOf.get(load.skill) ?? new Set()).add(load.turn));
    // Loaded in one turn: the merged skill would be loaded twice.
    const together = (a: Skill, b: Skill) => {
      const turns = turnsOf.get(b.id);
      return turns !== undefined && [...(turnsOf.get(a.id) ?? [])].some((turn) => turns.has(turn));
    };
    // A hook requiring one source while the trajectory loads the other would pass where it failed.
    const flips = (a: Skill, b: Skill) =>
      (referenced.has(a.id) && turnsOf.has(b.id)) || (referenced.has(b.id) && turnsOf.has(a.id));
    // Disjoint pairs in one pass over the shuffled skills: each skill pairs with the first waiting skill of its
    // kind it may merge with. Only loaded skills can refuse a partner, so the scan stays linear in the skills.
    const position = new Map(harness.skills.items.map((skill, index) => [skill.id, index]));
    const disjoint: Pair[] = [];
    const waiting = new Map<string, Skill[]>();
    // A pair whose bundled files or front matter conflict is refused: the merged skill could keep only one side.
    const conflicts: string[] = [];
    let loadRefused = false;
    const mayMerge = (other: Skill, skill: Skill) => {
      if (together(other, skill) || flips(other, skill)) {
        loadRefused = true;
        return false;
      }
      const conflict = contentConflict(other, skill);
      if (conflict !== undefined) conflicts.push(conflict);
      return conflict === undefined;
    };
    for (const skill of rng.fork('pairs').shuffle(candidates)) {
      const queue = waiting.get(skill.kind) ?? [];
      const index = queue.findIndex((other) => mayMerge(other, skill));
      if (index < 0) {
        queue.push(skill);
        waiting.set(skill.kind, queue);
        continue;
      }
      const other = queue[index] as Skill;
      // Each pair in harness order: the merged id and body read first what the harness lists first.
      disjoint.push(
        (position.get(other.id) ?? 0) < (position.get(skill.id) ?? 0) ? [other, skill] : [skill, other],
      );
      queue.splice(index, 1);
    }
    // With no pair left, every same-kind pair was tried: name the conflict when one refused a pair.
    if (disjoint.length === 0 && conflicts.length > 0) {
      const refusal = loadRefused ? 'is loaded in one turn or bundles' : 'bundles';
      return {
        skip: `every same-kind pair ${refusal} conflicting content, which one merged skill cannot keep: ${[...new Set(conflicts)].sort().join('; ')}`,
      };
    }
    if (disjoint.length === 0)
      return { skip: 'the trajectory loads both skills of every same-kind pair in one turn' };
    const chosen = disjoint.slice(0, affectedCount(severity, disjoint.length));

    // Merged ids: fresh, written as a word in no string of the harness and the trajectory, holding no kept symbol.
    const sources = new Set(chosen.flat().map((skill) => skill.id));
    const symbols = harnessSymbols(harness);
    const kept = symbols.filter((symbol) => !(symbol.kind === 'skill' && sources.has(symbol.name)));
    // A few ids are asked about: the example's texts are read for each, not indexed.
    const trajectoryTexts = trajectory.messages.flatMap((message) =>
      typeof message.content === 'string' ? [message.content] : [],
    );
    const inTrajectory = (word: string) => trajectoryTexts.some((text) => occursAsWord(text, word));
    const inHarness = harnessWords(harness);
    const taken = new Set([...symbols.map((symbol) => symbol.name), harness.skills.loader.argument]);
    const written = (word: string) => inHarness(word) || inTrajectory(word);
    const fresh = (candidate: string) =>
      !taken.has(candidate) &&
      !written(candidate) &&
      findMentions({ path: [], text: `\`${candidate}\`` }, kept).length === 0;
    const into = new Map<string, string>();
    const ids = chosen.map(([a, b]) => {
      const candidates = [
        joinIds(a.id, b.id),
        joinIds(a.id, b.id, 'merged'),
        ...[2, 3, 4, 5].map((n) => joinIds(a.id, b.id, String(n))),
      ];
      const id = candidates.find(fresh) ?? `${joinIds(a.id, b.id)}_${taken.size}`;
      taken.add(id);
      into.set(a.id, id);
      into.set(b.id, id);
      return id;
    });

    const rewritten = rewriteMentions(harness, into, run);
    const byId = new Map(rewritten.skills.items.map((skill) => [skill.id, skill]));
    const second = new Set(chosen.map(([, b]) => b.id));
    const firstOf = new Map(chosen.map(([a], index) => [a.id, index]));
    const merged = rewritten.skills.items.flatMap((skill) => {
      if (second.has(skill.id)) return [];
      const index = firstOf.get(skill.id);
      if (index === undefined) return [skill];
      const pair = chosen[index] as Pair;
      return [mergePair(skill, byId.get(pair[1].id) as Skill, ids[index] as string)];
    });
    const loader = { tool: harness.skills.loader.tool, argument: harness.skills.loader.argument };
    const steps: RelabelStep[] = chosen.map(([a, b], index) => ({
      type: 'merge_skills',
      into: ids[index] as string,
      sources: [a.id, b.id],
      loads: loads.filter((load) => load.skill === a.id || load.skill === b.id).map((load) => load.skill),
      loadTurns: loads.filter((load) => load.skill === a.id || load.skill === b.id).map((load) => load.turn),
      loader,
    }));
    return { harness: { ...rewritten, skills: { ...rewritten.skills, items: merged } }, relabel: { steps } };
  },
});
