// New identifiers in a style (snake, camel, kebab, opaque, phrase) from an original name and its
// description, with the listed synonyms of the name-meaning rule; the request's judge says which names are
// faithful (augment/name-meaning.ts), the caller's predicate which are free.
import {
  type CaseStyle,
  caseStyleOf,
  formatWords,
  identifierWords,
  singularWord,
} from '../augment/identifier-words.js';
import { functionWords, type NameJudge, nameSynonyms } from '../augment/name-meaning.js';
import type { Random } from '../augment/random.js';

/** Words left out of descriptive names: the rule's function words, and words too vague to name a thing. */
const stopWords = new Set([...functionWords, 'given', 'used', 'use', 'using', 'then', 'e.g']);
/** Articles a description may open with before its leading phrase. */
const articles = new Set(['a', 'an', 'the']);

/**
 * A description's first clause: up to its first full stop, comma, semicolon, colon, bracket or dash.
 *
 * @example
 * firstClause('Evaluates an arithmetic expression, e.g. "2 + 3".') // 'Evaluates an arithmetic expression'
 */
export function firstClause(description: string | undefined): string {
  return (description ?? '').split(/[.,;:()\u2014\u2013]| - /u)[0] ?? '';
}

/**
 * The run of content words a description opens with (after an article), up to three, as a phrase: "Search
 * query using GitHub code search syntax" gives search, query. The run ends at the first function word or
 * word the judge refuses: a word left out of the middle (`results_page` from "Results per page") or one taken
 * from further on (`item_ids_exchanged` from "The item ids to be exchanged for") says something else.
 */
function leadingPhrase(description: string | undefined, judge: NameJudge | undefined): string[] {
  const words = (firstClause(description).match(/[A-Za-z]+/g) ?? []).map((word) => word.toLowerCase());
  let start = 0;
  while (start < words.length && articles.has(words[start] as string)) start++;
  const run: string[] = [];
  for (const word of words.slice(start)) {
    if (word.length <= 1 || stopWords.has(word) || run.includes(word) || !(judge?.mayAdd(word) ?? true))
      break;
    run.push(word);
    if (run.length === 3) break;
  }
  return run;
}

/**
 * Whether a phrase from the description still names what the identifier names: it ends on the identifier's
 * last word in the same number, or on a word that spells it out ("search query" for `q`, "secret type" for
 * `secret_type`), and it keeps every other word of the identifier (or a word that spells it out:
 * "repository" for `repo`). A phrase that ends on another word names a format or an action instead ("comma
 * separated" for `secret_type`, "returns actual" for `return_content`); one that drops a word names something
 * wider ("unique identifier" for `customer_id`); one whose last word changes number says one thing where
 * there are several (`issue_field` for GitHub's `issue_fields` array, from "Issue field values to set").
 */
function namesTheSameThing(words: readonly string[], phrase: readonly string[]): boolean {
  const head = words.at(-1);
  const last = phrase.at(-1);
  if (head === undefined || last === undefined) return false;
  const spellsOut = (word: string, spelled: string) => {
    const [w, s] = [singularWord(word), singularWord(spelled)];
    return w === s || s.startsWith(w) || w.startsWith(s);
  };
  const plural = (word: string) => singularWord(word) !== word;
  return (
    spellsOut(head, last) &&
    plural(head) === plural(last) &&
    words.slice(0, -1).every((word) => phrase.slice(0, -1).some((spelled) => spellsOut(word, spelled)))
  );
}

/**
 * The listed synonyms that may stand for a word (the judge's, when there is one): one-word ones, or with
 * `phrasal` the phrasal ones (`look_up`) for descriptive names.
 */
function synonymsOf(word: string, phrasal: boolean, judge: NameJudge | undefined): readonly string[] {
  const listed = judge ? judge.replacements(word) : (nameSynonyms[word] ?? []);
  return listed.filter((synonym) => synonym.includes('_') === phrasal);
}

/**
 * Each word may be replaced by a synonym (with probability `p`); `force` makes at least one change. A word
 * the judge keeps (a domain term) is replaced by another spelling only.
 */
function swapWords(
  words: readonly string[],
  rng: Random,
  p: number,
  force: boolean,
  judge: NameJudge | undefined,
): string[] {
  const swappable = words
    .map((word, index) => (synonymsOf(word, false, judge).length > 0 ? index : -1))
    .filter((index) => index >= 0);
  const chosen = new Set(swappable.filter(() => rng.chance(p)));
  if (force && chosen.size === 0 && swappable.length > 0) chosen.add(rng.pick(swappable));
  return words.flatMap((word, index) =>
    chosen.has(index) ? rng.pick(synonymsOf(word, false, judge)).split('_') : [word],
  );
}

/**
 * How `newName` draws an identifier: the original's words in snake, camel or kebab case, an opaque code
 * (`tool_7f3a`), or a phrase built from synonyms and the description's words.
 */
export type NameStyle = CaseStyle | 'opaque' | 'phrase';

/**
 * The styles a new identifier can be drawn in.
 *
 * @example
 * const style = rng.pick(nameStyles); // 'snake' | 'camel' | 'kebab' | 'opaque' | 'phrase'
 */
export const nameStyles = ['snake', 'camel', 'kebab', 'opaque', 'phrase'] as const;

/** A masked name (Hammer-style function masking): `tool_7f3a`, `fn_12`; a hex code always holds a digit. */
function opaqueName(prefixes: readonly string[], rng: Random): string {
  const prefix = rng.pick(prefixes);
  if (rng.chance(0.5)) {
    const hex = rng.int(0, 0xffff).toString(16).padStart(4, '0');
    if (/\d/.test(hex)) return `${prefix}_${hex}`;
  }
  return `${prefix}_${rng.int(1, 99)}`;
}

/** Keeps at most 64 characters by dropping trailing words. */
function withinLength(words: string[], style: CaseStyle): string {
  const kept = [...words];
  while (kept.length > 1 && formatWords(kept, style).length > 64) kept.pop();
  return formatWords(kept, style).slice(0, 64);
}

/** What `newName` renames and how: the identifier, its description, the style, and the words it may add. */
export interface NameRequest {
  /** The identifier being renamed. */
  original: string;
  /** Its description, for phrase names. */
  description?: string;
  /** The style to draw the new name in. */
  style: NameStyle;
  /** Prefixes of opaque names (`tool`, `fn` for tools; `arg`, `p` for parameters). */
  opaquePrefixes: readonly string[];
  /** Words appended when a name needs one more word to be new or distinctive. */
  suffixes: readonly string[];
  /** Verb phrases make sense for tools, not for parameters. */
  verbs: boolean;
  /**
   * Require a distinctive name (one holding `_`, `-`, a digit or a hump): tool names must be, so that the
   * symbol table finds their bare mentions; parameter mentions are code or qualified only.
   */
  distinctive: boolean;
  /**
   * The name-meaning rule for this identifier (`nameJudge(harness, { kind, name })`): only opaque or faithful
   * names are returned, domain terms are never swapped for synonyms. Built-in operators always pass it.
   */
  judge?: NameJudge;
}

/** One candidate name in a style; may equal the original or be taken. */
function candidateName(request: NameRequest, rng: Random, attempt: number): string {
  const words = identifierWords(request.original);
  switch (request.style) {
    case 'opaque':
      return opaqueName(request.opaquePrefixes, rng);
    case 'phrase': {
      const judge = request.judge;
      const described = request.verbs ? [] : leadingPhrase(request.description, judge);
      if (described.length >= 2 && namesTheSameThing(words, described)) {
        const built = attempt > 0 ? swapWords(described, rng, 0.5, true, judge) : described;
        return withinLength(attempt > 2 ? [...built, rng.pick(request.suffixes)] : built, 'snake');
      }
      const first = words[0] ?? '';
      const phrasal = synonymsOf(first, true, judge);
      const phrase = request.verbs && phrasal.length > 0 ? rng.pick(phrasal).split('_') : [];
      const rest = swapWords(phrase.length > 0 ? words.slice(1) : words, rng, 0.5, false, judge);
      // No description word is appended: after the name's own words it reads as a qualifier the tool does
      // not have (`service_health_right` from "right now", `verify_identity_sends` for a tool that also
      // checks codes).
      const built = [...phrase, ...rest];
      if (attempt > 1) built.push(rng.pick(request.suffixes));
      return withinLength(built, 'snake');
    }
    default: {
      const style = request.style;
      const sameStyle = caseStyleOf(request.original) === style || words.length < 2;
      const swapped = swapWords(words, rng, 0.5, sameStyle || attempt > 0, request.judge);
      // Tool names need two words to be distinctive; a parameter may stay one word unless it is unchanged.
      // The word added is a suffix of the kind (`title_value`), never one of the description: appended to a
      // name, a description word reads as a qualifier ("What is wrong" made `title_wrong`).
      const short = request.distinctive ? swapped.length < 2 : swapped.join('_') === words.join('_');
      if (short || attempt > 2) swapped.push(rng.pick(request.suffixes));
      return withinLength(swapped, style);
    }
  }
}

/**
 * Generates a new identifier for `original` in a style that the predicate accepts (falling back to an
 * opaque name), always different from the original and distinctive (it holds `_`, `-`, a digit or a hump);
 * with a `judge`, only a name the name-meaning rule finds opaque or faithful.
 *
 * @example
 * newName({ original: 'get_shipping_info', style: 'phrase', opaquePrefixes: ['tool'], verbs: true }, rng, isFree)
 * // 'look_up_shipping_details'
 */
export function newName(request: NameRequest, rng: Random, isFree: (name: string) => boolean): string {
  const distinctive = (name: string) =>
    !request.distinctive || /[_\-\d]/.test(name) || /[a-z][A-Z]/.test(name);
  const faithful = (name: string) => request.judge?.accepts(name) ?? true;
  for (let attempt = 0; attempt < 8; attempt++) {
    const name = candidateName(request, rng.fork(attempt), attempt);
    if (name !== request.original && distinctive(name) && faithful(name) && isFree(name)) return name;
  }
  // An opaque code's prefix may be a word of another identifier (`tool` beside `tool_status`): after a few
  // tries any free code will do.
  for (let attempt = 0; ; attempt++) {
    const name = opaqueName(request.opaquePrefixes, rng.fork(`opaque-${attempt}`));
    if (name !== request.original && (attempt >= 64 || faithful(name)) && isFree(name)) return name;
  }
}
