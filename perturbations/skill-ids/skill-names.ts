// Helpers of the skill-ids operators (not an operator): word splitting and re-casing of ids, a guard that
// accepts only fresh names, and the skills a trajectory mentions in the free text its relabel rewrites.
import type { Harness } from '../../src/harness/schema.js';
import {
  findMentions,
  harnessSymbols,
  harnessTextLocations,
  type SymbolEntry,
} from '../../src/harness/symbol-table.js';
import type { Trajectory } from '../../src/trajectory/schema.js';

/**
 * How many of `total` items a severity touches: the share `severity`, at least one when it is above zero.
 *
 * @example
 * shareCount(0.2, 3) // 1
 */
export function shareCount(severity: number, total: number): number {
  if (severity <= 0 || total === 0) return 0;
  return Math.min(total, Math.max(1, Math.round(severity * total)));
}

/**
 * Splits an identifier into lower-case words at `_`, `-`, `.`, `/`, `:`, spaces and camelCase humps.
 *
 * @example
 * splitWords('itemQa') // ['item', 'qa']
 */
export function splitWords(id: string): string[] {
  return id
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[\s_\-./:]+/u)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/** The case styles that re-case an id's words. */
export type CaseStyle = 'snake' | 'camel' | 'kebab';

/**
 * Joins words in a case style.
 *
 * @example
 * recase(['item', 'qa'], 'camel') // 'itemQa'
 */
export function recase(words: readonly string[], style: CaseStyle): string {
  if (style === 'snake') return words.join('_');
  if (style === 'kebab') return words.join('-');
  return words
    .map((word, index) => (index === 0 ? word : `${word.slice(0, 1).toUpperCase()}${word.slice(1)}`))
    .join('');
}

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

/**
 * Names of the given kind that a trajectory mentions in the free text its relabel rewrites (assistant
 * replies and real tool results, hook turns and skill-load results aside). Renaming such a name changes
 * reply text, which hooks may judge differently, so the operators leave these names alone.
 *
 * @example
 * mentionedInFreeText(trajectory, harness, ['item_qa'], 'skill') // Set { 'item_qa' } when a reply names it
 */
export function mentionedInFreeText(
  trajectory: Trajectory | undefined,
  harness: Harness,
  names: readonly string[],
  kind: 'skill' | 'tool',
): Set<string> {
  const mentioned = new Set<string>();
  if (!trajectory) return mentioned;
  const symbols: SymbolEntry[] = names.map((name) => ({ kind, name, definedAt: [] }));
  const loads = new Set<string>();
  for (const message of trajectory.messages) {
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls)
      if (call.function.name === harness.skills.loader.tool) loads.add(call.id);
  }
  for (const message of trajectory.messages) {
    const free =
      (message.role === 'assistant' && !message.hsa && message.content !== null) ||
      (message.role === 'tool' && !message.hsa && !loads.has(message.tool_call_id));
    if (!free || typeof message.content !== 'string') continue;
    for (const mention of findMentions({ path: [], text: message.content }, symbols))
      mentioned.add(mention.name);
  }
  return mentioned;
}
