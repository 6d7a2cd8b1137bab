// Helpers of the skill-content operators (not an operator): the spans of a text that a paraphrase must keep
// verbatim — the protected content of the kit (code, pin markers, quotes, numbers, paths, URLs), identifiers
// of the harness and banned terms — and a check that a rewrite mentions the same identifiers as the original.
import {
  findMentions,
  type Harness,
  harnessSymbols,
  type ProtectedContentSpanKind,
  protectedContentSpans,
  type SymbolEntry,
} from '../../src/kit/index.js';

/** Why a span is protected. */
export type ProtectedKind = ProtectedContentSpanKind | 'identifier' | 'banned_term';

/** A span `[start, end)` of a text (UTF-16 offsets) that a paraphrase must keep as it is. */
export interface ProtectedSpan {
  start: number;
  end: number;
  text: string;
  kind: ProtectedKind;
}

function collect(text: string, pattern: RegExp, kind: ProtectedKind, into: ProtectedSpan[]) {
  for (const match of text.matchAll(pattern)) {
    if (match[0].length === 0) continue;
    into.push({ start: match.index, end: match.index + match[0].length, text: match[0], kind });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/** The symbols of a harness, the loader's argument included (as a parameter of the loader). */
function symbolsOf(harness: Harness): SymbolEntry[] {
  const { loader } = harness.skills;
  return [
    ...harnessSymbols(harness),
    {
      kind: 'parameter',
      name: loader.argument,
      tool: loader.tool,
      parameterPath: [loader.argument],
      definedAt: ['skills', 'loader', 'argument'],
    },
  ];
}

/**
 * Finds the spans of a text that a paraphrase must keep verbatim: the protected content
 * (`protectedContentSpans`: code, pin markers such as `<!-- pin -->` and `(order-sensitive)`, quoted terms
 * in every form, numbers with their currency and unit such as `¥199`, `48 hours`, `20%` with list markers
 * aside, paths and URLs), mentions of the harness's identifiers (skill ids, tool and parameter names, as the
 * symbol table finds them), and the terms of every `banned_terms` hook. Overlapping spans are merged; the
 * result is sorted.
 *
 * @example
 * findProtectedSpans('Quote `total` as "¥219", within 48 hours.', harness).map((span) => span.text)
 * // ['`total`', '"¥219"', '48 hours']
 */
export function findProtectedSpans(text: string, harness: Harness): ProtectedSpan[] {
  const spans: ProtectedSpan[] = protectedContentSpans(text);
  for (const mention of findMentions({ path: [], text }, symbolsOf(harness))) {
    spans.push({
      start: mention.start,
      end: mention.end,
      text: text.slice(mention.start, mention.end),
      kind: 'identifier',
    });
  }
  for (const hook of harness.hooks.items) {
    if (hook.check.type !== 'banned_terms') continue;
    for (const term of hook.check.terms) {
      collect(
        text,
        new RegExp(escapeRegExp(term), hook.check.caseSensitive ? 'gu' : 'giu'),
        'banned_term',
        spans,
      );
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: ProtectedSpan[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start < last.end) {
      if (span.end > last.end) {
        last.end = span.end;
        last.text = text.slice(last.start, last.end);
      }
      continue;
    }
    merged.push({ ...span });
  }
  return merged;
}

/**
 * The distinct texts of the protected spans, in order of first appearance: what a model must keep verbatim.
 *
 * @example
 * protectedTexts('Never quote "¥199" twice: "¥199".', harness) // ['"¥199"']
 */
export function protectedTexts(text: string, harness: Harness): string[] {
  return [...new Set(findProtectedSpans(text, harness).map((span) => span.text))];
}

/**
 * How often `part` occurs in `text` (non-overlapping).
 *
 * @example
 * occurrences('a "x" b "x"', '"x"') // 2
 */
export function occurrences(text: string, part: string): number {
  if (part === '') return 0;
  let count = 0;
  for (let from = text.indexOf(part); from >= 0; from = text.indexOf(part, from + part.length)) count++;
  return count;
}

/**
 * Whether every protected text of the original occurs in the rewrite at least as often as in the original.
 *
 * @example
 * keepsProtectedSpans('Quote "¥199".', 'Say "¥199".', harness) // true
 */
export function keepsProtectedSpans(original: string, rewrite: string, harness: Harness): boolean {
  return protectedTexts(original, harness).every(
    (part) => occurrences(rewrite, part) >= occurrences(original, part),
  );
}

/**
 * The identifiers `sameMentions` finds in texts of the harness, as a string: two harnesses with the same key
 * find the same mentions in every text, so a result may be kept under it.
 *
 * @example
 * const key = mentionsKey(harness); // one per harness, not per text
 */
export function mentionsKey(harness: Harness): string {
  return JSON.stringify(symbolsOf(harness));
}

/**
 * Whether two texts mention the same identifiers of the harness, as many times each (order aside): a
 * rewrite must neither lose a mention nor make a word into one.
 *
 * @example
 * sameMentions('Load `item_qa`.', 'Please load `item_qa`.', harness) // true
 */
export function sameMentions(before: string, after: string, harness: Harness): boolean {
  const symbols = symbolsOf(harness);
  const signature = (text: string) =>
    findMentions({ path: [], text }, symbols)
      .map((mention) => `${mention.kind}\u0000${mention.tool ?? ''}\u0000${mention.name}`)
      .sort()
      .join('\u0001');
  return signature(before) === signature(after);
}
