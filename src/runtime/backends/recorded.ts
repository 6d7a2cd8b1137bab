// The `recorded` tool backend: answers a call with the result a log recorded for the same tool and the same
// arguments (compared as canonical JSON, in the base vocabulary). Repeated calls get the recorded results in
// order, then the last one again. A call the log never made (a miss) answers with a `tool_error` result and
// is counted, so that a replay shows how far a policy strayed from what the log can answer.
import { canonicalJson } from '../../harness/canonical-json.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { ToolBackend } from '../scenario.js';
import { type ToolOutcome, toolError } from '../tool-runtime.js';

/** What a recorded backend answered: every call, those answered from the log, and the misses. */
export interface RecordedStats {
  calls: number;
  hits: number;
  misses: number;
  /** Misses by base tool name. */
  missesByTool: Record<string, number>;
}

/** A recorded backend, with the count of what it answered. */
export interface RecordedBackend extends ToolBackend {
  call(request: { name: string; rawArguments: string }): ToolOutcome;
  stats(): RecordedStats;
}

/** Logged results of one or more trajectories, by call key, in log order. */
export type RecordedResults = ReadonlyMap<string, readonly string[]>;

/**
 * The key of a call: the tool name and its arguments as canonical JSON (the raw text when it is not JSON).
 *
 * @example
 * recordedCallKey('get_order', '{ "b": 1, "a": 2 }') === recordedCallKey('get_order', '{"a":2,"b":1}') // true
 */
export function recordedCallKey(name: string, rawArguments: string): string {
  try {
    return `${name}\u0000${canonicalJson(JSON.parse(rawArguments))}`;
  } catch {
    return `${name}\u0000${rawArguments}`;
  }
}

/**
 * The logged results of trajectories by call key, in log order. Calls of a message a hook rejected count
 * (its accepted calls ran); the feedback that answered a rejected call is no result.
 *
 * @example
 * const results = recordedResults([gold]);
 */
export function recordedResults(trajectories: Iterable<Trajectory>): Map<string, string[]> {
  const results = new Map<string, string[]>();
  for (const trajectory of trajectories) {
    const calls = new Map<string, string>();
    for (const message of trajectory.messages)
      if (message.role === 'assistant')
        for (const call of message.tool_calls ?? [])
          calls.set(call.id, recordedCallKey(call.function.name, call.function.arguments));
    for (const message of trajectory.messages) {
      if (message.role !== 'tool' || message.hsa) continue;
      const key = calls.get(message.tool_call_id);
      if (key === undefined) continue;
      const list = results.get(key);
      if (list) list.push(message.content);
      else results.set(key, [message.content]);
    }
  }
  return results;
}

/**
 * A backend answering from logged results: the episode's own log first, then (for a call its log never
 * made) the first result of the same call anywhere in `fallback`, so a policy that asks what another logged
 * conversation asked still gets a real answer. Anything else is a miss: a `tool_error` result, counted.
 *
 * @example
 * const backend = recordedBackend(recordedResults([gold]), recordedResults(allLogs));
 * backend.call({ name: 'get_order', rawArguments: '{"id":7}' }); backend.stats().misses
 */
export function recordedBackend(
  own: RecordedResults,
  fallback?: RecordedResults,
  options: { totals?: RecordedStats } = {},
): RecordedBackend {
  const served = new Map<string, number>();
  const stats: RecordedStats = { calls: 0, hits: 0, misses: 0, missesByTool: {} };
  // Counted here and, when given, into totals shared by many backends (a scenario's, across episodes).
  const counters = options.totals ? [stats, options.totals] : [stats];
  return {
    call(request) {
      for (const counter of counters) counter.calls++;
      const key = recordedCallKey(request.name, request.rawArguments);
      const recorded = own.get(key) ?? fallback?.get(key) ?? [];
      if (recorded.length === 0) {
        for (const counter of counters) {
          counter.misses++;
          counter.missesByTool[request.name] = (counter.missesByTool[request.name] ?? 0) + 1;
        }
        return toolError('tool_error', `no recorded result for ${request.name} with these arguments`);
      }
      for (const counter of counters) counter.hits++;
      const index = served.get(key) ?? 0;
      served.set(key, index + 1);
      return { content: recorded[Math.min(index, recorded.length - 1)] as string };
    },
    stats: () => ({ ...stats, missesByTool: { ...stats.missesByTool } }),
  };
}
