// A word diff of two texts for the review page: the texts cut into words, spaces and single signs (each Han,
// kana or Hangul character a word of its own, since those scripts do not put spaces between words), then a
// longest common subsequence over the tokens. The common head and tail are cut first; a middle too large for
// the table (`maxCells`) is shown as removed and added whole rather than held in memory. White space alone
// between two changes is folded into them, as people read a replaced phrase.

/** One run of the diff: tokens both texts share, or tokens only the base (`removed`) or the variant (`added`) has. */
export interface DiffRun {
  type: 'same' | 'removed' | 'added';
  text: string;
}

/** The largest table (base tokens × variant tokens of the middle) the diff fills. */
export const maxCells = 4_000_000;

const tokenPattern =
  /\s+|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{M}\p{N}_]+|[^\s]/gsu;

/**
 * Cuts a text into diff tokens: runs of white space, words (letters, marks, digits, `_`), single CJK
 * characters and single signs; joined, the tokens are the text.
 *
 * @example
 * wordTokens('Call `get_price`.') // ['Call', ' ', '`', 'get_price', '`', '.']
 */
export function wordTokens(text: string): string[] {
  return text.match(tokenPattern) ?? [];
}

function push(runs: DiffRun[], type: DiffRun['type'], text: string): void {
  if (text === '') return;
  const last = runs.at(-1);
  if (last?.type === type) last.text += text;
  else runs.push({ type, text });
}

/**
 * Diffs two texts word by word: runs in order, where the `same` and `removed` runs spell the base and the
 * `same` and `added` runs spell the variant. Deterministic: of equally long common subsequences, the one
 * that keeps base tokens earliest wins, and a removal comes before the addition that replaces it.
 *
 * @example
 * wordDiff('quote the price', 'state the price')
 * // [{ type: 'removed', text: 'quote' }, { type: 'added', text: 'state' }, { type: 'same', text: ' the price' }]
 */
export function wordDiff(base: string, variant: string): DiffRun[] {
  const a = wordTokens(base);
  const b = wordTokens(variant);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const runs: DiffRun[] = [];
  push(runs, 'same', a.slice(0, head).join(''));
  const middleA = a.slice(head, a.length - tail);
  const middleB = b.slice(head, b.length - tail);
  if (middleA.length * middleB.length > maxCells) {
    push(runs, 'removed', middleA.join(''));
    push(runs, 'added', middleB.join(''));
  } else {
    diffMiddle(middleA, middleB, runs);
  }
  push(runs, 'same', a.slice(a.length - tail).join(''));
  return absorbSpaces(runs);
}

/**
 * Folds a run of white space shared between two changes into the changes, so that `State weights` →
 * `Give every weight` reads as one removal and one addition instead of words matched across a space.
 */
function absorbSpaces(runs: readonly DiffRun[]): DiffRun[] {
  const out: DiffRun[] = [];
  let removed = '';
  let added = '';
  runs.forEach((run, index) => {
    const between =
      run.type === 'same' &&
      /^\s+$/u.test(run.text) &&
      index > 0 &&
      index < runs.length - 1 &&
      (runs[index - 1] as DiffRun).type !== 'same' &&
      (runs[index + 1] as DiffRun).type !== 'same';
    if (run.type === 'removed' || between) removed += run.text;
    if (run.type === 'added' || between) added += run.text;
    if (run.type === 'same' && !between) {
      push(out, 'removed', removed);
      push(out, 'added', added);
      removed = '';
      added = '';
      push(out, 'same', run.text);
    }
  });
  push(out, 'removed', removed);
  push(out, 'added', added);
  return out;
}

/** The longest common subsequence table from the end, then one walk from the start. */
function diffMiddle(a: readonly string[], b: readonly string[], runs: DiffRun[]): void {
  const columns = b.length + 1;
  // lengths[i * columns + j]: the longest common subsequence of a[i…] and b[j…].
  const lengths = new Uint32Array((a.length + 1) * columns);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i * columns + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * columns + j + 1] as number) + 1
          : Math.max(lengths[(i + 1) * columns + j] as number, lengths[i * columns + j + 1] as number);
  let i = 0;
  let j = 0;
  let removed = '';
  let added = '';
  const flush = () => {
    push(runs, 'removed', removed);
    push(runs, 'added', added);
    removed = '';
    added = '';
  };
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flush();
      push(runs, 'same', a[i] as string);
      i++;
      j++;
    } else if (
      j >= b.length ||
      (i < a.length && (lengths[(i + 1) * columns + j] as number) >= (lengths[i * columns + j + 1] as number))
    ) {
      removed += a[i] as string;
      i++;
    } else {
      added += b[j] as string;
      j++;
    }
  }
  flush();
}
