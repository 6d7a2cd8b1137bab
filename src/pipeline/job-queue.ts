// The contract between the pipeline and a job queue that runs the SFT stage's units elsewhere (BullMQ on
// Redis in src/adapters/queue, or in memory): a job is one unit of one run, named by the run hash and the
// unit index so that adding it twice adds it once; its result is the unit's result, as JSON.
import { z } from 'zod';
import type { UnitResult } from './sft.js';

/** A job's data: the run (hash and configuration, paths absolute) and the unit's index. */
export const UnitJobSchema = z.strictObject({
  version: z.literal(1),
  runHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  unit: z.number().int().min(0),
  /** The coordinator's resolved configuration; a worker parses it again and checks the run hash. */
  config: z.record(z.string(), z.unknown()),
  shard: z.strictObject({ index: z.number().int().min(0), count: z.number().int().min(1) }).optional(),
});

export type UnitJob = z.output<typeof UnitJobSchema>;

/**
 * The id of a unit's job: the run hash's digest and the unit index, the same on every enqueue.
 *
 * @example
 * unitJobId('sha256:ab…', 7) // 'ab…-7'
 */
export function unitJobId(runHash: string, unit: number): string {
  return `${runHash.replace(/^sha256:/, '')}-${unit}`;
}

/** A queue that runs units elsewhere; the pipeline adds a run's jobs and collects their results in order. */
export interface JobQueueV1 {
  readonly specificationVersion: 'v1';
  /** Where the jobs go, for the manifest-free log line (e.g. `redis://127.0.0.1:6379 hsa-sft`). */
  readonly name: string;
  /** Adds jobs; a job whose id is already in the queue (waiting, running or finished) is not added again. */
  add(jobs: readonly UnitJob[]): Promise<void>;
  /**
   * The result of a unit's job once a worker has finished it; rejects with the failure's reason once the
   * job has failed for good (out of attempts, or refused by the worker).
   */
  result(runHash: string, unit: number, options?: { signal?: AbortSignal }): Promise<unknown>;
  /** Removes jobs whose results the merge has written. */
  forget?(runHash: string, units: readonly number[]): Promise<void>;
  close(): Promise<void>;
}

/** What a worker does with one job (see unit-processor.ts). */
export type UnitJobProcessor = (job: UnitJob) => Promise<UnitResult>;
