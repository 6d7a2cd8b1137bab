// Routes each call to the backend chosen for its base tool name, or to the default one; closing the route
// closes every backend it made.
import type { ToolBackend } from '../scenario.js';

/**
 * One backend over several: `byTool` for the tools named there, `fallback` for the rest.
 *
 * @example
 * const backend = routeBackends(recorded, { search_docs: mcpBackend });
 */
export function routeBackends(
  fallback: ToolBackend,
  byTool: Readonly<Record<string, ToolBackend>>,
): ToolBackend {
  const all = [...new Set([fallback, ...Object.values(byTool)])];
  return {
    call(request, context) {
      const backend = Object.hasOwn(byTool, request.name) ? byTool[request.name]! : fallback;
      return backend.call(request, context);
    },
    async close() {
      await Promise.all(all.map((backend) => backend.close?.()));
    },
  };
}
