// The `module` tool backend: plain functions, one per base tool name, as a JS/TS module exports them. A
// module may instead export `createTools(episode)`, called once per episode, for tools with state that
// must not leak from one episode into the next. Loading the module is file I/O and happens in the CLI.
import type { ScenarioEpisode, ScenarioRunContext } from '../scenario.js';
import { type ToolCallContext, toolsFromFunctions } from '../tool-runtime.js';
import type { ToolBackendFactory } from './backend-factory.js';

/** A tool as a function of its base arguments; it returns any JSON value (sent as its JSON text). */
export type ToolFunction = (args: Record<string, unknown>, context: ToolCallContext) => unknown;

/** What a tools module provides: its functions, or a maker of fresh functions per episode. */
export type ToolModule =
  | Readonly<Record<string, ToolFunction>>
  | {
      createTools(
        episode: ScenarioEpisode,
        context: ScenarioRunContext,
      ): Readonly<Record<string, ToolFunction>> | Promise<Readonly<Record<string, ToolFunction>>>;
      /** The tool names `createTools` returns, so that a harness can be checked before any episode. */
      tools?: readonly string[];
    };

const hasMaker = (module: ToolModule): module is Extract<ToolModule, { createTools: unknown }> =>
  typeof (module as { createTools?: unknown }).createTools === 'function';

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
    const factory = async (episode: ScenarioEpisode, context: ScenarioRunContext) =>
      toolsFromFunctions({ ...(await module.createTools(episode, context)) });
    return module.tools ? Object.assign(factory, { tools: [...module.tools].sort() }) : factory;
  }
  const functions: Record<string, ToolFunction> = {};
  for (const name of Object.keys(module).sort()) {
    const value = (module as Record<string, unknown>)[name];
    if (typeof value === 'function') functions[name] = value as ToolFunction;
  }
  const runtime = toolsFromFunctions(functions);
  return Object.assign(() => runtime, { tools: Object.keys(functions) });
}
