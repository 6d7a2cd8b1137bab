// The contract between the pipeline and a job queue that runs the SFT stage's units elsewhere (BullMQ on
// Redis in src/adapters/queue, or in memory): a job is one unit of one run, named by the run hash, the
// coordinator's output folder and the unit index so that adding it twice adds it once (and a coordinator
// of the same configuration into another folder has jobs of its own); its result is the unit's result, as
// JSON.
import { z } from 'zod';
import type { UnitResult } from './spec.js';

/** A job's data: the run (hash and configuration, paths absolute) and the unit's index. */
export const UnitJobSchema = z.strictObject({
  version: z.literal(1),
  runHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  unit: z.number().int().min(0),
  /** The coordinator's resolved configuration; a worker parses it again and checks the run hash. */
  config: z.record(z.string(), z.unknown()),
  shard: z.strictObject({ index: z.number().int().min(0), count: z.number().int().min(1) }).optional(),
  /** The coordinator's output folder's identity (`outputFolderId`): part of the job id, not of the work. */
  folder: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
});

/** A job of the SFT stage: one unit of one run, named by the run hash and the unit index. */
export type UnitJob = z.output<typeof UnitJobSchema>;

/**
 * The id of a unit's job: the run hash's digest, the output folder's identity when given, and the unit
 * index — the same on every enqueue of that run into that folder.
 *
 * @example
 * unitJobId('sha256:ab…', 7) // 'ab…-7'
 * unitJobId('sha256:ab…', 7, '0123456789abcdef') // 'ab…-0123456789abcdef-7'
 */
export function unitJobId(runHash: string, unit: number, folder?: string): string {
  return `${runHash.replace(/^sha256:/, '')}-${folder === undefined ? '' : `${folder}-`}${unit}`;
}

/** Which coordinator's jobs a `result` or `forget` names: its output folder's identity (see `UnitJob`). */
export interface JobOwner {
  folder?: string;
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
  result(runHash: string, unit: number, options?: { signal?: AbortSignal } & JobOwner): Promise<unknown>;
  /** Removes jobs whose results the merge has written. */
  forget?(runHash: string, units: readonly number[], options?: JobOwner): Promise<void>;
  close(): Promise<void>;
}

/** What a worker does with one job (see unit-processor.ts). */
export type UnitJobProcessor = (job: UnitJob) => Promise<UnitResult>;
