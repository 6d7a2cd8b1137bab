// A ToolRuntime that answers from a recorded trajectory: a call gets the result the gold trajectory got
// for the same tool and the same arguments (compared canonically), in order. It lets a model teacher redo a
// task from a dataset without the dataset's live backend. Under a variant, calls are mapped back to the
// base vocabulary through the relabel first.
import { canonicalJson } from '../harness/canonical-json.js';
import type { Relabel } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';
import { baseCall, type ToolRuntime, toolError } from './tool-runtime.js';

const key = (name: string, rawArguments: string) => {
  try {
    return `${name}\u0000${canonicalJson(JSON.parse(rawArguments))}`;
  } catch {
    return `${name}\u0000${rawArguments}`;
  }
};

/**
 * @example
 * const tools = recordedTools(goldTrajectory, variantRow.relabel);
 */
export function recordedTools(trajectory: Trajectory, relabel?: Relabel): ToolRuntime {
  const calls = new Map<string, string>();
  // Every call, also those of a message a hook rejected (its accepted calls ran); a rejected call's tool
  // message is marked and skipped below.
  for (const message of trajectory.messages)
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? [])
        calls.set(call.id, key(call.function.name, call.function.arguments));
  const results = new Map<string, string[]>();
  for (const message of trajectory.messages) {
    if (message.role !== 'tool' || message.hsa) continue;
    const at = calls.get(message.tool_call_id);
    if (at === undefined) continue;
    results.set(at, [...(results.get(at) ?? []), message.content]);
  }
  const served = new Map<string, number>();
  return {
    call(request) {
      const { name, arguments: raw } = baseCall(request.name, request.rawArguments, relabel);
      const at = key(name, raw);
      const recorded = results.get(at) ?? [];
      if (recorded.length === 0)
        return toolError('tool_error', `no recorded result for ${name} with these arguments`);
      const index = served.get(at) ?? 0;
      served.set(at, index + 1);
      // Repeated calls get the recorded results in order, then the last one again.
      return { content: recorded[Math.min(index, recorded.length - 1)]! };
    },
  };
}
