// perturbations/tools/reword-descriptions.ts — rewords tool and parameter descriptions with equivalent phrasings; identifiers, code, numbers, enum values and quoted strings stay verbatim.

import { z } from 'zod';
import {
  affectedCount,
  BoundedCache,
  defineOperator,
  type Harness,
  identifierWords,
  identityRelabel,
  protectedContentSpans,
  type Random,
  type Tool,
  takenNames,
  walkSchema,
} from '../../src/kit/index.js';

/**
 * Groups of interchangeable phrasings. `capitalized` groups match only with a capital first letter and a
 * following word, where a description opens with the verb ("Get …", "Returns …"); elsewhere the same word
 * may not be a verb. Words that often open a description as a noun ("Return", "Update") are left out.
 * `cjk` groups match inside words (Chinese has no spaces).
 */
interface PhraseGroup {
  phrases: readonly string[];
  capitalized?: true;
  cjk?: true;
  /** Only the first phrase is replaced (by the others): the reverse is not always equivalent. */
  oneWay?: true;
  /**
   * The phrases name a thing, not an action: a phrase is never replaced by one whose word names something
   * else in this harness (tau-bench's retail tools have `product_id` and `item_id`: there a product is not
   * an item).
   */
  term?: true;
  /**
   * Per phrase, a lookahead the text after it must pass for it to be replaced, where the swap reads the same
   * only in some places ("before" is "prior to" before a gerund, not before a clause nor in "before and after").
   */
  after?: Readonly<Record<string, string>>;
  /** A lookbehind the text before every phrase of the group must pass, where a phrase reads as a verb only there. */
  before?: string;
  /**
   * Where a tool's texts (its name and every description) match this, the group's phrases name something
   * else there and stay: a "product" of a tool that multiplies is a result, no item.
   */
  notWhere?: RegExp;
}

/** A gerund ("before calling"), not a noun in -thing or "string" ("before something happens" is a clause). */
const gerundNext = '(?=\\s+(?!\\p{L}*(?:thing|string)\\b)\\p{L}{2,}ing\\b)';

/**
 * Where a verb starts its clause: at the start of the text or a line, after a clause's punctuation (". ; : , (",
 * a list marker), after "to", or after a modal ("Use to limit to …", "Optional; limit to 10", "You can limit
 * to …"). Not after "and"/"or" nor another word, where the same word is often a noun followed by an
 * infinitive (BFCL's "The budget limit to set in USD"; "the offset and limit to use").
 */
const verbBefore =
  "(?<=(?:^|[.!?;:,(\\n*•-]|(?<![\\p{L}\\p{N}_'’-])(?:to|can|could|may|might|must|shall|should|will|would))\\s*)";

/** Not before a bare infinitive, which a noun takes ("Limit to apply to the query"), where a verb takes its object. */
const notInfinitive =
  '(?!\\s+(?:be|set|use|apply|return|show|display|fetch|get|retrieve|keep|allow|spend|enforce|impose)\\b)';

/**
 * Not before a unit of measure or time, where "per" makes a rate ("meters per second", "miles per gallon",
 * "compounded per year"): "for each" there is no unit ("meters for each second squared").
 */
const notUnit =
  '(?!\\s+(?:(?:square|cubic)\\s+)?(?:unit|second|sec|minute|min|hour|hr|day|night|week|fortnight|month|quarter|year|annum|decade|century|time|period|gallon|liter|litre|mile|kilometer|kilometre|km|meter|metre|foot|feet|inch|yard|pound|lb|kilogram|kg|gram|ounce|oz|ton|tonne|cent|capita|se|kwh|kilowatt|watt|cycle|revolution|degree|radian|mole?|serving|dose)s?\\b)';

/**
 * Not before "the": "Find the roots of a quadratic equation" (BFCL's `solve_quadratic`) computes them, where
 * "Search for the roots" would look them up; "Find restaurants", "Find a suitable ride" search.
 */
const notDefinite = '(?!\\s+the\\b)';

/** Before a clause: "if", "whether" or "that". */
const clauseNext = '(?=\\s+(?:if|whether|that)\\b)';

/** Words of a tool that does arithmetic: there a "product" is the result of a multiplication. */
const arithmetic =
  /(?<![\p{L}\p{N}_])(?:multipl\p{L}*|arithmetic\p{L}*|math\p{L}*|products?\s+of|dot\s+products?|cross\s+products?|scalars?|vectors?|matri(?:x|ces)|factori\p{L}*)(?![\p{L}\p{N}_])/iu;

const lexicon: readonly PhraseGroup[] = [
  { phrases: ['Get', 'Fetch', 'Look up', 'Retrieve'], capitalized: true },
  { phrases: ['Gets', 'Fetches', 'Looks up', 'Retrieves'], capitalized: true },
  { phrases: ['Returns', 'Gives back', 'Responds with'], capitalized: true },
  { phrases: ['Find', 'Look for', 'Search for'], capitalized: true, after: { Find: notDefinite } },
  { phrases: ['Finds', 'Looks for', 'Searches for'], capitalized: true, after: { Finds: notDefinite } },
  { phrases: ['Searches', 'Looks through'], capitalized: true },
  // Only before a clause ("Check whether …"): "Check the current status of an order" looks it up, where
  // "Verify the current status" confirms one already known (BFCL's `order_status_check`).
  { phrases: ['Check', 'Verify'], capitalized: true, after: { Check: clauseNext, Verify: clauseNext } },
  { phrases: ['Checks', 'Verifies'], capitalized: true, after: { Checks: clauseNext, Verifies: clauseNext } },
  { phrases: ['Recommend', 'Suggest'], capitalized: true },
  { phrases: ['Recommends', 'Suggests'], capitalized: true },
  { phrases: ['Lists', 'Enumerates'], capitalized: true },
  { phrases: ['Create', 'Make'], capitalized: true, oneWay: true },
  { phrases: ['Creates', 'Makes'], capitalized: true, oneWay: true },
  { phrases: ['Updates', 'Modifies'], capitalized: true },
  { phrases: ['Shows', 'Displays'], capitalized: true },
  // No "Hold" ↔ "Reserve": a hold is a temporary claim that lapses, a reservation a booking (BFCL's "Reserve a
  // specified number of hotel rooms" is no "Hold …").
  { phrases: ['Calculate', 'Compute'], capitalized: true },
  { phrases: ['Calculates', 'Computes'], capitalized: true },
  { phrases: ['Explains', 'Describes'], capitalized: true },
  { phrases: ['Number of', 'How many'], capitalized: true },
  { phrases: ['Highest', 'Maximum'], capitalized: true, oneWay: true },
  { phrases: ['Lowest', 'Minimum'], capitalized: true, oneWay: true },
  { phrases: ['the product', 'the item'], oneWay: true, term: true, notWhere: arithmetic },
  { phrases: ['a product', 'an item'], oneWay: true, term: true, notWhere: arithmetic },
  { phrases: ['products', 'items'], oneWay: true, term: true, notWhere: arithmetic },
  { phrases: ['product', 'item'], oneWay: true, term: true, notWhere: arithmetic },
  // No "information" ↔ "details": "details" is plural ("if more details is needed") and "information" makes
  // compounds ("information exchange") that "details" does not (OpenHands' tools).
  { phrases: ['e.g.', 'for example', 'for instance'] },
  { phrases: ['when given', 'if given', 'when provided'] },
  { phrases: ['when omitted', 'if omitted', 'when left out'] },
  // Verbs only: "limit" is as often a noun ("The budget limit to set in USD" is no "budget narrow to set").
  {
    phrases: ['restrict to', 'limit to', 'narrow to'],
    before: verbBefore,
    after: { 'restrict to': notInfinitive, 'limit to': notInfinitive, 'narrow to': notInfinitive },
  },
  { phrases: ['at most', 'no more than'] },
  { phrases: ['at least', 'not less than'] },
  { phrases: ['approximately', 'roughly'] },
  // "Prior to" only before a gerund: "context prior to and after" and "prior to you proceed" do not read.
  { phrases: ['before', 'prior to'], after: { before: gerundNext } },
  { phrases: ['shown', 'displayed'] },
  { phrases: ['per', 'for each'], before: '(?<!\\bas\\s+)', after: { per: notUnit, 'for each': notUnit } },
  { phrases: ['email', 'e-mail'] },
  // "ID" is never spelled out: an abbreviation is often a term of art that "identifier" blurs (GitHub's "node
  // ID", "ID is not the same as issue number"; AgentDojo's "ID number", an identity document's).
  { phrases: ['identifier', 'ID'], oneWay: true },
  { phrases: ['查询', '查找'], cjk: true },
  { phrases: ['返回', '给出'], cjk: true },
  { phrases: ['商品', '产品'], cjk: true, term: true },
  { phrases: ['例如', '比如'], cjk: true },
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const capitalize = (text: string) => `${text.slice(0, 1).toUpperCase()}${text.slice(1)}`;
const lowerFirst = (text: string) =>
  text === text.toUpperCase() ? text : `${text.slice(0, 1).toLowerCase()}${text.slice(1)}`;

interface Span {
  start: number;
  end: number;
}

/**
 * Spans of a text that must stay verbatim whatever the harness: the library's protected content (code, pin
 * markers, quotes in every form, numbers with their unit, paths, URLs) and identifier-like tokens.
 */
function textSpans(text: string): Span[] {
  const spans: Span[] = protectedContentSpans(text).map(({ start, end }) => ({ start, end }));
  // Identifier-like tokens: snake, kebab, dotted or camelCase words, and words with digits.
  for (const match of text.matchAll(
    /[\p{L}\p{N}_]*(?:_|\p{Ll}\p{Lu}|\p{L}\p{N})[\p{L}\p{N}_]*(?:[.-][\p{L}\p{N}_]+)*/gu,
  ))
    spans.push({ start: match.index, end: match.index + match[0].length });
  // Words that name something by their form: joined by slashes ("offset/limit": the Read tool's parameters,
  // in opencode's bash tool) or set with "=" ("limit=50"). Such a word is a name even when the harness does
  // not define it.
  for (const match of text.matchAll(/[\p{L}\p{N}_]+(?:\/[\p{L}\p{N}_]+)+|[\p{L}\p{N}_]+(?=\s*=)/gu))
    spans.push({ start: match.index, end: match.index + match[0].length });
  return spans;
}

/** Spans that must stay verbatim: those of `textSpans`, and whole words of the harness's identifiers and enum values. */
function protectedSpans(text: string, words: readonly WordTrie[]): Span[] {
  return [...textFacts(text).spans, ...wholeWordSpans(text, words)];
}

// The protected words (every identifier of the harness, plus a tool's enum values) are found with a trie
// built once per word list, in one scan of the text: an alternation of all of them, rebuilt per tool, cost
// tools × identifiers (minutes at 10,000 tools).
export interface WordTrie {
  next: Map<string, WordTrie>;
  end: boolean;
}

// Keyed by content: every variant lists its words in a fresh array (a tool's enum values are listed per call).
// Pure function of content across runs: the trie of a word list, by its words.
const wordTries = new BoundedCache<string, WordTrie>(
  8 * 1024 * 1024,
  (key) => 2 * key.length + 64 * key.length + 64,
);
export function wordTrie(words: readonly string[]): WordTrie {
  const key = JSON.stringify(words);
  let root = wordTries.get(key);
  if (root) return root;
  root = { next: new Map(), end: false };
  for (const word of words) {
    let node: WordTrie = root;
    for (let at = 0; at < word.length; at++) {
      const char = word[at] as string;
      let child = node.next.get(char);
      if (!child) {
        child = { next: new Map(), end: false };
        node.next.set(char, child);
      }
      node = child;
    }
    if (node !== root) node.end = true;
  }
  wordTries.set(key, root);
  return root;
}

const wordCharacter = /[\p{L}\p{N}_]/u;
const isWordCharacter = (char: string | undefined) => char !== undefined && wordCharacter.test(char);
const codePointBefore = (text: string, index: number): string | undefined => {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? text.slice(index - 2, index) : text[index - 1];
};
const codePointAt = (text: string, index: number): string | undefined => {
  const code = text.codePointAt(index);
  return code === undefined ? undefined : String.fromCodePoint(code);
};

/**
 * The spans of whole-word occurrences of any of the words, leftmost first and longest at each start,
 * never overlapping: what the alternation `(?<![\p{L}\p{N}_])(?:longest|…|shortest)(?![\p{L}\p{N}_])` finds.
 */
export function wholeWordSpans(text: string, tries: readonly WordTrie[]): Span[] {
  const spans: Span[] = [];
  let start = 0;
  while (start < text.length) {
    let end = -1;
    if (!isWordCharacter(codePointBefore(text, start))) {
      for (const trie of tries) {
        let node: WordTrie | undefined = trie;
        let index = start;
        // By UTF-16 unit, as the words were stored: no string is made per character of the text.
        while (index < text.length) {
          node = node.next.get(text[index] as string);
          if (!node) break;
          index++;
          if (node.end && index > end && !isWordCharacter(codePointAt(text, index))) end = index;
        }
      }
    }
    if (end > start) {
      spans.push({ start, end });
      start = end;
    } else {
      start += (text.codePointAt(start) as number) > 0xffff ? 2 : 1;
    }
  }
  return spans;
}

// Pure function of content across runs: a phrase's pattern, by the phrase and its group's flags.
const phrasePatterns = new Map<string, RegExp>();
function phrasePattern(group: PhraseGroup, phrase: string): RegExp {
  const after = group.after?.[phrase] ?? '';
  const before = group.before ?? '';
  const key = `${group.capitalized ? 'C' : ''}${group.cjk ? 'J' : ''}\u0000${phrase}\u0000${after}\u0000${before}`;
  let pattern = phrasePatterns.get(key);
  if (!pattern) {
    const head =
      group.capitalized || group.cjk
        ? escapeRegExp(phrase)
        : `[${escapeRegExp(phrase[0] as string).toUpperCase()}${escapeRegExp(phrase[0] as string).toLowerCase()}]${escapeRegExp(phrase.slice(1))}`;
    // A capitalized verb must be followed by its object, so that "Return, exchange …" (a noun) stays, and
    // not by a noun and a verb, so that "Check runs are the CI jobs" (GitHub's check runs) stays.
    const tail = group.capitalized
      ? `(?= [\\p{L}\\p{N}"'“‘(\`])(?! \\p{L}+ (?:are|is|was|were|has|have)\\b)`
      : `(?![\\p{L}\\p{N}_'’-])`;
    pattern = group.cjk
      ? new RegExp(head, 'gu')
      : new RegExp(`${before}(?<![\\p{L}\\p{N}_'’-])${head}${tail}${after}`, 'gu');
    phrasePatterns.set(key, pattern);
  }
  return pattern;
}

type LexiconMatch = Span & { group: PhraseGroup; phrase: string; found: string };

/** What rewording a text needs of the text alone, found once per text: its lexicon matches and `textSpans`. */
interface TextFacts {
  /** Every match of every phrase the lexicon replaces, leftmost first (longest first at one start). */
  matches: readonly LexiconMatch[];
  spans: readonly Span[];
}

let lexiconScans = 0;
/**
 * How many texts this process has scanned for the lexicon's phrases (cache misses): tests count work with it.
 *
 * @example
 * const before = rewordScans(); await applyOperator(rewordDescriptions, harness); rewordScans() - before
 */
export function rewordScans(): number {
  return lexiconScans;
}

// Variants share most descriptions, and a tool is probed (`rewordable`) before it is reworded: the same
// texts come back many times. The facts are the same for the same text (the lexicon is fixed).
// Pure function of content across runs: a description's facts, by its text.
const textFactsCache = new BoundedCache<string, TextFacts>(
  16 * 1024 * 1024,
  (text, facts) => 2 * text.length + 96 * (facts.matches.length + facts.spans.length) + 64,
);
function textFacts(text: string): TextFacts {
  const known = textFactsCache.get(text);
  if (known) return known;
  lexiconScans++;
  const matches: LexiconMatch[] = [];
  for (const group of lexicon) {
    for (const phrase of group.oneWay ? group.phrases.slice(0, 1) : group.phrases) {
      // Every match holds the phrase as written after its first character (only that one may change
      // case): a text without it has no match, and the pattern is not run on it.
      if (!text.includes(phrase.slice(1))) continue;
      for (const match of text.matchAll(phrasePattern(group, phrase))) {
        matches.push({
          start: match.index,
          end: match.index + match[0].length,
          group,
          phrase,
          found: match[0],
        });
      }
    }
  }
  // A stable sort: matches of one span keep the lexicon's order.
  matches.sort((a, b) => a.start - b.start || b.end - a.end);
  return textFactsCache.set(text, { matches, spans: textSpans(text) });
}

/** Rewords one text; returns it unchanged when nothing in the lexicon matches outside protected spans. */
function rewordText(text: string, vocabulary: Vocabulary, rng: Random): string {
  const { matches } = textFacts(text);
  if (matches.length === 0) return text;
  const blocked = protectedSpans(text, vocabulary.protectedWords);
  let out = '';
  let cursor = 0;
  let index = 0;
  for (const match of matches) {
    if (match.start < cursor) continue;
    if (vocabulary.kept.has(match.group)) continue;
    if (blocked.some((span) => match.start < span.end && span.start < match.end)) continue;
    const others = match.group.phrases.filter(
      (phrase) =>
        phrase !== match.phrase &&
        !(match.group.term && identifierWords(phrase).some((word) => vocabulary.termWords.has(word))),
    );
    if (others.length === 0) continue;
    let replacement = rng.fork(index++).pick(others);
    if (!match.group.cjk && !match.group.capitalized) {
      // An acronym is written in capitals wherever it stands ("The reservation ID"): its replacement takes a
      // capital only where a sentence starts.
      const acronym = match.found.length > 1 && match.found === match.found.toUpperCase();
      const upper = acronym
        ? /(?:^|[.!?:]\s*)$/u.test(text.slice(0, match.start).trimEnd())
        : match.found[0] !== (match.found[0] as string).toLowerCase();
      replacement = upper ? capitalize(replacement) : lowerFirst(replacement);
    }
    out += text.slice(cursor, match.start) + replacement;
    cursor = match.end;
  }
  return out + text.slice(cursor);
}

/** String enum and const values of a schema: they are data, never reworded. */
function enumValues(schema: unknown): string[] {
  const values: string[] = [];
  walkSchema(schema, (node) => {
    for (const value of [...(Array.isArray(node.enum) ? node.enum : []), node.const])
      if (typeof value === 'string') values.push(value);
  });
  return values;
}

/** What a harness keeps from rewording: its identifiers (whole words), and the words they are made of. */
interface HarnessWords {
  identifiers: readonly string[];
  /** The words of the identifiers, lower case: a term group never swaps in one of them. */
  termWords: ReadonlySet<string>;
}

/** What one text keeps: the identifiers and a tool's enum values (tries), and the identifiers' words. */
interface Vocabulary {
  protectedWords: readonly WordTrie[];
  termWords: ReadonlySet<string>;
  /** The groups whose phrases name something else in this tool (`notWhere`): kept as written. */
  kept: ReadonlySet<PhraseGroup>;
}

/** The groups whose `notWhere` matches a tool's texts: its name and every description of it. */
function keptGroups(tool: Tool): Set<PhraseGroup> {
  const texts = [tool.name, tool.description];
  walkSchema(tool.parameters, (node) => {
    if (typeof node.description === 'string') texts.push(node.description);
  });
  const text = texts.join('\n');
  return new Set(lexicon.filter((group) => group.notWhere?.test(text)));
}

/** A copy of a tool with every description reworded (tool, parameter root and nested parameters). */
function rewordTool(tool: Tool, harnessWords: HarnessWords, rng: Random): Tool {
  const vocabulary: Vocabulary = {
    protectedWords: [wordTrie(harnessWords.identifiers), wordTrie(enumValues(tool.parameters))],
    termWords: harnessWords.termWords,
    kept: keptGroups(tool),
  };
  const parameters = structuredClone(tool.parameters);
  let index = 0;
  walkSchema(parameters, (node) => {
    const local = rng.fork(`parameter-${index++}`);
    if (typeof node.description === 'string')
      node.description = rewordText(node.description, vocabulary, local);
  });
  return {
    ...tool,
    description: rewordText(tool.description, vocabulary, rng.fork('description')),
    parameters,
  };
}

/** Whether any description of a tool has something the lexicon rewords. */
function rewordable(tool: Tool, harnessWords: HarnessWords): boolean {
  const probe = rewordTool(tool, harnessWords, createProbe());
  return JSON.stringify(probe) !== JSON.stringify(tool);
}

/** A deterministic stand-in generator for probing (always picks the first alternative). */
function createProbe(): Random {
  const probe: Random = {
    seed: 'probe',
    next: () => 0,
    int: (min) => min,
    chance: () => false,
    pick: (items) => items[0] as (typeof items)[number],
    weighted: (items) => (items[0] as (typeof items)[number])[1],
    shuffle: (items) => [...items],
    sample: (items, count) => items.slice(0, count),
    fork: () => probe,
  };
  return probe;
}

/**
 * Rewords the descriptions of a share (= severity, at least one) of the tools that have something to
 * reword, with a lexicon of equivalent phrasings ("Get" ↔ "Look up" ↔ "Fetch", "Returns" ↔ "Gives back",
 * "the product" → "the item", "e.g." ↔ "for example", …). Text in backticks or quotes, numbers,
 * identifiers of the harness and enum values are never touched, so every mention stays; a noun is never
 * replaced by one that names something else in the harness (no "item" where `item_id` and `product_id`
 * differ); words joined by slashes or set with "=" ("offset/limit", "limit=50") stay, as names; some
 * phrases swap only where the result reads the same ("before" → "prior to" only before a gerund, "ID" is
 * never spelled out, "limit to" ↔ "restrict to" only as a verb: not in "The budget limit to set");
 * descriptions in a language the lexicon does not cover stay as they are.
 *
 * @example
 * const applied = await applyOperator(rewordDescriptions, harness, { rng: 'seed', severity: 1 });
 * // 'Find flights between two airports …' becomes 'Search for flights between two airports …'
 */
export const rewordDescriptions = defineOperator({
  id: 'tools/reword-descriptions',
  // 4: no Delete ↔ Remove (removing a sub-issue unlinks it; deleting destroys it); a capitalized verb
  // followed by a noun and "are"/"is" ("Check runs are …") is a noun phrase and stays.
  // 5: the word for an acronym is capitalized only where a sentence starts ("the reservation identifier").
  // 6: words joined by "/" or set with "=" stay ("offset/limit"); no "information" ↔ "details"; "before"
  // becomes "prior to" only before a gerund; "ID" stays before "number" or "card".
  // 7: "ID" is never spelled out as "identifier" (GitHub's "node ID"; "ID is not the same as issue number").
  // 8: "limit to" ↔ "restrict to" ↔ "narrow to" only as a verb, where it starts a clause or follows "to" or a
  // modal, and not before an infinitive (BFCL's "The budget limit to set in USD" became "The budget narrow to
  // set in USD").
  // 9: no "product" → "item" in a tool that does arithmetic (BFCL's `multiply` "returns the item"); "per" ↔
  // "for each" not before a unit ("meters for each second"); "Find" not before "the" ("Search for the roots of
  // a quadratic equation"); no "Hold" ↔ "Reserve" ("Hold a specified number of hotel rooms").
  // 10: "Check" ↔ "Verify" only before a clause ("Verify the current status of an order" confirms, not looks up).
  version: 10,
  dimension: 'tools',
  mode: 'exact',
  description:
    'Rewords tool and parameter descriptions with equivalent phrasings; identifiers and data stay.',
  params: z.object({}),
  apply(harness: Harness, { rng, severity }) {
    const identifiers = [...takenNames(harness)];
    const words: HarnessWords = { identifiers, termWords: new Set(identifiers.flatMap(identifierWords)) };
    const candidates = harness.tools.items.filter((tool) => rewordable(tool, words));
    if (candidates.length === 0) return { skip: 'no tool description has a phrase the lexicon rewords' };
    const count = affectedCount(severity, candidates.length);
    const chosen = new Set(
      rng
        .fork('choose')
        .sample(candidates, count)
        .map((tool) => tool.name),
    );
    const items = harness.tools.items.map((tool) =>
      chosen.has(tool.name) ? rewordTool(tool, words, rng.fork(`tool-${tool.name}`)) : tool,
    );
    return { harness: { ...harness, tools: { ...harness.tools, items } }, relabel: identityRelabel };
  },
});
