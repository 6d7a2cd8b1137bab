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
  const { taken, takenLower, texts: harnessTexts, occurs: inHarness } = harnessNames(harness);
  const texts: string[] = [];
  if (trajectory) {
    for (const message of trajectory.messages) {
      if (message.content) texts.push(message.content);
      if (message.role === 'assistant')
        for (const call of message.tool_calls ?? []) texts.push(call.function.name, call.function.arguments);
    }
  }
  const given = new Set<string>();
  // The words of the harness's texts and the trajectory's, in one index; without a trajectory, the harness's
  // own index, built once per harness object.
  const occurs = texts.length > 0 ? wordOccurrence([...harnessTexts, ...texts]) : inHarness;
  return (name: string) => {
    if (!namePattern.test(name) || taken.has(name) || given.has(name)) return false;
    if (takenLower.has(name.toLowerCase())) return false;
    if (occurs(name)) return false;
    given.add(name);
    return true;
  };
}

/** What `nameChecker` reads of a harness: its names, in any letter case, and the words of its texts. */
interface HarnessNames {
  taken: ReadonlySet<string>;
  takenLower: ReadonlySet<string>;
  texts: readonly string[];
  occurs: (word: string) => boolean;
}

function harnessNames(harness: Harness): HarnessNames {
  let known = namesOf.get(harness);
  if (!known) {
    const taken = takenNames(harness);
    const texts = harnessTextLocations(harness).map((location) => location.text);
    known = {
      taken,
      takenLower: new Set([...taken].map((name) => name.toLowerCase())),
      texts,
      occurs: wordOccurrence(texts),
    };
    namesOf.set(harness, known);
  }
  return known;
}
// Pure function of content across runs: a harness object's names and text words (harnesses are immutable).
const namesOf = new WeakMap<Harness, HarnessNames>();
