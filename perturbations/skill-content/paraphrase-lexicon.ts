// skill-content/paraphrase-lexicon — swaps connectives and boilerplate of skill bodies for synonyms from a fixed lexicon; numbers, quotes, code, identifiers, banned terms and all ids stay.

import { z } from 'zod';
import {
  affectedCount,
  applyEdits,
  BoundedCache,
  defineOperator,
  type Harness,
  harnessSymbols,
  identityRelabel,
  type Random,
  severityBetween,
  type TextEdit,
} from '../../src/kit/index.js';
import { findProtectedSpans, sameMentions } from './protected-spans.js';
import { countRules } from './rules.js';

/** A count: digits, or a number word. */
const countWord = '(?:\\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|a dozen)\\b)';

/**
 * Phrase → paraphrase, and where the paraphrase reads the same only in some places, what must follow the
 * phrase (a regular expression for a lookahead: "at most" is "no more than" before a number, not at the end of
 * "one line per product at most"). Both directions of a pair may be listed: every match is found on the
 * original text. Left out as not the same rule everywhere: "only when" → "only if" (a time becomes a
 * condition).
 */
const englishPairs: ReadonlyArray<readonly [string, string, string?]> = [
  // "Make sure to read back" is not "Ensure to read back", nor "make sure of it" "ensure of it".
  ['make sure', 'ensure', '(?!\\s+(?:to|of)\\b)'],
  // "Ensure an isolated workspace" is not "Make sure an isolated workspace": only before a clause.
  ['ensure', 'make sure', '(?=\\s+that\\b)'],
  ['do not', "don't"],
  ["don't", 'do not'],
  ['does not', "doesn't"],
  ["doesn't", 'does not'],
  ['is not', "isn't"],
  ["isn't", 'is not'],
  ['cannot', "can't"],
  ["can't", 'cannot'],
  // "Prior to the moment you proceed" does not read (OpenHands' kubernetes skill), nor does "prior to" before
  // a clause or in "before and after": only before a gerund ("before calling"), not a noun in -thing.
  ['before', 'prior to', '(?=\\s+(?!\\p{L}*(?:thing|string)\\b)\\p{L}{2,}ing\\b)'],
  ['at most', 'no more than', `(?=\\s+(?:${countWord}|(?:once|twice)\\b))`],
  // "At least once" is not "no fewer than once".
  ['at least', 'no fewer than', `(?=\\s+${countWord})`],
  ['instead of', 'rather than'],
  // "Rather than put in fiddly changes" is not "Instead of put in …": only before a gerund, an article or a
  // determiner, which "instead of" takes too.
  [
    'rather than',
    'instead of',
    '(?=\\s+(?:\\p{L}+ing|the|a|an|this|that|these|those|your|our|their|its|his|her|my|any|each|every|one)\\b)',
  ],
  ['for example', 'for instance'],
  ['for instance', 'for example'],
  ['e.g.', 'for example'],
  // "As soon as possible" is not "the moment possible".
  ['as soon as', 'the moment', '(?!\\s+possible\\b)'],
  ['in one sentence', 'in a single sentence'],
  ['right away', 'immediately'],
];
const chinesePairs: ReadonlyArray<readonly [string, string]> = [
  ['不要', '切勿'],
  ['切勿', '不要'],
  ['必须', '务必'],
  ['务必', '必须'],
  ['如果', '若'],
  ['禁止', '不得'],
  ['然后', '接着'],
];

interface Entry {
  pattern: RegExp;
  replacement: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
const entries: Entry[] = [
  ...englishPairs.map(([from, to, after = '']) => ({
    pattern: new RegExp(
      `(?<![\\p{L}\\p{N}_'’])${escapeRegExp(from).replaceAll("'", "['’]")}(?![\\p{L}\\p{N}_'’])${after}`,
      'giu',
    ),
    replacement: to,
  })),
  ...chinesePairs.map(([from, to]) => ({ pattern: new RegExp(escapeRegExp(from), 'gu'), replacement: to })),
];

/** The replacement in the match's case (Make sure → Ensure, MAKE SURE → ENSURE) and apostrophe. */
function matchCase(match: string, replacement: string): string {
  const apostrophe = match.includes('’') ? '’' : "'";
  const text = replacement.replaceAll("'", apostrophe);
  if (/\p{Lu}/u.test(match) && match === match.toUpperCase() && match.length > 1) return text.toUpperCase();
  if (/^\p{Lu}/u.test(match)) return `${text.slice(0, 1).toUpperCase()}${text.slice(1)}`;
  return text;
}

/**
 * Every lexicon match of a text, leftmost-longest first (overlapping ones included): a fact of the text
 * alone, found once per text (a pool's entries and a bench's variants hold the same bodies).
 */
function lexiconMatches(text: string): readonly TextEdit[] {
  const known = matchesByText.get(text);
  if (known) return known;
  const candidates: TextEdit[] = [];
  for (const entry of entries) {
    for (const match of text.matchAll(entry.pattern)) {
      // A phrase written in capitals is emphasis ("Do NOT …"): "Don't" would drop it.
      if (/\p{Lu}{2,}/u.test(match[0])) continue;
      // A Markdown heading is a title in its own case ("When You Don't Know"): left as written.
      const lineStart = text.lastIndexOf('\n', match.index) + 1;
      if (/^#{1,6}\s/u.test(text.slice(lineStart, lineStart + 7))) continue;
      // Frozen: every later call on the same text hands out these objects.
      candidates.push(
        Object.freeze({
          start: match.index,
          end: match.index + match[0].length,
          text: matchCase(match[0], entry.replacement),
        }),
      );
    }
  }
  candidates.sort((a, b) => a.start - b.start || b.end - a.end);
  return matchesByText.set(text, candidates);
}
// Pure function of content across runs: a text's lexicon matches, by the text.
const matchesByText = new BoundedCache<string, readonly TextEdit[]>(
  2 << 20,
  (text, matches) =>
    2 * text.length + 64 + matches.reduce((sum, match) => sum + 2 * match.text.length + 64, 0),
);

/**
 * The lexicon swaps a text allows: every lexicon match outside the protected spans, leftmost-longest first,
 * never overlapping.
 *
 * @example
 * lexiconEdits('Make sure to ask.', harness) // [{ start: 0, end: 9, text: 'Ensure' }]
 */
export function lexiconEdits(text: string, harness: Harness): readonly TextEdit[] {
  const candidates = lexiconMatches(text);
  // The protected spans read the harness's identifiers: looked for only where a swap could be made.
  if (candidates.length === 0) return [];
  const key = `${protectionId(harness)}\u0001${text}`;
  const known = editsByText.get(key);
  if (known) return known;
  const protectedSpans = findProtectedSpans(text, harness);
  const edits: TextEdit[] = [];
  let reached = 0;
  for (const candidate of candidates) {
    if (candidate.start < reached) continue;
    if (protectedSpans.some((span) => candidate.start < span.end && span.start < candidate.end)) continue;
    edits.push(candidate);
    reached = candidate.end;
  }
  return editsByText.set(key, edits);
}
// Pure function of content across runs: a text's allowed swaps, by what its protected spans read of the
// harness (`protectionId`) and the text. Pool entries meet the same bodies under the same names again.
const editsByText = new BoundedCache<string, readonly TextEdit[]>(
  2 << 20,
  (key, edits) => 2 * key.length + 64 + edits.reduce((sum, edit) => sum + 2 * edit.text.length + 64, 0),
);

/**
 * A number for what `findProtectedSpans` reads of a harness besides the text: its identifiers (the mention
 * scan reads each one's kind, tool and name) and its banned terms. Numbers are never reused, so a number
 * forgotten here only costs a recomputation.
 */
function protectionId(harness: Harness): number {
  let id = protectionIdOf.get(harness);
  if (id === undefined) {
    const key = JSON.stringify([
      harnessSymbols(harness).map((symbol) => [symbol.kind, symbol.tool ?? '', symbol.name]),
      [harness.skills.loader.tool, harness.skills.loader.argument],
      harness.hooks.items.flatMap((hook) =>
        hook.check.type === 'banned_terms' ? [[hook.check.terms, hook.check.caseSensitive === true]] : [],
      ),
    ]);
    id = protectionIds.get(key);
    if (id === undefined) {
      if (protectionIds.size >= 4096) protectionIds.clear();
      id = ++protectionCount;
      protectionIds.set(key, id);
    }
    protectionIdOf.set(harness, id);
  }
  return id;
}
// Pure function of content across runs: a harness object's protection number, and the numbers by content.
const protectionIdOf = new WeakMap<Harness, number>();
const protectionIds = new Map<string, number>();
let protectionCount = 0;

/** A paraphrase of a body: each allowed swap with probability `share`, at least one. */
function paraphrase(body: string, harness: Harness, share: number, rng: Random): string {
  const edits = lexiconEdits(body, harness);
  const picked = edits.filter((_, index) => rng.fork(index).chance(share));
  const chosen = picked.length > 0 ? picked : [rng.fork('one').pick(edits)];
  return applyEdits(body, chosen);
}

/**
 * Paraphrases a share (= severity, at least one) of the skill bodies with a fixed lexicon of connectives
 * and boilerplate ("make sure" → "ensure", "do not" ↔ "don't", "at most" → "no more than", "不要" → "切勿",
 * "必须" → "务必", …); each possible swap in a chosen body happens with probability (1 + severity) / 2.
 * "Before" becomes "prior to" only before a gerund ("before calling"), never before a clause or in "before
 * and after". "Never" has no entry: no paraphrase of it reads right in every sentence ("never from an empty
 * folder").
 * Swaps never touch protected spans (numbers and prices, quoted terms, code and identifiers, banned terms,
 * pin markers; see `findProtectedSpans`), and a body whose rewrite would mention other identifiers or hold
 * another number of rules is kept. Ids do not change: the relabel
 * is the identity. Skips when no body holds a lexicon phrase outside protected spans.
 *
 * @example
 * await applyOperator(paraphraseLexicon, travelHarness(), { rng: 'seed', severity: 1 });
 * // rebooking: "- Do not promise a seat …" → "- Don't promise a seat …"
 */
export const paraphraseLexicon = defineOperator({
  id: 'skill-content/paraphrase-lexicon',
  // 3: "at most", "at least", "make sure" and "as soon as" swap only where the paraphrase reads the
  // same; "only when" no longer becomes "only if".
  // 4: no swap of a phrase written in capitals ("Do NOT" stays) or in a heading; "ensure" becomes "make
  // sure" only before "that".
  // 5: "rather than" becomes "instead of" only before a gerund, an article or a determiner.
  // 6: "before" becomes "prior to" only before a gerund; "before you" no longer becomes "prior to the
  // moment you".
  version: 6,
  dimension: 'skill-content',
  mode: 'exact',
  description:
    'Swaps connectives and boilerplate of skill bodies from a lexicon; numbers, quotes, code, identifiers and banned terms stay.',
  params: z.object({}),
  apply(harness, { rng, severity }) {
    const eligible = harness.skills.items.filter((skill) => lexiconEdits(skill.body, harness).length > 0);
    if (eligible.length === 0)
      return { skip: 'no skill body holds a lexicon phrase outside protected spans' };
    const chosen = new Set(rng.fork('skills').sample(eligible, affectedCount(severity, eligible.length)));
    const draws = rng.fork('swaps');
    let changed = false;
    const items = harness.skills.items.map((skill, index) => {
      if (!chosen.has(skill)) return skill;
      const body = paraphrase(skill.body, harness, severityBetween(severity, 0.5, 1), draws.fork(index));
      if (!sameMentions(skill.body, body, harness) || countRules(body) !== countRules(skill.body))
        return skill;
      changed = true;
      return { ...skill, body };
    });
    if (!changed) return { skip: 'every paraphrase would have changed the identifiers a body mentions' };
    return { harness: { ...harness, skills: { ...harness.skills, items } }, relabel: identityRelabel };
  },
});
