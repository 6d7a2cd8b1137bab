// harness-augment/adapters: the implementations behind the runtime's and the pipeline's interfaces — the
// OpenAI-compatible client, teachers, the model judge, trainer exporters, the environment's HTTP server
// and the pipeline's dependency builder. They touch the network and the file system; the core never does.

export type {
  MeaningJudgeCallOptions,
  MeaningJudgeV1,
  MeaningPair,
  MeaningVerdict,
} from '../pipeline/meaning-judge-spec.js';
export { type EnvServer, type EnvServerOptions, envRoutes, startEnvServer } from './env-http/server.js';
export {
  buildSglangServeCommand,
  buildVllmServeCommand,
  createInferenceClient,
  createTeacherScorer,
  diffServerMetrics,
  type InferenceClient,
  type InferenceEngine,
  measureLatency,
  parseServerMetrics,
  parseSpeculativeConfig,
  type ServeCommand,
  type ServeOptions,
  type ServerMetrics,
  type SpeculativeConfig,
  shellLine,
  summarizeHistogram,
  type TeacherScore,
  type TeacherScorer,
  timedChatModel,
  toolParserFor,
  toolParsers,
  waitForHealthy,
} from './inference/index.js';
export {
  createMeaningJudge,
  defaultMeaningInstructions,
  type MeaningJudgeOptions,
  meaningJudgeFromConfig,
  parseMeaningVerdict,
} from './judge/meaning-judge.js';
export { type ModelJudgeOptions, modelJudge, parseVerdict } from './judge/model-judge.js';
export {
  createMcpBackend,
  type McpBackendFactory,
  type McpBackendOptions,
  type McpServerOptions,
  toToolOutcome,
} from './mcp/index.js';
export * from './openai/index.js';
export {
  type BuiltDependencies,
  buildPipelineDependencies,
  type DependencyOptions,
} from './pipeline-dependencies.js';
export {
  type BullJobQueueOptions,
  type BullUnitWorker,
  type BullUnitWorkerOptions,
  createBullJobQueue,
  defaultQueueName,
  startBullUnitWorker,
} from './queue/index.js';
export * from './teacher/index.js';
export * from './trainer/index.js';
export { openRlhfRlExporter, rlExporters, trlRlExporter, verlRlExporter } from './trainer/rl/index.js';
