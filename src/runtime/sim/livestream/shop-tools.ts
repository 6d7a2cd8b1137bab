// The live-stream tools as a sandboxed ToolRuntime over the fixture catalog. Under a variant harness the
// calls arrive in the variant's vocabulary; the relabel's inverse maps each back to the shop's own tool and
// argument names before it runs, exactly as it maps a model's output back for scoring.
import { invertOutput, type Relabel } from '../../../trajectory/relabel.js';
import type { AssistantMessage } from '../../../trajectory/schema.js';
import { type ToolRuntime, toolError } from '../../tool-runtime.js';
import type { Shop } from './world.js';

/**
 * @example
 * const tools = shopTools(new Shop(catalog, context), variantRow.relabel);
 */
export function shopTools(shop: Shop, relabel?: Relabel): ToolRuntime {
  return {
    call(request) {
      let name = request.name;
      let args = request.arguments;
      if (relabel && relabel.steps.length > 0) {
        const message: AssistantMessage = {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: request.id, type: 'function', function: { name, arguments: request.rawArguments } },
          ],
        };
        const base = (invertOutput(message, relabel) as AssistantMessage).tool_calls![0]!.function;
        name = base.name;
        try {
          args = JSON.parse(base.arguments) as Record<string, unknown>;
        } catch {
          return toolError('invalid_arguments', `the arguments of "${request.name}" are not valid JSON`);
        }
      }
      try {
        return { content: JSON.stringify(shop.run(name, args)) };
      } catch (error) {
        return toolError('unknown_tool', (error as Error).message);
      }
    },
  };
}
