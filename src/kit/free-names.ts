// Choosing names that collide with nothing: the identifiers a harness defines, and a checker that accepts
// a new identifier only when no harness string, trajectory text or earlier pick holds it.
import type { Harness } from '../harness/schema.js';
import { harnessSymbols, harnessTextLocations } from '../harness/symbol-table.js';
import { wordOccurrence } from '../harness/text-index.js';
import type { Trajectory } from '../trajectory/schema.js';

/**
 * Tool names and parameter keys this library may produce: OpenAI function-name characters.
 *
 * @example
 * namePattern.test('get_order_status'); // true
 */
export const namePattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Every identifier a harness defines, of every kind, the skill loader and its argument included.
 *
 * @example
 * const taken = takenNames(harness);
 * const fresh = candidates.find((name) => !taken.has(name));
 */
export function takenNames(harness: Harness): Set<string> {
  const names = new Set(harnessSymbols(harness).map((symbol) => symbol.name));
  names.add(harness.skills.loader.argument);
  return names;
}

/**
 * A predicate saying whether a new identifier is free: not defined by the harness (in any letter case), not
 * written as a word in any of its strings, nor in the trajectory's text or arguments, and not handed out
 * before. A name it accepts is reserved: the next call with the same name says no.
 *
 * @example
 * const isFree = nameChecker(harness, trajectory); isFree('lookup_weather') // true
 */
export function nameChecker(harness: Harness, trajectory?: Trajectory): (name: string) => boolean {
  const taken = takenNames(harness);
  const texts = harnessTextLocations(harness).map((location) => location.text);
  if (trajectory) {
    for (const message of trajectory.messages) {
      if (message.content) texts.push(message.content);
      if (message.role === 'assistant')
        for (const call of message.tool_calls ?? []) texts.push(call.function.name, call.function.arguments);
    }
  }
  const given = new Set<string>();
  const takenLower = new Set([...taken].map((name) => name.toLowerCase()));
  const occurs = wordOccurrence(texts);
  return (name: string) => {
    if (!namePattern.test(name) || taken.has(name) || given.has(name)) return false;
    if (takenLower.has(name.toLowerCase())) return false;
    if (occurs(name)) return false;
    given.add(name);
    return true;
  };
}
