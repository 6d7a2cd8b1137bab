// perturbations/tools/drop-unused.ts — drops registry tools the trajectory never calls and no text mentions; the tools it calls, and everything else, stay.

import { z } from 'zod';
import {
  affectedCount,
  buildSymbolTable,
  defineOperator,
  findMentions,
  type Harness,
  harnessTextLocations,
  identifierWords,
  identityRelabel,
  plainToolNamesInText,
  type RunContext,
  type SymbolEntry,
  singularWord,
  trajectoryCalls,
  trajectoryFreeText,
  trajectoryReplies,
} from '../../src/kit/index.js';

/**
 * Tools that some text names — a skill body, a prompt template, a hook message, another tool's
 * descriptions, or a reply or tool result of the trajectory — or that a hook scopes to or a custom check names. Dropping one would leave that mention dangling.
 */
function mentionedTools(harness: Harness, freeText: readonly string[], run: RunContext): Set<string> {
  const names = new Set<string>();
  for (const mention of buildSymbolTable(harness, run.hookChecks).mentions) {
    if (mention.kind !== 'tool') continue;
    const [part, , index] = mention.path;
    // A tool's own description naming the tool itself does not keep it.
    const own = part === 'tools' && harness.tools.items[index as number]?.name === mention.name;
    if (!own) names.add(mention.name);
  }
  const symbols: SymbolEntry[] = harness.tools.items.map((tool) => ({
    kind: 'tool',
    name: tool.name,
    definedAt: [],
  }));
  for (const text of freeText)
    for (const mention of findMentions({ path: [], text }, symbols)) names.add(mention.name);
  return names;
}

/** Words a tool's name holds that say nothing of its job on their own. */
const functionWords = new Set([
  'to',
  'by',
  'of',
  'the',
  'a',
  'an',
  'for',
  'and',
  'or',
  'with',
  'from',
  'in',
  'on',
  'at',
  'via',
]);

/**
 * The words a text must hold, in one sentence, to describe a tool in prose: the content words of its name,
 * less a namespace its registry prefixes most names with (`git` in `git_checkout`, `slack` in
 * `slack_post_message`), less the first (the verb: "transfer" in `transfer_to_human_agents`, which a policy
 * writes "transfer the user to a human agent", "hand over", "escalate" …) when others are left, each compared
 * in the singular.
 */
function describingWords(name: string, namespace: string | undefined): string[] {
  let words = identifierWords(name)
    .filter((word) => !functionWords.has(word))
    .map(singularWord);
  if (words.length > 1 && words[0] === namespace) words = words.slice(1);
  return words.length > 1 ? words.slice(1) : words;
}

/** The first word that more than half of the registry's names (two at least) open with, if any. */
function registryNamespace(harness: Harness): string | undefined {
  const counts = new Map<string, number>();
  for (const tool of harness.tools.items) {
    const [first] = identifierWords(tool.name).map(singularWord);
    if (first !== undefined) counts.set(first, (counts.get(first) ?? 0) + 1);
  }
  const [word, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  return word !== undefined && count !== undefined && count >= 2 && count * 2 > harness.tools.items.length
    ? word
    : undefined;
}

/**
 * Tools a text describes in prose without naming them ("transfer the user to a human agent" for
 * `transfer_to_human_agents`, "find user id by email" for `find_user_id_by_email`, "check out another branch"
 * for `git_checkout`): one sentence of a text other than the tool's own holds every one of its
 * `describingWords`, a word of the name also found as two words of the sentence ("check out", "log in").
 * Dropping such a tool would leave a rule that asks for an action no tool takes any more.
 */
function describedTools(harness: Harness, freeText: readonly string[]): Set<string> {
  const described = new Set(describedByHarness(harness));
  const sentences: Sentence[] = [];
  for (const text of freeText) addSentences(sentences, text);
  for (const name of describedBy(harness, sentences)) described.add(name);
  return described;
}

/** One sentence's words (and its two-word joins), and the tool whose description holds it. */
interface Sentence {
  words: Set<string>;
  tool?: number;
}

function addSentences(sentences: Sentence[], text: string, tool?: number): void {
  const add = (sentence: string) => {
    const written = sentence.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const joined = written.slice(1).map((word, index) => `${written[index]}${word}`);
    const words = new Set([...written, ...joined].map(singularWord));
    if (words.size > 0) sentences.push({ words, ...(tool === undefined ? {} : { tool }) });
  };
  for (const sentence of text.split(sentenceEnd)) add(sentence);
  // A list item continues the sentence that introduces it: "You can look up customer information using:" and
  // "- Full name with date of birth" describe `get_customer_by_name` together.
  let leadIn: string | undefined;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    if (leadIn !== undefined && listItem.test(trimmed)) add(`${leadIn} ${trimmed}`);
    else leadIn = trimmed.endsWith(':') ? trimmed.split(sentenceEnd).filter(Boolean).pop() : undefined;
  }
}
const sentenceEnd = /[.!?。！？\n]+/u;
/** A bulleted or numbered list item. */
const listItem = /^(?:[-*+•]|\d+[.)])\s/u;

/** The tools a sentence of these describes (not a sentence of the tool's own description). */
function describedBy(harness: Harness, sentences: readonly Sentence[]): string[] {
  const namespace = registryNamespace(harness);
  return harness.tools.items.flatMap((tool, index) => {
    const words = describingWords(tool.name, namespace);
    if (words.length === 0) return [];
    const found = sentences.some(
      (sentence) => sentence.tool !== index && words.every((word) => sentence.words.has(word)),
    );
    return found ? [tool.name] : [];
  });
}

/** The tools the harness's own texts describe: once per harness object (the examples of one pool entry ask the same). */
function describedByHarness(harness: Harness): readonly string[] {
  let known = describedByHarnessOf.get(harness);
  if (!known) {
    const sentences: Sentence[] = [];
    for (const { path, text } of harnessTextLocations(harness))
      addSentences(sentences, text, path[0] === 'tools' ? (path[2] as number) : undefined);
    known = describedBy(harness, sentences);
    describedByHarnessOf.set(harness, known);
  }
  return known;
}
// Pure function of content across runs: the tools a harness object's texts describe.
const describedByHarnessOf = new WeakMap<Harness, readonly string[]>();

/**
 * Drops a share (= severity, at least one) of the registry tools that the trajectory never calls (rejected
 * attempts count as calls) and that no text mentions, by name or in prose (`describedTools`: "transfer the
 * user to a human agent" keeps `transfer_to_human_agents`), keeping at least one tool. Without a trajectory it
 * cannot know what is unused and skips; it also skips when every tool is used or mentioned.
 *
 * @example
 * const applied = await applyOperator(dropUnused, harness, { rng: 'seed', severity: 1, trajectory });
 * // a baggage question keeps get_baggage_policy; find_flights and hold_seat, named in a skill body, stay too
 */
export const dropUnused = defineOperator({
  id: 'tools/drop-unused',
  // 2: a tool a text describes in prose ("transfer the user to a human agent") stays.
  // 3: a tool named after a namespace qualifier (`github:<tool>`) is mentioned, and stays; the registry's
  // namespace (`git_`) is not the verb, and a word of the name may be two in prose ("check out").
  // 4: a plain name followed by the word "tool" ("the python tool") is mentioned, and stays.
  // 5: so is a plain name a text writes bare, in code or in another case ("call fetch again").
  // 6: a list item is read with the line that introduces it ("look up customer information using:" /
  // "- Full name with date of birth" describes `get_customer_by_name`).
  version: 6,
  dimension: 'tools',
  mode: 'exact',
  needsExample: true,
  description: 'Drops registry tools the trajectory never calls and no text mentions; used tools stay.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    if (!trajectory) return { skip: 'without a trajectory, every tool counts as used' };
    const tools = harness.tools.items;
    const called = new Set(trajectoryCalls(trajectory).map((call) => call.name));
    const mentioned = mentionedTools(harness, trajectoryFreeText(trajectory), run);
    const described = describedTools(harness, trajectoryFreeText(trajectory));
    // A plain-word name a text writes bare, in code or in another case may name the tool ("call fetch again").
    const written = plainToolNamesInText(harness, trajectoryReplies(trajectory));
    const unused = tools.filter(
      (tool) =>
        !called.has(tool.name) &&
        !mentioned.has(tool.name) &&
        !described.has(tool.name) &&
        !written.has(tool.name),
    );
    if (unused.length === 0)
      return { skip: 'every tool is called by the trajectory or mentioned or described in a text' };
    // At least one registry tool stays.
    const droppable = unused.length === tools.length ? unused.length - 1 : unused.length;
    if (droppable === 0) return { skip: 'the only tool is kept: a registry keeps at least one tool' };
    const count = affectedCount(severity, droppable);
    const dropped = new Set(
      rng
        .fork('choose')
        .sample(unused, count)
        .map((tool) => tool.name),
    );
    const items = tools.filter((tool) => !dropped.has(tool.name));
    return { harness: { ...harness, tools: { ...harness.tools, items } }, relabel: identityRelabel };
  },
});
