// Lookups over many texts at once: an index of the word runs they hold, so that asking about a name or a
// line costs its own length and the texts holding its rarest word, not a scan of every text. Renames ask
// once per new name and the certificate once per list item; with thousands of skills a scan each was
// quadratic in the harness.
import { BoundedCache } from './bounded-cache.js';

const wordRun = /[\p{L}\p{N}_]+/gu;

/** A character that continues a word for `occursAsWord`: a letter, a digit or `_` (not `-`). */
export const wordCharacter = /[\p{L}\p{N}_]/u;

/**
 * Whether `word` occurs as a whole word in a text, with the word boundaries the symbol table uses.
 *
 * @example
 * occursAsWord('call get_price now', 'get_price') // true
 */
export function occursAsWord(text: string, word: string): boolean {
  // An empty word is no word (and `indexOf('')` past the end would find the end again, forever).
  if (word === '') return false;
  let from = 0;
  for (;;) {
    const start = text.indexOf(word, from);
    if (start < 0) return false;
    from = start + 1;
    const before = text[start - 1] ?? '';
    const after = text[start + word.length] ?? '';
    if (!wordCharacter.test(before) && !wordCharacter.test(after)) return true;
  }
}

/** Texts read once into an index of their word runs (at the first question). */
export interface TextIndex {
  /** Whether `word` occurs as a whole word (the boundaries of `occursAsWord`) in any of the texts. */
  hasWord(word: string): boolean;
  /** The positions of the texts that hold `needle` as a substring, ascending. */
  containing(needle: string): number[];
}

/**
 * An index of texts for whole-word and substring questions.
 *
 * @example
 * const index = textIndex(['call get_price now', 'then stop']);
 * index.hasWord('get_price'); // true
 * index.containing('price now'); // [0]
 */
export function textIndex(texts: readonly string[]): TextIndex {
  let built: Map<string, number[]> | undefined;
  const holding = () => {
    built ??= runsByText(texts);
    return built;
  };
  const all = () => texts.map((_, index) => index);
  return {
    hasWord(word) {
      const runs = asUnits(word).match(wordRun);
      // A word without letters or digits has no run to look up: every text is read.
      if (runs === null) return texts.some((text) => occursAsWord(text, word));
      const rarest = rarestList(holding(), runs);
      return rarest.some((index) => occursAsWord(texts[index] as string, word));
    },
    containing(needle) {
      // Only a run with a non-word character on both sides inside the needle stands whole in a text that
      // holds the needle; the first and last runs may continue there.
      const whole = [...asUnits(needle).matchAll(wordRun)]
        .filter((match) => match.index > 0 && match.index + match[0].length < needle.length)
        .map((match) => match[0]);
      const candidates = whole.length === 0 ? all() : rarestList(holding(), whole);
      return candidates.filter((index) => (texts[index] as string).includes(needle));
    },
  };
}

/**
 * A predicate saying whether a word occurs as a whole word in any of the texts (`textIndex(texts).hasWord`).
 *
 * @example
 * const occurs = wordOccurrence(['call get_price now']);
 * occurs('get_price'); // true
 * occurs('price'); // false
 */
export function wordOccurrence(texts: readonly string[]): (word: string) => boolean {
  const index = textIndex(texts);
  return (word) => index.hasWord(word);
}

/** The shortest list of texts among those holding each run; empty when a run is in no text. */
function rarestList(holding: ReadonlyMap<string, number[]>, runs: readonly string[]): number[] {
  let rarest: number[] | undefined;
  for (const run of runs) {
    const list = holding.get(run);
    if (list === undefined) return [];
    if (rarest === undefined || list.length < rarest.length) rarest = list;
  }
  return rarest ?? [];
}

/** Each word run of the texts, with the positions of the texts that hold it (ascending, once each). */
function runsByText(texts: readonly string[]): Map<string, number[]> {
  const holding = new Map<string, number[]>();
  for (const [index, text] of texts.entries()) {
    for (const run of distinctRuns(text)) {
      const list = holding.get(run);
      if (list === undefined) holding.set(run, [index]);
      else list.push(index);
    }
  }
  return holding;
}

/** A text's word runs, each once, in order of first occurrence: read once per text content. */
function distinctRuns(text: string): readonly string[] {
  const known = runsOfText.get(text);
  if (known) return known;
  const runs = new Set<string>();
  for (const [run] of asUnits(text).matchAll(wordRun)) runs.add(run);
  return runsOfText.set(text, [...runs]);
}

/**
 * The text as `occursAsWord` (like the symbol table's boundaries) reads it, a UTF-16 unit at a time: neither
 * half of a character outside the BMP is a letter, so such a character ends a word run (`the` stands as a
 * word in `𝐀the`). Two spaces in its place keep every offset.
 */
const asUnits = (text: string) => text.replace(outsideBmp, '  ');
const outsideBmp = /[\u{10000}-\u{10FFFF}]/gu;
// Most texts an index is built of are a harness's, which its variants share: their runs are read once.
// Pure function of content across runs: a text's distinct word runs, by the text.
const runsOfText = new BoundedCache<string, readonly string[]>(
  4 << 20,
  (text, runs) => text.length + runs.reduce((sum, run) => sum + 2 * run.length + 32, 64),
  'text-index.runsOfText',
);
