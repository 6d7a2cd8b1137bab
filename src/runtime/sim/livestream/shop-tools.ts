// The live-stream tools as a sandboxed ToolRuntime over the fixture catalog. Under a variant harness the
// calls arrive in the variant's vocabulary; the relabel's inverse maps each back to the shop's own tool and
// argument names before it runs, exactly as it maps a model's output back for scoring.
import type { Relabel } from '../../../trajectory/relabel.js';
import { baseCall, type ToolRuntime, toolError } from '../../tool-runtime.js';
import type { Shop } from './world.js';

/**
 * @example
 * const tools = shopTools(new Shop(catalog, context), variantRow.relabel);
 */
export function shopTools(shop: Shop, relabel?: Relabel): ToolRuntime {
  return {
    call(request) {
      const base = baseCall(request.name, request.rawArguments, relabel);
      let args = request.arguments;
      if (base.arguments !== request.rawArguments) {
        try {
          args = JSON.parse(base.arguments) as Record<string, unknown>;
        } catch {
          return toolError('invalid_arguments', `the arguments of "${request.name}" are not valid JSON`);
        }
      }
      try {
        return { content: JSON.stringify(shop.run(base.name, args)) };
      } catch (error) {
        return toolError('unknown_tool', (error as Error).message);
      }
    },
  };
}
