// The public API of harness-augment. Curated by hand: what is not listed here is internal.

export {
  builtinOperators,
  hookOperators,
  promptOperators,
  skillContentOperators,
  skillIdOperators,
  toolOperators,
} from '../perturbations/index.js';
export { planApplicability } from './augment/applicability.js';
export {
  type AugmentInput,
  type AugmentOptions,
  type AugmentReject,
  type AugmentRow,
  augment,
  augmentExample,
  type ExampleResult,
  type Provenance,
  variantPoolFor,
} from './augment/augment.js';
export { type Certificate, type CertifyInput, certify } from './augment/certificate.js';
export { checkContentPreservation } from './augment/content-preservation.js';
export { diffJson, formatChanges, type JsonChange } from './augment/json-diff.js';
export { type ListMeaning, type ListShape, listMeaning } from './augment/list-meaning.js';
export {
  type AppliedOperator,
  type ApplyOptions,
  applyOperator,
  type Dimension,
  defineOperator,
  dimensions,
  type Enforcement,
  type Operator,
  type OperatorContext,
  type OperatorOutput,
  type OperatorRecord,
  type OperatorSkip,
  type OperatorSpec,
  type PreservationMode,
  type RegenerateFunction,
  type RegenerateRequest,
  unchanged,
} from './augment/operator.js';
export { listKeepsOrder, orderedLists } from './augment/ordered-lists.js';
export {
  identityPlan,
  kOf,
  oneOf,
  op,
  type Plan,
  type PlannedOperator,
  pipe,
  sometimes,
} from './augment/plan.js';
export {
  compileDimensionPlans,
  compilePolicy,
  loadPolicyFile,
  type Policy,
  type PolicyInput,
  PolicySchema,
  parsePolicy,
} from './augment/policy.js';
export { presets } from './augment/presets.js';
export { createRandom, type Random } from './augment/random.js';
export { createRegistry, type Registry } from './augment/registry.js';
export { type ParameterRename, renameSymbols, type SymbolRenames } from './augment/rename-symbols.js';
export { type ResolvedPolicy, type ResolvePolicyOptions, resolvePolicy } from './augment/resolve-policy.js';
export { keepsEnforcement, type RunnablePlan, runnablePlan } from './augment/runnable-plan.js';
export { augmentBounds, checkAugmentBounds } from './augment/size-bound.js';
export {
  createVariantPool,
  type PoolProvenance,
  type VariantPool,
  type VariantPoolOptions,
} from './augment/variant-pool.js';
export { readAugmentedRows, type SidecarLine, SidecarLineSchema } from './augment/variant-sidecar.js';
export { type AnswerRowOptions, answerBenchRow } from './bench/answer-row.js';
export { type BootstrapEstimate, bootstrapGroup } from './bench/bootstrap.js';
export {
  type BenchInput,
  type BenchReject,
  type GenerateBenchOptions,
  generateBench,
  type Holdout,
} from './bench/generate.js';
export { type BenchItemRecord, parseBenchItem, readBenchItems } from './bench/items.js';
export {
  describeNextVersion,
  type NextVersionEdit,
  type NextVersionOptions,
  type NextVersionOutcome,
  nextVersionBench,
} from './bench/next-version.js';
export {
  type NextVersionScores,
  type ScoresWithNextVersion,
  scoreNextVersion,
} from './bench/next-version-scores.js';
export { renderHtmlReport, renderMarkdownReport, reportChartCount, writeReport } from './bench/report.js';
export {
  type BenchItem,
  BenchItemSchema,
  type BenchRow,
  BenchRowSchema,
  type Criterion,
  criteria,
  type Expectations,
  ExpectationsSchema,
  type ExpectedCall,
  type Prediction,
  PredictionSchema,
} from './bench/schema.js';
export {
  type Comparison,
  expectationsAsPredictions,
  type GroupScores,
  type RowResult,
  type RowScore,
  type ScoreBenchOptions,
  type ScoresDocument,
  scoreBench,
  scoreRow,
} from './bench/score.js';
export { renderDemoHtml, renderDemoMarkdown } from './demo/report.js';
// The demo: fixed-harness vs harness-augmented learners on a bundled fixture (`hsa demo`).
export {
  type DemoOptions,
  type DemoResult,
  type DemoSizes,
  defaultDemoSizes,
  runDemo,
} from './demo/run-demo.js';
export type { DemoSummary } from './demo/summary.js';
export { canonicalJson } from './harness/canonical-json.js';
export { type CheckHarnessOptions, checkHarness } from './harness/check-harness.js';
export {
  type DocumentFormat,
  type ParsedDocument,
  parseDocument,
  readDocument,
} from './harness/documents.js';
export { harnessJsonSchema } from './harness/harness-json-schema.js';
export { contentHash, type HarnessHashes, hashHarness } from './harness/hash.js';
export {
  type CustomHookCheck,
  type CustomHookCheckSpec,
  createHookCheckRegistry,
  defineHookCheck,
  type HookCheckFailure,
  type HookCheckMention,
  type HookCheckRegistry,
  noHookChecks,
} from './harness/hook-checks.js';
export {
  type DecideHooksOptions,
  decideHooks,
  decideReplyHooks,
  type HookConsequence,
  type HookFailure,
  type HookStageDecision,
  type HookTurnEnd,
} from './harness/hook-decision.js';
export { evaluateHook, type HookOutcome, type HookStep, runHooks } from './harness/hook-engine.js';
export {
  exportMcpTools,
  exportOpenAITools,
  importMcpTools,
  importOpenAITools,
  loadSkillsFolder,
  type McpTool,
  type McpToolsListResult,
  type OpenAIChatTool,
  parseSkillMarkdown,
  readSkillsFolder,
  renderSkillMarkdown,
  type SkeletonOptions,
  safeImportMcpTools,
  safeImportOpenAITools,
  safeParseSkillMarkdown,
  skeletonHarness,
  skillName,
  writeSkillsFolder,
} from './harness/importers/index.js';
export {
  formatIssue,
  formatPath,
  HarnessAugmentError,
  type Issue,
  type JsonPath,
  type SafeResult,
} from './harness/issues.js';
export { compileJsonSchema, schemaDialect, validateAgainstSchema } from './harness/json-schema-validator.js';
export { compileLinearPattern } from './harness/linear-pattern.js';
export { mentionStandsAlone } from './harness/mention-boundary.js';
export { offeredTools, skillLoaderTool, toChatCompletionTools } from './harness/offered-tools.js';
export { loadHarnessFile, parseHarness, safeParseHarness } from './harness/parse-harness.js';
export { type RequestContext, renderSystemPrompt } from './harness/render-prompt.js';
export {
  type Harness,
  type HarnessInput,
  type HarnessPartName,
  HarnessSchema,
  type HeadingStyle,
  type Hook,
  type HookAction,
  HookActionSchema,
  type HookCheck,
  HookCheckSchema,
  HookSchema,
  type HookStage,
  type ListStyle,
  type PromptSection,
  PromptSectionSchema,
  type Skill,
  type SkillLoader,
  SkillSchema,
  type Tool,
  ToolSchema,
} from './harness/schema.js';
export {
  buildSymbolTable,
  type SymbolEntry,
  type SymbolKind,
  type SymbolTable,
} from './harness/symbol-table.js';
export { checkTemplate, renderTemplate, templateHelpers } from './harness/template-engine.js';
export { stringifyYaml } from './harness/yaml-text.js';
// The embedded learner: a pointer-generator over names, trained on a TRL export (a stand-in, not an LM).
export {
  type DecisionAccuracy,
  decisionAccuracy,
  Learner,
  learnerChatModel,
  type MessageDecider,
  uniformChooser,
} from './learner/learner.js';
export {
  readTrlRows,
  type TrainingReport,
  type TrainLearnerOptions,
  trainLearner,
} from './learner/train-learner.js';
// Pipeline: configuration, the SFT stage and the runner (teachers, judges and exporters are injected).
export {
  type EndpointConfig,
  loadPipelineConfig,
  type PipelineConfig,
  type PipelineConfigInput,
  PipelineConfigSchema,
  parsePipelineConfig,
} from './pipeline/config.js';
export { readTrainingExamples } from './pipeline/example-sidecar.js';
export type { JobQueueV1, UnitJob, UnitJobProcessor } from './pipeline/job-queue.js';
export { createMemoryJobQueue, type MemoryJobQueue } from './pipeline/memory-job-queue.js';
export {
  type OpdConfig,
  OpdConfigSchema,
  type OpdPrompt,
  OpdPromptSchema,
  type OpdReject,
  type OpdSummary,
  runOpd,
} from './pipeline/opd.js';
export {
  type Constraint,
  type ConstraintFailure,
  ConstraintSchema,
  checkConstraints,
} from './pipeline/opd-constraints.js';
export {
  planRlRows,
  type RlConfig,
  RlConfigSchema,
  type RlExporter,
  type RlExportSummary,
  type RlPlan,
  type RlRewardSpec,
  type RlRow,
  rowReward,
} from './pipeline/rl.js';
export {
  type OutputFile,
  type PipelineDependencies,
  type PipelineManifest,
  type PipelineRunOptions,
  readManifest,
  runPipeline,
} from './pipeline/run-pipeline.js';
export type {
  BaseTask,
  ExportSink,
  PipelineExporter,
  Teacher,
  TeacherRequest,
  TeacherResult,
  TrainingExample,
} from './pipeline/teacher.js';
export {
  createUnitProcessor,
  type UnitProcessor,
  type UnitProcessorOptions,
} from './pipeline/unit-processor.js';
// Runtime: the agent loop, episodes, tools and faults, the simulator, rewards and judges, the RL environment.
export {
  type AgentRun,
  type AgentRunOptions,
  runAgent,
  runTurn,
  type StepRecord,
} from './runtime/agent-loop.js';
export type { ToolBackendFactory } from './runtime/backends/backend-factory.js';
export { moduleBackend, type ToolFunction, type ToolModule } from './runtime/backends/module.js';
export {
  type RecordedBackend,
  type RecordedStats,
  recordedBackend,
  recordedResults,
} from './runtime/backends/recorded.js';
export { routeBackends } from './runtime/backends/route.js';
export type {
  ChatCallOptions,
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionMessage,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatUsage,
} from './runtime/chat-model.js';
export { EnvError, type EnvErrorCode } from './runtime/env/env-error.js';
export { createEnvService, type EnvService, type EnvServiceOptions } from './runtime/env/service.js';
export {
  Episode,
  type EpisodeOptions,
  type HookEventRecord,
  type Observation,
  StepError,
  type ToolRecord,
  type TurnEnd,
  toChatMessages,
} from './runtime/episode.js';
export {
  type EpisodeTask,
  EpisodeTaskSchema,
  isToolError,
  type TurnTask,
  TurnTaskSchema,
  taskFromTrajectory,
  taskInVariant,
} from './runtime/episode-task.js';
export {
  type FaultKind,
  type FaultOptions,
  faultFor,
  MALFORMED_OUTPUT_MARK,
  withFaults,
} from './runtime/faults.js';
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
} from './runtime/judge.js';
export {
  type LatencyReplayOptions,
  type LatencyReport,
  type LatencyStats,
  replayLatency,
  type TimedChatModel,
} from './runtime/latency.js';
export { renderLatencyHtml, renderLatencyMarkdown } from './runtime/latency-report.js';
export { recordedTools } from './runtime/recorded-tools.js';
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
} from './runtime/rewards/generic/index.js';
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
} from './runtime/rewards/index.js';
export { asScenarioScore, scoreTaskRewards } from './runtime/rewards/task-rewards.js';
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
} from './runtime/scenario.js';
export { scoreScenarioEpisode } from './runtime/score-scenario.js';
export { type PlayedEpisode, type PlayOptions, playScenarioEpisode } from './runtime/sim/play.js';
export {
  assertScenarioRuns,
  type SimulatedEpisode,
  type SimulateOptions,
  simulate,
} from './runtime/sim/simulate.js';
export {
  baseCall,
  type ToolCallContext,
  type ToolCallRequest,
  type ToolErrorKind,
  type ToolOutcome,
  type ToolRuntime,
  toolError,
  toolsFromFunctions,
} from './runtime/tool-runtime.js';
export { variantTools } from './runtime/variant-tools.js';
export {
  type CollapseResult,
  type CollapseSampleOptions,
  collapseHookRetries,
  collapseHookRetriesSample,
  keepsFullTrace,
  type SampledCollapseResult,
} from './trajectory/collapse-hook-retries.js';
export {
  type ImportLogOptions,
  type ImportLogResult,
  type ImportRepairs,
  importLogLine,
  importLogRecord,
  type LogAliases,
  LogAliasesSchema,
  type LogReject,
} from './trajectory/import-logs.js';
export { type JsonlRecord, parseJsonlLine, readJsonl } from './trajectory/read-jsonl.js';
export {
  type ArgumentRename,
  forwardTrajectory,
  inverseTrajectory,
  invertOutput,
  type LoaderNames,
  type Relabel,
  type RelabelStep,
  relabelMessages,
} from './trajectory/relabel.js';
export {
  type AssistantMessage,
  type HookEvent,
  HookEventSchema,
  type Message,
  MessageSchema,
  type OfferedTool,
  type ToolCall,
  type ToolMessage,
  type Trajectory,
  TrajectorySchema,
} from './trajectory/schema.js';
export {
  type TrajectoriesFileReport,
  validateTrajectoriesFile,
} from './trajectory/validate-trajectories-file.js';
export {
  type HookDecision,
  type Rederived,
  rederiveTrajectory,
  type TrajectoryStats,
  type TrajectoryValidation,
  type ValidateTrajectoryOptions,
  validateTrajectory,
} from './trajectory/validate-trajectory.js';
export { version } from './version.js';
