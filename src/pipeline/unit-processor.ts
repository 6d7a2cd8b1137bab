// A queue worker's side of the SFT stage: a job names a run (its hash and configuration) and a unit; the
// worker prepares each run once (the configuration parsed again, its files read on this machine), refuses
// a job whose run hash its own files do not give, and runs the unit through `runSftUnit`.
import { HarnessAugmentError } from '../harness/issues.js';
import { type PipelineConfig, parsePipelineConfig } from './config.js';
import { type UnitJob, type UnitJobProcessor, UnitJobSchema, unitJobId } from './job-queue.js';
import type { PipelineDependencies } from './run-pipeline.js';
import { openSftUnitRunner, prepareSftRun, type SftUnitRunner } from './sft-run.js';

/** How `createUnitProcessor` builds a run's dependencies, and how many prepared runs it keeps. */
export interface UnitProcessorOptions {
  /** Builds the teachers, judge and scenario of a run's configuration (the CLI wires the adapters in). */
  dependencies(config: PipelineConfig): Promise<PipelineDependencies>;
  /** Runs kept prepared at once (default 4); the least recently used one is closed first. */
  runs?: number;
}

/** Runs SFT units as queue jobs (`process`), keeping prepared runs until `close`. */
export interface UnitProcessor {
  process: UnitJobProcessor;
  /** Closes every prepared run (their scenarios' backends). */
  close(): Promise<void>;
}

interface OpenRun {
  runner: Promise<SftUnitRunner>;
  /** Closes the run's scenario (its tool backends) once the run is prepared or has failed to be. */
  close(): Promise<void>;
}

function mismatch(job: UnitJob, computed: string): HarnessAugmentError {
  return new HarnessAugmentError(
    `job ${unitJobId(job.runHash, job.unit)} belongs to run ${job.runHash}, but this worker's files and version give ${computed}: the harness, input or policy files differ on this machine, or its hsa version does`,
    {
      kind: 'usage',
      issues: [
        {
          code: 'run_hash_mismatch',
          path: ['runHash'],
          message: `the job's run is ${job.runHash}; this worker computes ${computed}`,
        },
      ],
    },
  );
}

/**
 * Makes the function a worker calls for each job.
 *
 * @example
 * const processor = createUnitProcessor({ dependencies: async (config) => buildPipelineDependencies(config, { registry }) });
 * const result = await processor.process(job);
 */
export function createUnitProcessor(options: UnitProcessorOptions): UnitProcessor {
  const limit = Math.max(1, options.runs ?? 4);
  const runs = new Map<string, OpenRun>();
  const openRun = (job: UnitJob): OpenRun => {
    let dependencies: PipelineDependencies | undefined;
    const runner = (async () => {
      const config = parsePipelineConfig(job.config, `job ${unitJobId(job.runHash, job.unit)}: config`);
      dependencies = await options.dependencies(config);
      const run = await prepareSftRun(config, dependencies, job.shard);
      if (run.runHash !== job.runHash) throw mismatch(job, run.runHash);
      return openSftUnitRunner(run, config, dependencies, job.shard);
    })();
    const open: OpenRun = {
      runner,
      async close() {
        await runner.catch(() => {});
        await dependencies?.scenario?.close?.();
      },
    };
    // A run that could not be prepared is not kept: the next job of it tries again.
    runner.catch(() => {
      if (runs.get(job.runHash) === open) runs.delete(job.runHash);
      void open.close();
    });
    return open;
  };
  return {
    async process(data) {
      const parsed = UnitJobSchema.safeParse(data);
      if (!parsed.success)
        throw new HarnessAugmentError(
          `the job is not an hsa unit job: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '$'}: ${issue.message}`).join('; ')}`,
          { kind: 'usage' },
        );
      const job = parsed.data;
      let open = runs.get(job.runHash);
      if (open) runs.delete(job.runHash);
      else open = openRun(job);
      // Most recently used last; the oldest is closed when the limit is passed.
      runs.set(job.runHash, open);
      while (runs.size > limit) {
        const [oldest, evicted] = runs.entries().next().value as [string, OpenRun];
        runs.delete(oldest);
        void evicted.close();
      }
      const runner = await open.runner;
      const result = await runner.runUnit(job.unit);
      if (result.unit !== job.unit)
        throw new Error(`unit ${job.unit} ran as unit ${result.unit}: the run's inputs changed`);
      return result;
    },
    async close() {
      const open = [...runs.values()];
      runs.clear();
      await Promise.all(open.map((run) => run.close()));
    },
  };
}
