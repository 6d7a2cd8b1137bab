// Helpers of the skill-ids operators (not an operator): a guard that accepts only fresh skill names.
import {
  findMentions,
  type Harness,
  harnessSymbols,
  harnessTextLocations,
  type SymbolEntry,
  type Trajectory,
} from '../../src/kit/index.js';

const identifierPattern = /^\S(?:[^\r\n]*\S)?$/u;

/** The strings of a trajectory: every message's content. */
function trajectoryTexts(trajectory: Trajectory | undefined): string[] {
  if (!trajectory) return [];
  return trajectory.messages.flatMap((message) =>
    typeof message.content === 'string' ? [message.content] : [],
  );
}

/** Whether `outer` holds `inner` as a whole word (word characters on neither side). */
function holdsWord(outer: string, inner: string): boolean {
  const symbol: SymbolEntry = { kind: 'skill', name: inner, definedAt: [] };
  return findMentions({ path: [], text: `\`${outer}\`` }, [symbol]).length > 0 || outer === inner;
}

/**
 * A guard for new identifiers: a candidate is accepted when it is a valid identifier, is not the name of any
 * symbol of the harness nor of a name accepted before, does not occur in any string of the harness or the
 * trajectory (so the symbol table and the inverse relabel never confuse it with prose), and holds no
 * mention of a symbol that keeps its name. Accepted names are remembered.
 *
 * @example
 * const accept = createNameGuard(harness, { trajectory, freed: ['item_qa'] });
 * accept('itemQa') // true, and 'itemQa' is now taken
 */
export function createNameGuard(
  harness: Harness,
  options: { trajectory?: Trajectory | undefined; freed?: readonly string[] } = {},
): (candidate: string) => boolean {
  const symbols = harnessSymbols(harness);
  const freed = new Set(options.freed ?? []);
  const taken = new Set([...symbols.map((symbol) => symbol.name), harness.skills.loader.argument]);
  const kept = symbols.filter((symbol) => !freed.has(symbol.name));
  const own = trajectoryTexts(options.trajectory);
  const harnessText = harnessTexts(harness);
  // One text (a candidate holds no line break, so it cannot span two). Past a few candidates, the sets of
  // four-character windows of the harness's texts and the trajectory's: a candidate with a window neither
  // has cannot occur in the text, and is not searched for (each search reads the whole harness: 10,000
  // skills searched 10,000 times). Collecting the windows costs what some hundred searches do, so a guard
  // asked about a few names searches; the harness's windows are kept per harness object.
  const joined = [...harnessText.list, ...own].join('\n');
  let asked = 0;
  let ownWindows: Set<number> | undefined;
  const mayOccur = (candidate: string) => {
    if (++asked <= searchesBeforeWindows) return true;
    const windows = harnessWindows(harnessText);
    ownWindows ??= windowsOf(own.join('\n'));
    for (let index = 0; index + windowLength <= candidate.length; index++) {
      const window = windowAt(candidate, index);
      if (!windows.has(window) && !ownWindows.has(window)) return false;
    }
    return true;
  };
  // Accepted names are indexed by the spans of them that may stand as a whole word, so that a candidate is
  // compared with the few names it could hold or be held by, not with every name accepted before (renaming
  // 10,000 skills compared 10,000 × 10,000 pairs).
  const accepted = new Set<string>();
  const holders = new Map<string, string[]>();
  const oversized: string[] = [];
  return (candidate) => {
    if (!identifierPattern.test(candidate) || taken.has(candidate)) return false;
    if (mayOccur(candidate) && joined.includes(candidate)) return false;
    if (findMentions({ path: [], text: `\`${candidate}\`` }, kept).length > 0) return false;
    const spans = wordSpans(candidate);
    const conflicts = [
      ...(spans ?? []).filter((span) => accepted.has(span)),
      ...(holders.get(candidate) ?? []),
      ...(spans === undefined ? accepted : oversized),
    ];
    if (conflicts.some((name) => holdsWord(name, candidate) || holdsWord(candidate, name))) return false;
    accepted.add(candidate);
    if (spans === undefined) oversized.push(candidate);
    else
      for (const span of spans) {
        const list = holders.get(span);
        if (list) list.push(candidate);
        else holders.set(span, [candidate]);
      }
    taken.add(candidate);
    return true;
  };
}

/** A harness's texts, and their four-character windows once asked for. */
interface HarnessText {
  list: string[];
  windows?: Set<number>;
}

/** The harness's texts, once per harness object. */
function harnessTexts(harness: Harness): HarnessText {
  let known = textsOf.get(harness);
  if (!known) {
    known = { list: harnessTextLocations(harness).map((location) => location.text) };
    textsOf.set(harness, known);
  }
  return known;
}
// Pure function of content across runs: a harness object's texts and their windows (harnesses are immutable).
const textsOf = new WeakMap<Harness, HarnessText>();

/** The four-character windows of the harness's texts, collected on first use. */
function harnessWindows(text: HarnessText): Set<number> {
  text.windows ??= windowsOf(text.list.join('\n'));
  return text.windows;
}

/** Candidates a guard searches the text for before it collects the windows that filter the searches. */
const searchesBeforeWindows = 64;

/** The four-character windows of a text. */
function windowsOf(text: string): Set<number> {
  const windows = new Set<number>();
  for (let index = 0; index + windowLength <= text.length; index++) windows.add(windowAt(text, index));
  return windows;
}

const windowLength = 4;
/** A number for the four characters at `index` (two may share one: that only weakens the filter). */
function windowAt(text: string, index: number): number {
  return (
    (((text.charCodeAt(index) * 65_599 + text.charCodeAt(index + 1)) * 65_599 + text.charCodeAt(index + 2)) *
      65_599 +
      text.charCodeAt(index + 3)) %
    4_294_967_291
  );
}

/** Letters, digits, `_` and `-` continue a token (../../src/harness/mention-boundary.ts). */
const tokenCharacter = /[\p{L}\p{N}_-]/u;
const maxWordSpans = 256;

/**
 * Every span of `name` that may stand alone as a mention in it (it starts and ends where no token
 * character glues it to its neighbour): a superset of what `holdsWord` accepts, which decides. Undefined
 * for a name with too many such spans (it is then compared with every name).
 */
function wordSpans(name: string): string[] | undefined {
  const starts: number[] = [];
  const ends: number[] = [];
  for (let index = 0; index <= name.length; index++) {
    if (index < name.length && (index === 0 || !tokenCharacter.test(name[index - 1] as string)))
      starts.push(index);
    if (index > 0 && (index === name.length || !tokenCharacter.test(name[index] as string))) ends.push(index);
  }
  if (starts.length * ends.length > maxWordSpans) return undefined;
  const spans = new Set<string>();
  for (const start of starts) for (const end of ends) if (end > start) spans.add(name.slice(start, end));
  return [...spans];
}
