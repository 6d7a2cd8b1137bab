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
  const texts = [
    ...harnessTextLocations(harness).map((location) => location.text),
    ...trajectoryTexts(options.trajectory),
  ];
  const accepted: string[] = [];
  return (candidate) => {
    if (!identifierPattern.test(candidate) || taken.has(candidate)) return false;
    if (texts.some((text) => text.includes(candidate))) return false;
    if (findMentions({ path: [], text: `\`${candidate}\`` }, kept).length > 0) return false;
    if (accepted.some((name) => holdsWord(name, candidate) || holdsWord(candidate, name))) return false;
    accepted.push(candidate);
    taken.add(candidate);
    return true;
  };
}
