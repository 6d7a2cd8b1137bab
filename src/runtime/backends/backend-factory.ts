// How a scenario gets the tool backend of each episode: a factory called once per episode (fresh state per
// episode), that may say which base tools it can answer and may hold something across episodes (an MCP
// connection) that `close` releases.
import type { ScenarioEpisode, ScenarioRunContext, ToolBackend } from '../scenario.js';

/**
 * Makes the ToolBackend of one episode; the backend answers calls named in the base vocabulary.
 *
 * @example
 * const factory: ToolBackendFactory = () => functionsBackend({ get_weather: ({ city }) => ({ city, celsius: 21 }) });
 */
export interface ToolBackendFactory {
  (episode: ScenarioEpisode, context: ScenarioRunContext): ToolBackend | Promise<ToolBackend>;
  /** The base tool names this factory answers, when it knows them (a module's functions, a server's tools). */
  readonly tools?: readonly string[];
  /** Why the factory cannot serve episodes any more (a server that crashed past its restarts); undefined while it can. */
  health?(): string | undefined;
  /** Releases what the factory holds across episodes (a connection, a child process). */
  close?(): Promise<void>;
}
