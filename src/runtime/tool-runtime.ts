// How the runtime executes the registry's tools. A ToolRuntime answers one call with the text the model
// will see; failures are results too (a JSON object with an `error`), because a production agent sees a
// timeout or a permission error as a tool message and must recover from it.
import type { Harness } from '../harness/schema.js';
import { invertOutput, type Relabel } from '../trajectory/relabel.js';
import type { AssistantMessage } from '../trajectory/schema.js';

/** One call as the model made it, with its arguments parsed and validated against the tool's schema. */
export interface ToolCallRequest {
  /** The tool call id the model gave. */
  id: string;
  name: string;
  /** Parsed arguments (already valid under the harness's JSON Schema for the tool). */
  arguments: Record<string, unknown>;
  /** The raw JSON text the model wrote. */
  rawArguments: string;
}

/** What a tool call knows besides its arguments: the harness, an abort signal, its index in the episode. */
export interface ToolCallContext {
  harness: Harness;
  /** Aborted when the runtime's per-call timeout passes or the episode is abandoned. */
  signal: AbortSignal;
  /** 0-based index of this call among the episode's registry tool calls (skill loads excluded). */
  callIndex: number;
}

/** What failed, when a call failed. */
export type ToolErrorKind =
  | 'timeout'
  | 'malformed_output'
  | 'permission_denied'
  | 'invalid_arguments'
  | 'unknown_tool'
  | 'unknown_skill'
  | 'tool_error';

/** The result of one call: the content the model sees, and the failure it reports, if any. */
export interface ToolOutcome {
  content: string;
  error?: ToolErrorKind;
}

/** Anything that answers the registry's tool calls of an episode. */
export interface ToolRuntime {
  call(request: ToolCallRequest, context: ToolCallContext): ToolOutcome | Promise<ToolOutcome>;
}

/**
 * The content of a failed call as the model sees it: `{"error":{"type":…,"message":…}}`.
 *
 * @example
 * toolError('permission_denied', 'this tool is not available in this room')
 */
export function toolError(kind: ToolErrorKind, message: string): ToolOutcome {
  return { content: JSON.stringify({ error: { type: kind, message } }), error: kind };
}

/**
 * A ToolRuntime from plain functions by tool name; each returns any JSON value (sent as its JSON text).
 * A function that throws produces a `tool_error` result with the error's message.
 *
 * @example
 * const tools = toolsFromFunctions({ get_weather: ({ city }) => ({ city, celsius: 21 }) });
 */
export function toolsFromFunctions(
  functions: Record<string, (args: Record<string, unknown>, context: ToolCallContext) => unknown>,
): ToolRuntime {
  return {
    async call(request, context) {
      const run = Object.hasOwn(functions, request.name) ? functions[request.name] : undefined;
      if (!run) return toolError('unknown_tool', `no tool "${request.name}" is available`);
      try {
        const value = await run(request.arguments, context);
        return { content: typeof value === 'string' ? value : JSON.stringify(value) };
      } catch (error) {
        return toolError('tool_error', error instanceof Error ? error.message : String(error));
      }
    },
  };
}

/**
 * A call made in a variant's vocabulary, mapped back to the base harness's tool name and arguments through
 * the variant's relabel, exactly as a model's output is mapped back for scoring.
 *
 * @example
 * baseCall('lookupOrder', '{"order":3}', row.relabel) // { name: 'get_order', arguments: '{"order_id":3}' }
 */
export function baseCall(
  name: string,
  rawArguments: string,
  relabel?: Relabel,
): { name: string; arguments: string } {
  if (!relabel || relabel.steps.length === 0) return { name, arguments: rawArguments };
  const message: AssistantMessage = {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call', type: 'function', function: { name, arguments: rawArguments } }],
  };
  return (invertOutput(message, relabel) as AssistantMessage).tool_calls![0]!.function;
}
