// The one rule for the content a rewrite must keep word for word: code (fenced and inline), pin markers,
// quotes in every form, numbers with their currency sign (and, for spans kept verbatim, their unit), paths
// and URLs. The certificate's content check counts these items in a part before and after a variant; the
// paraphrasing operators keep these spans untouched. Where the two used to differ, this is their union.

import { urlSpans } from '../harness/mention-boundary.js';

/** The kinds of content a rewrite must keep. */
export type ProtectedContentSpanKind = 'code' | 'marker' | 'quote' | 'number' | 'path' | 'url';

/** A span `[start, end)` of a text (UTF-16 offsets) that a rewrite must keep, and why. */
export interface ProtectedContentSpan {
  kind: ProtectedContentSpanKind;
  start: number;
  end: number;
  text: string;
}

/**
 * A pattern, with a character every match holds (or '' for none): a text without it has no match, and the
 * pattern is not run over it (most texts hold no backtick, quote or comment).
 */
interface Pattern {
  pattern: RegExp;
  holds: string;
}
const codePatterns: readonly Pattern[] = [
  { pattern: /```[\s\S]*?```/gu, holds: '`' },
  { pattern: /~~~[\s\S]*?~~~/gu, holds: '~' },
  { pattern: /`[^`\n]+`/gu, holds: '`' },
];
const pinMarkerPatterns: readonly Pattern[] = [
  { pattern: /<!--[\s\S]*?-->/gu, holds: '<' },
  // Its forms open with `(` or `（`: one character cannot say so, and it runs on every text.
  { pattern: /\(order-sensitive\)|（顺序敏感）|\(顺序敏感\)/giu, holds: '' },
];
const quotePatterns: readonly Pattern[] = [
  { pattern: /(?<![\p{L}\p{N}])'[^'\n]{1,80}'(?![\p{L}\p{N}])/gu, holds: "'" },
  { pattern: /"[^"\n]{1,120}"/gu, holds: '"' },
  { pattern: /“[^”\n]{1,120}”/gu, holds: '“' },
  { pattern: /‘[^’\n]{1,120}’/gu, holds: '‘' },
  { pattern: /「[^」\n]{1,120}」/gu, holds: '「' },
  { pattern: /『[^』\n]{1,120}』/gu, holds: '『' },
  { pattern: /《[^》\n]{1,120}》/gu, holds: '《' },
  { pattern: /«[^»\n]{1,120}»/gu, holds: '«' },
];
/** The file extensions a path without a `/` ends with (`report.csv`). */
const fileExtensions =
  'py|md|js|mjs|ts|json|ya?ml|sh|txt|csv|tsv|xlsx?|docx?|pptx?|pdf|html?|xml|toml|ini|cfg|sql|ipynb|png|jpe?g|svg';
/**
 * A path: `./x`, `../x`, `/x/y`, `~/x`, a folder `name/`, two or more segments, or segments ending in a
 * file name with an extension (`scripts/init.py`, `reference/forms.md`); or a file name alone.
 */
const pathPattern = new RegExp(
  `(?<![\\p{L}\\p{N}_./~{-])(?:(?:\\.{1,2}|~)?\\/[\\w.-]+(?:\\/[\\w.-]+)*\\/?|[\\w-][\\w.-]*\\/(?:[\\w.-]+\\/)+[\\w.-]*|[\\w-][\\w.-]*\\/[\\w-]*\\.[A-Za-z][A-Za-z0-9]{0,5}|[\\w-][\\w-]*\\/(?=[\\s)\`'",;:]|$)|[\\w-][\\w.-]*\\.(?:${fileExtensions}))(?![\\p{L}\\p{N}_/-])`,
  'gu',
);
/**
 * What every path without a `/` holds: an extension of `fileExtensions` where the name ends. A text with
 * neither cannot hold a path, and is not scanned with the whole pattern (which tries every position).
 */
const fileNameEnd = new RegExp(`\\.(?:${fileExtensions})(?![\\p{L}\\p{N}_/-])`, 'u');

const number = '[¥$€£￥]?\\d+(?:[.,:]\\d+)*';
const latinUnits =
  '%|％|cm|mm|km|kg|g|ml|l|mah|w|kw|v|hours?|hrs?|h|minutes?|mins?|seconds?|secs?|days?|weeks?|months?|years?|pieces?|pcs|items?|times|x';
const cjkUnits = '斤|公斤|克|元|块|天|小时|分钟|秒|周|个月|年|件|个|折|号|次';
/** A number with its currency sign: `¥199`, `1,299.00`, `10:30`. */
const numberPattern = new RegExp(number, 'gu');
/** A number with its currency sign and unit: `¥199`, `48 hours`, `20%`, `120斤`. */
const numberWithUnitPattern = new RegExp(`${number}(?:\\s?(?:${latinUnits})(?!\\p{L})|${cjkUnits})?`, 'giu');
/** What follows the digits of a list marker (`1.` at the start of a line): structure, renumbered freely. */
const listMarkerEnd = /^[.)](?:[ \t]|$)/u;
const blankBeforeOnLine = /^[ \t]*$/u;
const digitsOnly = /^\d+$/u;

function collect(
  text: string,
  patterns: readonly Pattern[],
  kind: ProtectedContentSpanKind,
  into: ProtectedContentSpan[],
) {
  for (const { pattern, holds } of patterns) {
    if (holds !== '' && !text.includes(holds)) continue;
    for (const match of text.matchAll(pattern)) {
      if (match[0].length === 0) continue;
      into.push({ kind, start: match.index, end: match.index + match[0].length, text: match[0] });
    }
  }
}

/** The text with the spans replaced by spaces (offsets kept). */
function blankSpans(text: string, spans: ReadonlyArray<readonly [number, number]>): string {
  if (spans.length === 0) return text;
  let result = '';
  let from = 0;
  for (const [start, end] of spans) {
    result += text.slice(from, start) + ' '.repeat(end - start);
    from = end;
  }
  return result + text.slice(from);
}

/**
 * Code spans and blocks (```` ``` ````, `~~~`, `` `…` ``), in pattern order.
 *
 * @example
 * codeSpans('Call `get_price`.').map((span) => span.text) // ['`get_price`']
 */
export function codeSpans(text: string): ProtectedContentSpan[] {
  const spans: ProtectedContentSpan[] = [];
  collect(text, codePatterns, 'code', spans);
  return spans;
}

/**
 * Pin markers: HTML comments (`<!-- pin -->`) and `(order-sensitive)` in English or Chinese.
 *
 * @example
 * pinMarkerSpans('1. a <!-- pin -->').map((span) => span.text) // ['<!-- pin -->']
 */
export function pinMarkerSpans(text: string): ProtectedContentSpan[] {
  const spans: ProtectedContentSpan[] = [];
  collect(text, pinMarkerPatterns, 'marker', spans);
  return spans;
}

/**
 * Quoted terms in every form: `'…'` (not an apostrophe inside a word), `"…"`, `“…”`, `‘…’`, `「…」`,
 * `『…』`, `《…》`, `«…»`.
 *
 * @example
 * quoteSpans('say “free” or 《说明书》').map((span) => span.text) // ['“free”', '《说明书》']
 */
export function quoteSpans(text: string): ProtectedContentSpan[] {
  const spans: ProtectedContentSpan[] = [];
  collect(text, quotePatterns, 'quote', spans);
  return spans;
}

/**
 * Paths and file names outside URLs (`./x`, `/x/y`, `scripts/init.py`, `forms.md`, a folder `name/`).
 * `urls` are the text's URL spans when the caller has them already.
 *
 * @example
 * pathSpans('Run scripts/init.py.').map((span) => span.text) // ['scripts/init.py']
 */
export function pathSpans(
  text: string,
  urls: ReadonlyArray<readonly [number, number]> = urlSpans(text),
): ProtectedContentSpan[] {
  const spans: ProtectedContentSpan[] = [];
  const scanned = blankSpans(text, urls);
  // Every form but a file name holds a `/`; a file name ends with one of the extensions.
  if (!scanned.includes('/') && !fileNameEnd.test(scanned)) return spans;
  collect(scanned, [{ pattern: pathPattern, holds: '' }], 'path', spans);
  return spans;
}

/** Options of `numberSpans`. */
export interface NumberSpanOptions {
  /**
   * Whether a span takes the number's unit with it (`48 hours`, `20%`, `120斤`): right for a span kept
   * verbatim. A count of numbers leaves it out, since a task-preserving variant may change a unit's case or
   * spacing (`48 Hours`).
   */
  unit?: boolean;
  /** The text's URL spans, when the caller has them already: numbers inside a URL belong to the URL. */
  urls?: ReadonlyArray<readonly [number, number]>;
}

/**
 * The numbers of a text with their currency sign (`¥199`, `1,299.00`), outside URLs; the digits of a list
 * marker at the start of a line (`1.`, `2)`) are structure, not a number of the text.
 *
 * @example
 * numberSpans('1. Ship within 48 hours for ¥199.', { unit: true }).map((span) => span.text) // ['48 hours', '¥199']
 */
export function numberSpans(text: string, options: NumberSpanOptions = {}): ProtectedContentSpan[] {
  const scanned = blankSpans(text, options.urls ?? urlSpans(text));
  const spans: ProtectedContentSpan[] = [];
  for (const match of scanned.matchAll(options.unit ? numberWithUnitPattern : numberPattern)) {
    const end = match.index + match[0].length;
    const lineStart = scanned.lastIndexOf('\n', match.index - 1) + 1;
    const atLineStart = blankBeforeOnLine.test(scanned.slice(lineStart, match.index));
    if (atLineStart && digitsOnly.test(match[0]) && listMarkerEnd.test(scanned.slice(end, end + 2))) continue;
    spans.push({ kind: 'number', start: match.index, end, text: match[0] });
  }
  return spans;
}

/**
 * Every span of a text that a rewrite must keep verbatim: code, pin markers, quotes, numbers with their
 * currency sign and unit, paths and URLs, by kind in that order (spans of different kinds may overlap).
 *
 * @example
 * protectedContentSpans('Quote "¥219" within 48 hours, see docs/faq.md.').map((span) => span.text)
 * // ['"¥219"', '¥219', '48 hours', 'docs/faq.md']
 */
export function protectedContentSpans(text: string): ProtectedContentSpan[] {
  const urls = urlSpans(text);
  return [
    ...codeSpans(text),
    ...pinMarkerSpans(text),
    ...quoteSpans(text),
    ...numberSpans(text, { unit: true, urls }),
    ...pathSpans(text, urls),
    ...urls.map(
      ([start, end]): ProtectedContentSpan => ({ kind: 'url', start, end, text: text.slice(start, end) }),
    ),
  ];
}
