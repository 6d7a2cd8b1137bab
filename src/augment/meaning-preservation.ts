// The meaning check of the certificate, beside the protected-content check: the lists of a changed part keep
// what they say beyond their words. Every link of the base (an item that leans on the item before it, every
// pair of an enumeration) is still a pair of neighbours in the variant, in order, with nothing but list
// markers and spacing between them; an item that ended on a conjunction or a comma is not closed by a full
// stop; every item of a numbered procedure still carries an order marker (a number, "Step n", an ordinal, a
// numbered table row or an ordered tag); every item of a template of an output keeps its list marker (a
// bullet stays a bullet, a number a number). Items are found word for word, or, when an operator reworded
// them, as the stretch of the variant that shares most of their words.

import type { Issue, JsonPath } from '../harness/issues.js';
import { type ListMeaning, listMeaning } from './list-meaning.js';
import type { NormalisedText } from './normalised-text.js';
import { markdownLists } from './ordered-lists.js';

/** What the meaning check counted in the base. */
export interface MeaningChecked {
  /** Links between an item and the one before it that it leans on. */
  dependencies: number;
  /** Numbered procedures whose items must stay marked as ordered. */
  procedures: number;
  /** Enumerations of alternatives or conditions. */
  enumerations: number;
}

/** The lists of one text with their meaning, for the base's tool names. */
export interface TextListMeaning {
  texts: string[];
  numbered: boolean;
  meaning: ListMeaning;
}

/**
 * The meaning facts of one (normalised) text: its lists with their links, procedures and enumerations.
 *
 * @example
 * textListMeaning('- Check roaming.\n- If it is off, turn it on.')[0].meaning.links // ['it opens with "If it", referring back']
 */
export function textListMeaning(text: string, toolNames?: ReadonlySet<string>): TextListMeaning[] {
  return markdownLists(text).map((list) => ({
    texts: list.texts.map(collapse),
    numbered: list.numbered,
    meaning: listMeaning({
      numbered: list.numbered,
      introduction: list.introduction,
      items: list.texts,
      ...(toolNames ? { toolNames } : {}),
      template: list.template,
    }),
  }));
}

const collapse = (text: string) => text.replace(/\s+/gu, ' ').trim();

/** Where an item was found in a variant text (offsets into its collapsed form), and whether word for word. */
interface Found {
  text: number;
  start: number;
  end: number;
  exact: boolean;
}

/**
 * A variant text in its collapsed form, with its word tokens and their counts for reworded items; each read
 * only when a search reaches the text (most items are found word for word at their own path).
 */
interface VariantText {
  source: string;
  collapsed?: string;
  tokens?: Token[];
  counts?: Map<string, number>;
}

/** The collapsed form of a variant text. */
const textOf = (variant: VariantText): string => {
  variant.collapsed ??= collapse(variant.source);
  return variant.collapsed;
};

/** The word tokens of a variant text. */
const tokensOf = (variant: VariantText): Token[] => {
  variant.tokens ??= tokenize(textOf(variant));
  return variant.tokens;
};

interface Token {
  word: string;
  start: number;
  end: number;
}

/** Words: a Han or Kana character each, else runs of letters, digits and mention placeholders. */
const tokenPattern = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{Co}]+/gu;
const tokenize = (text: string): Token[] =>
  [...text.matchAll(tokenPattern)].map((match) => ({
    word: match[0].toLowerCase(),
    start: match.index,
    end: match.index + match[0].length,
  }));

/** The share of an item's words a stretch of the variant must hold to stand for the reworded item. */
const rewordedShare = 0.6;
/** Words other than list markers a reworded neighbour may leave between two linked items. */
const rewordedSlack = 3;

/**
 * The item in the variant texts: word for word (in the text with the same path first, after `after` when
 * given), else the stretch of as many words that shares the most of them (at least `rewordedShare`).
 */
function locate(item: string, variants: VariantText[], preferred: number, after?: Found): Found | undefined {
  // The text after the previous item, the text at the same path, then the others: linear in the texts.
  const first = after?.text ?? preferred;
  const exact = inSearchOrder(first, preferred, variants.length, (index) => {
    const text = textOf(variants[index] as VariantText);
    const from = after && after.text === index ? after.end : 0;
    let start = text.indexOf(item, from);
    if (start < 0 && from > 0) start = text.indexOf(item);
    return start >= 0 ? { text: index, start, end: start + item.length, exact: true } : undefined;
  });
  if (exact) return exact;
  const wanted = tokenize(item).map((token) => token.word);
  if (wanted.length === 0) return undefined;
  const need = wordCounts(wanted);
  let best: (Found & { score: number }) | undefined;
  inSearchOrder(first, preferred, variants.length, (index) => {
    const variant = variants[index] as VariantText;
    // No stretch of a text shares more of the item's words than the whole text holds: a text that cannot
    // reach the share, or pass the best so far, is not searched (the search would not pick it).
    const tokens = tokensOf(variant);
    variant.counts ??= wordCounts(tokens.map((token) => token.word));
    let most = 0;
    for (const [word, count] of need) most += Math.min(count, variant.counts.get(word) ?? 0);
    const bound = most / wanted.length;
    if (bound < rewordedShare || (best && bound <= best.score)) return undefined;
    const window = bestWindow(wanted, need, tokens);
    if (window && (!best || window.score > best.score)) {
      best = { text: index, start: window.start, end: window.end, exact: false, score: window.score };
    }
    return undefined;
  });
  return best && best.score >= rewordedShare ? best : undefined;
}

/**
 * Visits `first`, then `second` (when another), then every other index below `count`, in order, until
 * `visit` returns something; returns that.
 */
function inSearchOrder<T>(
  first: number,
  second: number,
  count: number,
  visit: (index: number) => T | undefined,
): T | undefined {
  let found = visit(first);
  if (found === undefined && second !== first) found = visit(second);
  for (let index = 0; found === undefined && index < count; index++)
    if (index !== first && index !== second) found = visit(index);
  return found;
}

/** How often each word occurs. */
function wordCounts(words: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** The run of `wanted.length` tokens that holds the most of `wanted` (as a multiset: `need`, its counts). */
function bestWindow(
  wanted: readonly string[],
  need: ReadonlyMap<string, number>,
  tokens: readonly Token[],
): { start: number; end: number; score: number } | undefined {
  const size = Math.min(wanted.length, tokens.length);
  if (size === 0) return undefined;
  const have = new Map<string, number>();
  let shared = 0;
  const add = (word: string, step: 1 | -1) => {
    const before = have.get(word) ?? 0;
    const limit = need.get(word) ?? 0;
    have.set(word, before + step);
    if (step === 1 && before < limit) shared++;
    if (step === -1 && before <= limit) shared--;
  };
  // Among stretches that share as many words, one that opens with the item's first word is the item.
  let best = { at: 0, shared: -1, rank: -1 };
  for (let index = 0; index < tokens.length; index++) {
    add((tokens[index] as Token).word, 1);
    if (index >= size) add((tokens[index - size] as Token).word, -1);
    if (index < size - 1) continue;
    const at = index - size + 1;
    const rank = 2 * shared + ((tokens[at] as Token).word === wanted[0] ? 1 : 0);
    if (rank > best.rank) best = { at, shared, rank };
  }
  return {
    start: (tokens[best.at] as Token).start,
    end: (tokens[best.at + size - 1] as Token).end,
    score: best.shared / wanted.length,
  };
}

/** List markers and spacing: what may stand between two neighbouring items of any list style. */
const markerNoise =
  /<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?>|\bsteps?\s*\d+\b|\b\d{1,4}\b|第\s*\d+\s*步|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|next|then|finally|lastly|rule|item)\b|[^\p{L}\p{N}\p{Co}]+/giu;
/** An order marker before an item: a number, "Step n", 第n步, a numbered table row, an ordered tag or an ordinal. */
const orderMarker =
  /(?:^|[\s>|(])\d{1,4}\s*[.)、:：|]|\bstep\s*\d+|第\s*[\d一二三四五六七八九十]+\s*步|<(?:li|step|item)\b[^>]*>|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|next|then|finally|lastly|afterwards)\b|首先|其次|然后|接着|最后/iu;
/** What closes a sentence: an item that ended on a conjunction or a comma must not be closed by one. */
const sentenceEnd = /[.!?。！？]/u;

const describe = (text: string) => JSON.stringify(text.replace(/[\uE000-\uF8FF]/gu, '').slice(0, 70));

/**
 * Checks the meaning facts of the base texts' lists against the variant texts of the same group.
 *
 * @example
 * compareListMeaning(baseGroup.texts, lists, variantGroup.texts).issues // [] when every link, procedure and enumeration holds
 */
export function compareListMeaning(
  baseTexts: readonly NormalisedText[],
  lists: ReadonlyArray<readonly TextListMeaning[]>,
  variantTexts: readonly NormalisedText[],
): { checked: MeaningChecked; issues: Issue[] } {
  const checked: MeaningChecked = { dependencies: 0, procedures: 0, enumerations: 0 };
  const issues: Issue[] = [];
  let paths: string[] | undefined;
  let byPath: Map<string, number> | undefined;
  let variants: VariantText[] | undefined;
  baseTexts.forEach((location, textIndex) => {
    for (const list of lists[textIndex] ?? []) {
      const links = list.meaning.links.filter((link) => link !== undefined).length;
      const markedProcedure = list.numbered && list.meaning.procedure;
      if (links === 0 && !markedProcedure) continue;
      if (list.meaning.enumeration) checked.enumerations++;
      else checked.dependencies += links;
      if (markedProcedure) checked.procedures++;
      paths ??= variantTexts.map((text) => JSON.stringify(text.path));
      // The variant text at the same path, found by a map: a scan per list was quadratic in the skills.
      byPath ??= new Map(paths.map((path, index) => [path, index] as const).reverse());
      const samePath = byPath.get(JSON.stringify(location.path));
      // The same words at the same place keep every fact of the text's lists (a text a rename or another
      // part's step left as it was).
      if (samePath !== undefined && variantTexts[samePath]?.text === location.text) continue;
      // The variant's texts are read (collapsed) only as a list's search reaches them.
      variants ??= variantTexts.map((text) => ({ source: text.text }));
      const preferred = samePath ?? 0;
      const issue = checkList(list, variants, preferred, location.path);
      if (issue) issues.push(issue);
    }
  });
  return { checked, issues };
}

/** The first fact of one list that the variant breaks, as an issue. */
function checkList(
  list: TextListMeaning,
  variants: VariantText[],
  preferred: number,
  path: JsonPath,
): Issue | undefined {
  const where = path.join('.');
  const found: Array<Found | undefined> = [];
  for (const [index, item] of list.texts.entries()) {
    found.push(locate(item, variants, preferred, found[index - 1]));
  }
  for (const [index, link] of list.meaning.links.entries()) {
    if (link === undefined) continue;
    const before = found[index];
    const after = found[index + 1];
    const first = list.texts[index] as string;
    const second = list.texts[index + 1] as string;
    const code = list.meaning.template
      ? 'template_changed'
      : list.meaning.enumeration
        ? 'enumeration_broken'
        : 'dependency_separated';
    const why = list.meaning.template ?? list.meaning.enumeration ?? link;
    if (!before || !after || before.text !== after.text || after.start < before.end) {
      return {
        code,
        path,
        message: `${where}: ${describe(second)} must stay right after ${describe(first)} (${why}), and the variant does not keep it there`,
      };
    }
    const between = textOf(variants[before.text] as VariantText).slice(before.end, after.start);
    const words = between.replace(markerNoise, ' ').trim();
    const slack = before.exact && after.exact ? 0 : rewordedSlack;
    if (words !== '' && words.split(/\s+/u).length > slack) {
      return {
        code,
        path,
        message: `${where}: ${describe(second)} must stay right after ${describe(first)} (${why}); the variant puts ${describe(words)} between them`,
      };
    }
    if (
      /[,;:，；：、]$|\b(?:or|and|nor)$/iu.test(first.replace(/[\s*_~`"'”’」)）\]]+$/u, '')) &&
      sentenceEnd.test(between)
    ) {
      return {
        code,
        path,
        message: `${where}: ${describe(first)} leads into the next rule, and the variant closes it with a full stop`,
      };
    }
  }
  if (list.meaning.template) {
    // A template's line is written with its marker: restyled (numbered, a table row, prose) it is another
    // output.
    const marker = list.numbered ? /(?:^|\s)\d{1,9}[.)]\s*$/u : /(?:^|\s)[-*+]\s*$/u;
    for (const [index, item] of found.entries()) {
      const lead = item
        ? textOf(variants[item.text] as VariantText).slice(Math.max(0, item.start - 12), item.start)
        : '';
      if (!item || !marker.test(lead)) {
        return {
          code: 'template_changed',
          path,
          message: `${where}: the line ${describe(list.texts[index] as string)} ${item ? `is no longer a ${list.numbered ? 'numbered' : 'bulleted'} line` : 'is not found in the variant'} (${list.meaning.template})`,
        };
      }
    }
  }
  if (list.numbered && list.meaning.procedure) {
    for (const [index, item] of found.entries()) {
      const text = item ? textOf(variants[item.text] as VariantText) : '';
      const previous = found[index - 1];
      const from =
        item && previous && previous.text === item.text && previous.end <= item.start ? previous.end : 0;
      const lead = item ? text.slice(Math.max(from, item.start - 40), item.start) : '';
      if (!item || !orderMarker.test(lead)) {
        return {
          code: 'procedure_unmarked',
          path,
          message: `${where}: the numbered procedure's step ${describe(list.texts[index] as string)} ${item ? 'no longer carries an order marker (a number, "Step n", an ordinal)' : 'is not found in the variant'}`,
        };
      }
    }
  }
  return undefined;
}
