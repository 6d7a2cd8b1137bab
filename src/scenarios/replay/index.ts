// The log-replay scenario's public surface, for the CLI, examples and tests.
export type { ToolBackendFactory } from '../../runtime/backends/backend-factory.js';
export { moduleBackend, type ToolFunction, type ToolModule } from '../../runtime/backends/module.js';
export {
  type RecordedBackend,
  type RecordedStats,
  recordedBackend,
  recordedResults,
} from '../../runtime/backends/recorded.js';
export {
  type BackendChoice,
  BackendChoiceSchema,
  type BackendsFile,
  BackendsFileSchema,
  type BuildBackendsOptions,
  buildBackends,
  type McpConnection,
  McpServerEntrySchema,
  type McpServerSpec,
  parsePlayer,
  readBackendsFile,
  readReplayTrajectories,
} from './backends-file.js';
export { type ReplayPlayer, replayOracle, replayPlayers } from './replay-oracle.js';
export {
  createReplayScenario,
  type ReplayPlannedEpisode,
  type ReplayScenario,
  type ReplayScenarioOptions,
  type ToolBackendChoice,
} from './replay-scenario.js';
export { ScriptedModel, scriptedTurns, userMessages } from './scripted-model.js';
