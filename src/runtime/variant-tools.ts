// A scenario's ToolBackend as the runtime calls it under a variant: each call, made in the variant's
// vocabulary, is mapped back through the inverse relabel (tool name, parameter names, nested arguments)
// before it reaches the backend, and the result is mapped forward (mentions of tools and skills), exactly
// as a certified relabel carries a gold trajectory over. Under the base harness the backend is used as is.
import type { Relabel } from '../trajectory/relabel.js';
import { relabelMessages } from '../trajectory/relabel.js';
import type { ToolBackend } from './scenario.js';
import { baseCall, type ToolOutcome, type ToolRuntime, toolError } from './tool-runtime.js';

/** A tool result moved into the variant's vocabulary (mentions of renamed tools and skills). */
function forwardResult(content: string, relabel: Relabel): string {
  const [message] = relabelMessages(
    [{ role: 'tool', tool_call_id: 'call', content }],
    relabel,
    'forward',
    false,
  );
  return message?.role === 'tool' ? message.content : content;
}

/**
 * The tools of one episode in the played harness's vocabulary.
 *
 * @example
 * const tools = variantTools(await scenario.backend(episode, context), variant?.relabel);
 */
export function variantTools(backend: ToolBackend, relabel?: Relabel): ToolRuntime {
  if (!relabel || relabel.steps.length === 0) return backend;
  return {
    async call(request, context): Promise<ToolOutcome> {
      const base = baseCall(request.name, request.rawArguments, relabel);
      let args = request.arguments;
      if (base.arguments !== request.rawArguments) {
        try {
          args = JSON.parse(base.arguments) as Record<string, unknown>;
        } catch {
          return toolError('invalid_arguments', `the arguments of "${request.name}" are not valid JSON`);
        }
      }
      const outcome = await backend.call(
        { id: request.id, name: base.name, arguments: args, rawArguments: base.arguments },
        context,
      );
      if (typeof outcome?.content !== 'string') return outcome;
      const content = forwardResult(outcome.content, relabel);
      return content === outcome.content ? outcome : { ...outcome, content };
    },
  };
}
