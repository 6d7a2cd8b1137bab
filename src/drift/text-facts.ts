// What a rewording must keep to stay task-preserving, read from plain text: the protected content (the one
// rule of `protectedContentSpans`: code, pin markers, quotes, numbers with their currency and unit, paths,
// URLs), the Handlebars placeholders and the words that carry polarity or obligation. Two texts that hold
// the same of each read as a rewording; otherwise the meaning may have changed.
import { protectedContentSpans } from '../augment/protected-content.js';
import { templatePlaceholderSpans } from '../harness/template-placeholders.js';

const polarityWords = new Set([
  'not',
  'no',
  'never',
  'none',
  'nothing',
  'nor',
  'cannot',
  "can't",
  "don't",
  "doesn't",
  "won't",
  'without',
  'only',
  'always',
  'must',
  'unless',
  'except',
  // Numbers written as words count like digits.
  ...[
    'zero',
    'one',
    'two',
    'three',
    'four',
    'five',
    'six',
    'seven',
    'eight',
    'nine',
    'ten',
    'eleven',
    'twelve',
  ],
  ...['once', 'twice', 'first', 'second', 'third', 'half', 'double', 'single', 'every', 'all', 'any'],
]);

/** The protected spans and polarity words of a text, sorted: equal facts mean a rewording. */
export function textFacts(text: string): string[] {
  // A unit's case is not a fact: `48 Hours` keeps `48 hours`.
  const spans = protectedContentSpans(text).map(
    (span) => `${span.kind}:${span.kind === 'number' ? span.text.toLowerCase() : span.text}`,
  );
  const placeholders = templatePlaceholderSpans(text).map(
    ([start, end]) => `placeholder:${text.slice(start, end)}`,
  );
  const words = (text.toLowerCase().match(/[\p{L}\p{N}_'’]+/gu) ?? [])
    .filter((word) => polarityWords.has(word))
    .map((word) => `word:${word}`);
  return [...spans, ...placeholders, ...words].sort();
}

/** Whether two texts hold the same protected spans, placeholders and polarity words. */
export function sameFacts(before: string, after: string): boolean {
  const left = textFacts(before);
  const right = textFacts(after);
  return left.length === right.length && left.every((fact, index) => fact === right[index]);
}

/** Lower-cased words of a text. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_'’-]+/gu) ?? [];
}

/** Jaccard similarity of the word sets of two texts, in [0, 1]. */
export function similarity(before: string, after: string): number {
  const left = new Set(wordsOf(before));
  const right = new Set(wordsOf(after));
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  return shared / (left.size + right.size - shared);
}

/** Collapses runs of whitespace, for "only whitespace changed". */
export const collapseWhitespace = (text: string): string => text.replace(/\s+/g, ' ').trim();
