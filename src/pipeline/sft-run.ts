// What every unit of a run's SFT stage shares, prepared once: the base harness and its hash, the resolved
// policy, the run hash, and the options of `runSftUnit`. The in-process loop (run-pipeline) and a queue
// worker (unit-processor) both prepare a run here, so a unit gives the same result wherever it runs.
import { createHash } from 'node:crypto';
import type { Policy } from '../augment/policy.js';
import { resolvePolicy } from '../augment/resolve-policy.js';
import { canonicalJson } from '../harness/canonical-json.js';
import { fileHash } from '../harness/file-hash.js';
import { hashHarness } from '../harness/hash.js';
import { loadHarnessFile } from '../harness/parse-harness.js';
import { hookCheckOptions, runContextOf } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { version } from '../version.js';
import type { PipelineConfig } from './config.js';
import { readInputs } from './inputs.js';
import { createMeaningFilter } from './meaning-filter.js';
import { sftThreads } from './parallel/sft-threads.js';
import {
  createSftStage,
  planSftUnits,
  runSftUnit,
  type SftOptions,
  type SftUnit,
  type UnitResult,
} from './sft.js';
import type { PipelineDependencies, Shard } from './spec.js';

export type { Shard } from './spec.js';

/** A run's SFT stage, prepared: what identifies it and what its units share. */
export interface SftRun {
  base: Harness;
  baseHash: string;
  policy: Policy;
  severity: number;
  seed: string;
  /** Everything that changes the output's bytes, hashed (see `runHashOf`). */
  runHash: string;
  /** The options of `runSftUnit`, without `skipUnits` and `signal`. */
  options: SftOptions;
}

/**
 * What identifies a run's output: everything that changes the bytes, nothing that does not (out,
 * concurrency, the augment threads).
 */
async function runHashOf(config: PipelineConfig, harnessHash: string, policy: Policy, shard?: Shard) {
  const { threads: _threads, ...augment } = config.augment;
  const { out: _out, concurrency: _concurrency, ...rest } = { ...config, augment };
  const inputHash =
    'trajectories' in config.inputs ? await fileHash(config.inputs.trajectories) : 'simulated';
  return `sha256:${createHash('sha256')
    // The policy's content, not its file name: an edited policy file makes another run.
    .update(canonicalJson({ config: rest, harnessHash, inputHash, policy, shard: shard ?? null, version }))
    .digest('hex')}`;
}

/**
 * Prepares a run's SFT stage: loads the base harness, resolves the policy and computes the run hash.
 *
 * @example
 * const run = await prepareSftRun(config, dependencies);
 */
export async function prepareSftRun(
  config: PipelineConfig,
  dependencies: PipelineDependencies,
  shard?: Shard,
): Promise<SftRun> {
  const run = runContextOf(dependencies.run, dependencies.hookChecks);
  const base = await loadHarnessFile(config.harness, hookCheckOptions(run));
  const baseHash = hashHarness(base).harness;
  const { plan, severity, policy } = await resolvePolicy(config.augment.policy, {
    registry: dependencies.registry,
    ...(config.augment.severity !== undefined ? { severity: config.augment.severity } : {}),
  });
  const seed = String(config.seed);
  const threads = await sftThreads(config, { ...dependencies, hookChecks: run.hookChecks });
  return {
    base,
    baseHash,
    policy,
    severity,
    seed,
    runHash: await runHashOf(config, baseHash, policy, shard),
    options: {
      base,
      baseHash,
      plan,
      registry: dependencies.registry,
      severity,
      variants: config.augment.variants,
      variantPool: config.augment.pool,
      includeOriginal: config.augment.includeOriginal,
      seed,
      teachers: dependencies.teachers,
      judge: dependencies.judge,
      ...(dependencies.meaningJudge
        ? { meaning: createMeaningFilter({ judge: dependencies.meaningJudge }) }
        : {}),
      keepShare: config.collapse.keepShare,
      concurrency: config.concurrency,
      ...(dependencies.regenerate ? { regenerate: dependencies.regenerate } : {}),
      ...(threads ? { threads } : {}),
      run,
    },
  };
}

/** A run's units, enumerated once (in order, on demand) and each run when asked for: a worker's view. */
export interface SftUnitRunner {
  readonly run: SftRun;
  /** Runs the unit at a 0-based index; rejects when the run has no such unit. */
  runUnit(index: number): Promise<UnitResult>;
}

/**
 * Opens a prepared run for running single units by index, as a queue worker does.
 *
 * @example
 * const runner = openSftUnitRunner(run, config, dependencies);
 * const result = await runner.runUnit(5);
 */
export function openSftUnitRunner(
  run: SftRun,
  config: PipelineConfig,
  dependencies: PipelineDependencies,
  shard?: Shard,
): SftUnitRunner {
  // The stage's state on this side (its augmentation run, pool and turns): one for every unit it runs, and
  // the run its inputs are read in.
  const stage = createSftStage(run.options);
  const units: SftUnit[] = [];
  const iterator = planSftUnits(
    readInputs(config, run.base, stage.run, shard, dependencies.scenario),
    run.options,
  );
  let exhausted = false;
  // One reader at a time: concurrent jobs wait on the same walk through the inputs.
  let reading: Promise<void> = Promise.resolve();
  const readUpTo = (index: number) => {
    reading = reading.then(async () => {
      while (!exhausted && units.length <= index) {
        const next = await iterator.next();
        if (next.done) exhausted = true;
        else units.push(next.value);
      }
    });
    return reading;
  };
  return {
    run,
    async runUnit(index) {
      await readUpTo(index);
      const unit = units[index];
      if (!unit) throw new RangeError(`the run has ${units.length} units; there is no unit ${index}`);
      return runSftUnit(unit, stage);
    },
  };
}

/**
 * The indexes of a run's units from `skip` on, without running them (what a coordinator enqueues).
 *
 * @example
 * for await (const index of sftUnitIndexes(run, config, dependencies)) console.log(index);
 */
export async function* sftUnitIndexes(
  run: SftRun,
  config: PipelineConfig,
  dependencies: PipelineDependencies,
  options: { shard?: Shard; skip?: number } = {},
): AsyncGenerator<number> {
  const skip = options.skip ?? 0;
  for await (const unit of planSftUnits(
    readInputs(
      config,
      run.base,
      runContextOf(run.options.run, run.options.hookChecks),
      options.shard,
      dependencies.scenario,
    ),
    run.options,
  ))
    if (unit.unit >= skip) yield unit.unit;
}
