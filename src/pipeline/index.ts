// harness-augment/pipeline: the SFT → OPD → RL loop — its configuration, the runner, the unit processor, job
// queues, OPD constraints, RL rows and the specs its teachers and exporters implement (the implementations are
// in harness-augment/adapters). See docs/pipeline.md. Curated by hand.

export {
  type EndpointConfig,
  loadPipelineConfig,
  type PipelineConfig,
  type PipelineConfigInput,
  PipelineConfigSchema,
  parsePipelineConfig,
} from './config.js';
export { readTrainingExamples } from './example-sidecar.js';
export type { JobQueueV1, UnitJob, UnitJobProcessor } from './job-queue.js';
export { createMemoryJobQueue, type MemoryJobQueue } from './memory-job-queue.js';
export {
  type OpdConfig,
  OpdConfigSchema,
  type OpdPrompt,
  OpdPromptSchema,
  type OpdReject,
  type OpdSummary,
  runOpd,
} from './opd.js';
export {
  type Constraint,
  type ConstraintFailure,
  ConstraintSchema,
  checkConstraints,
} from './opd-constraints.js';
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
} from './rl.js';
export {
  type OutputFile,
  type PipelineDependencies,
  type PipelineManifest,
  type PipelineRunOptions,
  readManifest,
  runPipeline,
} from './run-pipeline.js';
export type {
  BaseTask,
  ExportSink,
  PipelineExporter,
  Teacher,
  TeacherRequest,
  TeacherResult,
  TrainingExample,
} from './teacher.js';
export {
  createUnitProcessor,
  type UnitProcessor,
  type UnitProcessorOptions,
} from './unit-processor.js';
