// A ToolRuntime that answers from a recorded trajectory: a call gets the result the gold trajectory got
// for the same tool and the same arguments (compared canonically), in order. It lets a model teacher redo a
// task from a dataset without the dataset's live backend. Under a variant, calls are mapped back to the
// base vocabulary through the relabel first.
import type { Relabel } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';
import { recordedBackend, recordedResults } from './backends/recorded.js';
import { baseCall, type ToolRuntime } from './tool-runtime.js';

/**
 * A tool runtime that answers each call with the result a trajectory recorded for the same tool and
 * arguments, in order; under a variant, calls are mapped back through the relabel first.
 *
 * @example
 * const tools = recordedTools(goldTrajectory, variantRow.relabel);
 */
export function recordedTools(trajectory: Trajectory, relabel?: Relabel): ToolRuntime {
  const backend = recordedBackend(recordedResults([trajectory]));
  return {
    call(request) {
      const { name, arguments: rawArguments } = baseCall(request.name, request.rawArguments, relabel);
      return backend.call({ name, rawArguments });
    },
  };
}
