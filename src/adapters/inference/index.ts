// The public surface of the inference adapters (hand-curated: no `export *`).
export {
  type CompletionRequest,
  type CompletionResponse,
  createInferenceClient,
  type InferenceClient,
  type InferenceClientOptions,
  type PromptLogprobs,
  PromptLogprobsSchema,
} from './client.js';
export { type HealthWaitOptions, type HealthWaitResult, waitForHealthy } from './health.js';
export { type MeasureLatencyOptions, measureLatency } from './measure-latency.js';
export {
  diffServerMetrics,
  type Histogram,
  type HistogramSummary,
  parseServerMetrics,
  type ServerMetrics,
  type SpecDecodeMetrics,
  summarizeHistogram,
} from './metrics.js';
export {
  type ParsedServeOptions,
  type ServeCommand,
  type ServeOptions,
  ServeOptionsSchema,
  shellLine,
} from './serve-options.js';
export { buildSglangServeCommand, sglangMetricNames } from './sglang.js';
export {
  parseSpeculativeConfig,
  type SpeculativeConfig,
  SpeculativeConfigSchema,
  sglangSpeculativeArgs,
  vllmSpeculativeJson,
} from './speculative.js';
export {
  createTeacherScorer,
  type StudentSample,
  type TeacherScore,
  type TeacherScorer,
} from './teacher-scoring.js';
export { timedChatModel } from './timed-model.js';
export { type InferenceEngine, type ToolParserFamily, toolParserFor, toolParsers } from './tool-parsers.js';
export { buildVllmServeCommand, vllmMetricNames } from './vllm.js';
