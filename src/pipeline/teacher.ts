// The contracts the SFT stage calls: where base tasks come from, who produces a trajectory for a task under
// a harness (a teacher), and the training example that comes out. Implementations of Teacher live in
// src/adapters/teacher (replay, a scenario's oracle, an OpenAI-compatible endpoint).
import type { Harness } from '../harness/schema.js';
import type { EpisodeTask } from '../runtime/episode-task.js';
import type { Scenario, ScenarioEpisode } from '../runtime/scenario.js';
import type { Relabel } from '../trajectory/relabel.js';
import type { Message, OfferedTool, Trajectory } from '../trajectory/schema.js';

/** One base task: its gold trajectory under the base harness and its gold labels. */
export interface BaseTask {
  id: string;
  trajectory: Trajectory;
  task: EpisodeTask;
  /** For simulated inputs: the scenario's episode and the run's seed, so that a teacher can play it again. */
  episode?: { scenario: Scenario; episode: ScenarioEpisode; seed: string };
}

/** What a teacher is asked: a task under the base harness (`variant` undefined) or under a variant. */
export interface TeacherRequest {
  base: Harness;
  task: BaseTask;
  variant?: {
    id: string;
    harness: Harness;
    relabel: Relabel;
    /** The gold trajectory carried over by the relabel and certified. */
    rewritten: Trajectory;
  };
  /** The id of the training example this request becomes. */
  unitId: string;
  signal?: AbortSignal;
}

/** What a teacher returns for one request: a trajectory under the variant, or why it skipped. */
export type TeacherResult = { trajectory: Trajectory } | { skip: string };

/** The SFT stage's teacher contract: makes the trajectory of a task under a harness variant. */
export interface Teacher {
  readonly name: string;
  /** Whether its trajectories are exact (certified carry-overs) and need no judge. */
  readonly exact: boolean;
  generate(request: TeacherRequest): Promise<TeacherResult>;
}

/** A row of the SFT set: what trainers read (messages and tools) plus provenance. */
export interface TrainingExample {
  id: string;
  messages: Message[];
  tools: OfferedTool[];
  meta?: Record<string, unknown>;
}

/** An export format, as the trainer adapters implement it. */
export interface ExportSink {
  write(example: TrainingExample): Promise<void>;
  close(): Promise<{
    format: string;
    files: string[];
    rows: number;
    rejected: number;
    rejects?: Array<{ id: string; reason: string }>;
    /** The chat templates the rows are for (formats a chat template renders). */
    templates?: string[];
  }>;
  abort?(): Promise<void>;
}

/** The contract of a trainer exporter as the pipeline uses it: a format name and a sink it opens. */
export interface PipelineExporter {
  readonly format: string;
  open(outDir: string, options?: Record<string, unknown>): Promise<ExportSink>;
  /** Throws the usage error `open` would for these options, without writing anything. */
  checkOptions?(options?: Record<string, unknown>): void;
}
