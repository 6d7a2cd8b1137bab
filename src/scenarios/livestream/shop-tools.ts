// The live-stream tools as a sandboxed ToolBackend over the catalog: calls arrive in the shop's own (base)
// vocabulary; under a variant the runtime maps them back first (`variantTools`).
import type { ToolBackend } from '../../runtime/scenario.js';
import { toolError } from '../../runtime/tool-runtime.js';
import type { Shop } from './world.js';

/**
 * @example
 * const tools = shopTools(new Shop(catalog, context));
 */
export function shopTools(shop: Shop): ToolBackend {
  return {
    call(request) {
      try {
        return { content: JSON.stringify(shop.run(request.name, request.arguments)) };
      } catch (error) {
        return toolError('unknown_tool', (error as Error).message);
      }
    },
  };
}
