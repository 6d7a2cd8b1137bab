// The coordinator's side of a queued SFT stage: add a job for each unit still to do (ids from the run hash,
// the output folder and the unit index, so adding again after a crash adds nothing, and a coordinator of
// the same configuration into another folder neither takes nor removes these jobs), then take the results back in unit
// order, each checked to be the unit asked for, for the pipeline to write as if it had run them itself;
// a merged unit's job is removed from the queue.
import { z } from 'zod';
import { HarnessAugmentError } from '../harness/issues.js';
import type { PipelineConfig } from './config.js';
import { type JobQueueV1, type UnitJob, unitJobId } from './job-queue.js';
import type { Shard, UnitResult } from './spec.js';

export interface QueuedSftOptions {
  runHash: string;
  config: PipelineConfig;
  shard?: Shard;
  /** The output folder's identity (`outputFolderId`), part of every job id. */
  folder?: string;
  /** The indexes of the units still to do, in order. */
  units: AsyncIterable<number>;
  signal?: AbortSignal;
  /** Jobs added per call (default 500). */
  batch?: number;
  /** Called once every job has been added, with their count. */
  onEnqueued?: (jobs: number) => void;
}

const ResultShape = z.looseObject({ unit: z.number().int(), firstOfTask: z.boolean() });

/**
 * Runs the SFT stage's units on a job queue and yields their results in unit order.
 *
 * @example
 * for await (const result of runSftOnQueue(queue, { runHash, config, units })) write(result);
 */
export async function* runSftOnQueue(
  queue: JobQueueV1,
  options: QueuedSftOptions,
): AsyncGenerator<UnitResult> {
  const batch = Math.max(1, options.batch ?? 500);
  const indexes: number[] = [];
  let pending: UnitJob[] = [];
  const job = (unit: number): UnitJob => ({
    version: 1,
    runHash: options.runHash,
    unit,
    config: options.config as unknown as Record<string, unknown>,
    ...(options.shard ? { shard: options.shard } : {}),
    ...(options.folder !== undefined ? { folder: options.folder } : {}),
  });
  const owner = options.folder !== undefined ? { folder: options.folder } : {};
  const jobId = (unit: number) => unitJobId(options.runHash, unit, options.folder);
  for await (const unit of options.units) {
    indexes.push(unit);
    pending.push(job(unit));
    if (pending.length >= batch) {
      await queue.add(pending);
      pending = [];
    }
  }
  if (pending.length > 0) await queue.add(pending);
  options.onEnqueued?.(indexes.length);
  for (const unit of indexes) {
    options.signal?.throwIfAborted();
    let value: unknown;
    try {
      value = await queue.result(options.runHash, unit, {
        ...owner,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new HarnessAugmentError(
        `unit ${unit} (job ${jobId(unit)}) failed on the queue: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const shape = ResultShape.safeParse(value);
    if (!shape.success || shape.data.unit !== unit)
      throw new HarnessAugmentError(`job ${jobId(unit)} came back without the result of unit ${unit}`);
    yield value as UnitResult;
    // The unit is written (and checkpointed) once the caller asks for the next one: its job can go, so
    // that Redis holds only the results not merged yet.
    await queue.forget?.(options.runHash, [unit], owner);
  }
}
