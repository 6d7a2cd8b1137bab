// The `module` tool backend: plain functions, one per base tool name, as a JS/TS module exports them. A
// module may instead export `createTools()`, called with no arguments once per episode, for tools with
// state that must not leak from one episode into the next. Loading the module is file I/O and happens in
// the CLI.
import { type ToolCallContext, toolsFromFunctions } from '../tool-runtime.js';
import type { ToolBackendFactory } from './backend-factory.js';

/** A tool as a function of its base arguments; it returns any JSON value (sent as its JSON text). */
export type ToolFunction = (args: Record<string, unknown>, context: ToolCallContext) => unknown;

type Functions = Readonly<Record<string, ToolFunction>>;

/** What a tools module provides: its functions, or a maker of fresh functions per episode. */
export type ToolModule =
  | Functions
  | {
      createTools(): Functions | Promise<Functions>;
      /** The tool names `createTools` returns; read from one call of `createTools` when not given. */
      tools?: readonly string[];
    };

const hasMaker = (module: ToolModule): module is Extract<ToolModule, { createTools: unknown }> =>
  typeof (module as { createTools?: unknown }).createTools === 'function';

/** The functions of a record, by name, in name order (other values are not tools). */
function functionsOf(record: Readonly<Record<string, unknown>>): Record<string, ToolFunction> {
  const functions: Record<string, ToolFunction> = {};
  for (const name of Object.keys(record).sort()) {
    const value = record[name];
    if (typeof value === 'function') functions[name] = value as ToolFunction;
  }
  return functions;
}

/**
 * A backend factory over a module's functions. A function that throws answers a `tool_error` result with
 * its message; a tool without a function answers `unknown_tool`.
 *
 * @example
 * const factory = moduleBackend({ get_weather: ({ city }) => ({ city, celsius: 21 }) });
 * const scenario = createReplayScenario({ trajectories, backends: { default: factory } });
 */
export function moduleBackend(module: ToolModule): ToolBackendFactory {
  if (hasMaker(module)) {
    let names = module.tools ? [...module.tools].sort() : undefined;
    const factory = async () => toolsFromFunctions(functionsOf(await module.createTools()));
    return Object.defineProperty(factory, 'tools', {
      get: () => {
        if (names === undefined) {
          const sample = module.createTools();
          // A maker that answers asynchronously cannot be read here: its tools are not checked up front.
          if (typeof (sample as Promise<unknown>).then === 'function') return undefined;
          names = Object.keys(functionsOf(sample as Functions));
        }
        return names;
      },
    }) as ToolBackendFactory;
  }
  const functions = functionsOf(module);
  const runtime = toolsFromFunctions(functions);
  return Object.assign(() => runtime, { tools: Object.keys(functions) });
}
