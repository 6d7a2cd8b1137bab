// harness-augment/runtime: running a harness — the agent loop, episodes, tool runtimes and backends, faults,
// the Scenario interface and the simulator, rewards and judges, latency replay, the environment service. See
// docs/runtime.md, docs/scenarios.md and docs/rewards.md. Curated by hand.

export {
  type AgentRun,
  type AgentRunOptions,
  runAgent,
  runTurn,
  type StepRecord,
} from './agent-loop.js';
export type { ToolBackendFactory } from './backends/backend-factory.js';
export { moduleBackend, type ToolFunction, type ToolModule } from './backends/module.js';
export {
  type RecordedBackend,
  type RecordedStats,
  recordedBackend,
  recordedResults,
} from './backends/recorded.js';
export { routeBackends } from './backends/route.js';
export type {
  ChatCallOptions,
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionMessage,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatUsage,
} from './chat-model.js';
export { EnvError, type EnvErrorCode } from './env/env-error.js';
export { createEnvService, type EnvService, type EnvServiceOptions } from './env/service.js';
export {
  Episode,
  type EpisodeOptions,
  type HookEventRecord,
  type Observation,
  StepError,
  type ToolRecord,
  type TurnEnd,
  toChatMessages,
} from './episode.js';
export {
  type EpisodeTask,
  EpisodeTaskSchema,
  isToolError,
  type TurnTask,
  TurnTaskSchema,
  taskFromTrajectory,
  taskInVariant,
} from './episode-task.js';
export {
  type FaultKind,
  type FaultOptions,
  faultFor,
  MALFORMED_OUTPUT_MARK,
  withFaults,
} from './faults.js';
export {
  allOf,
  type Judge,
  type JudgeInput,
  type JudgeOptions,
  type JudgeVerdict,
  type MajorityJudge,
  type MajorityVerdict,
  majorityVote,
  type RulesJudgeOptions,
  rulesJudge,
} from './judge.js';
export {
  type LatencyReplayOptions,
  type LatencyReport,
  type LatencyStats,
  replayLatency,
  type TimedChatModel,
} from './latency.js';
export { renderLatencyHtml, renderLatencyMarkdown } from './latency-report.js';
export { recordedTools } from './recorded-tools.js';
export {
  type GenericScoreDetails,
  genericSkillSelectionReward,
  groundingReward,
  hookComplianceReward,
  judgeReplies,
  type ScoreGenericOptions,
  scoreGeneric,
  type ToolCallMatchDetails,
  toolCallMatchReward,
  withReplyScore,
} from './rewards/generic/index.js';
export {
  accuracyReward,
  defaultRewardWeights,
  type EpisodeScore,
  effectivenessReward,
  formatFinding,
  type RewardFinding,
  type RewardWeights,
  type ScoreEpisodeOptions,
  scoreEpisode,
  skillSelectionReward,
  splitTurns,
  toolRationalityReward,
  type UserTurn,
} from './rewards/index.js';
export { asScenarioScore, scoreTaskRewards } from './rewards/task-rewards.js';
export type {
  OracleInput,
  OracleResult,
  PlannedEpisode,
  Scenario,
  ScenarioEpisode,
  ScenarioOracle,
  ScenarioRewards,
  ScenarioRunContext,
  ScenarioScore,
  ScenarioVariant,
  ScoreInput,
  ToolBackend,
} from './scenario.js';
export { scoreScenarioEpisode } from './score-scenario.js';
export { type PlayedEpisode, type PlayOptions, playScenarioEpisode } from './sim/play.js';
export {
  assertScenarioRuns,
  type SimulatedEpisode,
  type SimulateOptions,
  simulate,
} from './sim/simulate.js';
export {
  baseCall,
  type ToolCallContext,
  type ToolCallRequest,
  type ToolErrorKind,
  type ToolOutcome,
  type ToolRuntime,
  toolError,
  toolsFromFunctions,
} from './tool-runtime.js';
export { variantTools } from './variant-tools.js';
