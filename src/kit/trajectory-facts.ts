// What a trajectory calls and says: its tool calls, the free text its relabel rewrites, the argument keys
// of a tool's calls.
import { membersAt, parseRawJson } from '../trajectory/raw-json.js';
import type { Trajectory } from '../trajectory/schema.js';

/** One tool call of a trajectory. */
export interface CallFact {
  name: string;
  arguments: string;
}

/**
 * Every tool call of a trajectory, in order, rejected attempts included.
 *
 * @example
 * trajectoryCalls(trajectory).map((call) => call.name)
 */
export function trajectoryCalls(trajectory: Trajectory | undefined): CallFact[] {
  if (!trajectory) return [];
  return trajectory.messages.flatMap((message) =>
    message.role === 'assistant' && message.tool_calls
      ? message.tool_calls.map((call) => ({ name: call.function.name, arguments: call.function.arguments }))
      : [],
  );
}

/**
 * The free text of a trajectory that relabels rewrite: replies and tool results (hook turns excluded).
 *
 * @example
 * trajectoryFreeText(trajectory).join('\n')
 */
export function trajectoryFreeText(trajectory: Trajectory | undefined): string[] {
  if (!trajectory) return [];
  return trajectory.messages.flatMap((message) => {
    if (message.role === 'assistant' && message.content !== null && !message.hsa) return [message.content];
    if (message.role === 'tool' && !message.hsa) return [message.content];
    return [];
  });
}

/**
 * The keys that the arguments of a tool's calls hold at a parameter path (`[]` = array items).
 *
 * @example
 * argumentKeysAt(trajectory, 'find_flights', ['filters']) // Set { 'max_stops' }
 */
export function argumentKeysAt(
  trajectory: Trajectory | undefined,
  tool: string,
  path: readonly string[],
): Set<string> {
  const keys = new Set<string>();
  for (const call of trajectoryCalls(trajectory)) {
    if (call.name !== tool) continue;
    const root = parseRawJson(call.arguments);
    if (root) for (const member of membersAt(root, path)) keys.add(member.key);
  }
  return keys;
}

/**
 * The top-level keys of every tool's call arguments, per tool name, in one pass over the trajectory (what
 * `argumentKeysAt(trajectory, tool, [])` gives for one tool, for all of them at once).
 *
 * @example
 * rootArgumentKeys(trajectory).get('find_flights') // Set { 'origin', 'destination', 'date' }
 */
export function rootArgumentKeys(trajectory: Trajectory | undefined): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const call of trajectoryCalls(trajectory)) {
    const root = parseRawJson(call.arguments);
    if (!root) continue;
    const set = keys.get(call.name) ?? new Set<string>();
    for (const member of membersAt(root, [])) set.add(member.key);
    keys.set(call.name, set);
  }
  return keys;
}
