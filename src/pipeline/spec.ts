// The pipeline's plain types: what a run is given (its dependencies), how its SFT stage is split (shards,
// threads) and what each unit gives. The orchestration (run-pipeline, sft, sft-run, the queue) imports
// them; nothing here imports the orchestration.
import type { RegenerateFunction } from '../augment/operator.js';
import type { Registry } from '../augment/registry.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { RunContext } from '../harness/run-context.js';
import type { Judge } from '../runtime/judge.js';
import type { Scenario } from '../runtime/scenario.js';
import type { ExampleSource } from './example-sidecar.js';
import type { MeaningJudgeV1 } from './meaning-judge-spec.js';
import type { AugmentThreadSetup } from './parallel/augment-worker.js';
import type { RlExporter } from './rl.js';
import type { PipelineExporter, Teacher, TrainingExample } from './teacher.js';

/**
 * What a pipeline run is given rather than builds: the registry, teachers, judges, exporters and scenario.
 */
export interface PipelineDependencies {
  registry: Registry;
  teachers: { exact: Teacher; regenerate: Teacher };
  judge: Judge;
  /** A judge of the texts each variant changed (`judge.meaning`): a unit it refuses costs no teacher call. */
  meaningJudge?: MeaningJudgeV1;
  exporters: Record<string, PipelineExporter>;
  regenerate?: RegenerateFunction;
  /** The scenario `inputs.simulate.scenario` names, resolved by the caller (the CLI). */
  scenario?: Scenario;
  /** Writers of the RL stage's trainer files, by format (src/adapters/trainer/rl). */
  rlExporters?: Readonly<Record<string, RlExporter>>;
  /**
   * The run the pipeline belongs to (`createRunContext`; the CLI starts one with `config.hookChecks`): its
   * hook checks, its memory budget, and what its stages derive. Default: `runPipeline` starts one with
   * `hookChecks`.
   */
  run?: RunContext | undefined;
  /** The custom hook checks the harness names, when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
}

export interface UnitResult {
  unit: number;
  /** A new task started with this unit (for counting). */
  firstOfTask: boolean;
  example?: TrainingExample;
  /** The harness and request context the example's system prompt and tools were made from. */
  source?: ExampleSource;
  reject?: SftReject;
  teacher?: string;
  collapsed?: number;
  fullTrace?: boolean;
}

/** A reject line: why a task or a variant did not become an example. */
export interface SftReject {
  id: string;
  reason: string;
  stage: 'input' | 'augment' | 'teacher' | 'judge';
  details: string[];
}

export interface Shard {
  index: number;
  count: number;
}

/** The threads of a run's SFT stage: how many, and what each loads. */
export interface SftThreads {
  count: number;
  setup: AugmentThreadSetup;
}
