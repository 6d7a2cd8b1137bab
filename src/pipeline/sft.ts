// The SFT stage: base tasks × variants → teacher → certificate or judge → hook-retry collapsing → training
// examples. Work units (one task under one harness) run with bounded concurrency and come out in a fixed
// order; each unit's lines depend only on the configuration, the seed and the unit, so a resumed run and a
// run with another concurrency write the same bytes.
import { augmentExample, type ExampleResult, variantPoolFor } from '../augment/augment.js';
import { type AugmentRun, augmentRunOf } from '../augment/augment-run.js';
import type { RegenerateFunction } from '../augment/operator.js';
import type { Plan } from '../augment/plan.js';
import type { Registry } from '../augment/registry.js';
import type { VariantPool } from '../augment/variant-pool.js';
import { hashHarness } from '../harness/hash.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { formatIssue } from '../harness/issues.js';
import type { RunContext } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { taskInVariant } from '../runtime/episode-task.js';
import type { Judge } from '../runtime/judge.js';
import { mapOrdered } from '../runtime/map-ordered.js';
import { collapseHookRetries, keepsFullTrace } from '../trajectory/collapse-hook-retries.js';
import type { Trajectory } from '../trajectory/schema.js';
import type { InputItem } from './inputs.js';
import type { MeaningFilter } from './meaning-filter.js';
import { type AugmentPool, createAugmentPool } from './parallel/augment-pool.js';
import type { SftReject, SftThreads, UnitResult } from './spec.js';
import type { BaseTask, Teacher, TeacherRequest, TrainingExample } from './teacher.js';

export interface SftOptions {
  base: Harness;
  baseHash: string;
  plan: Plan;
  registry: Registry;
  severity: number;
  variants: number;
  includeOriginal: boolean;
  seed: string;
  teachers: { exact: Teacher; regenerate: Teacher };
  judge: Judge;
  /**
   * Judges the texts each variant changed before its teacher runs (a pipeline's `judge.meaning`); its
   * verdicts are cached for the run, so each changed text is asked once.
   */
  meaning?: MeaningFilter;
  keepShare: number;
  concurrency: number;
  regenerate?: RegenerateFunction;
  /** Entries of the variant pool the units draw their variants from (default `defaultVariantPoolSize`; 0: none). */
  variantPool?: number;
  /** Units already done by an interrupted run: skipped without work. */
  skipUnits?: number;
  /** The run the stage belongs to (default: one of its own, with `hookChecks`). */
  run?: RunContext | undefined;
  /** The custom hook checks the harness names (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
  /**
   * Worker threads that augment the units of `runSft` (default: the main thread, in turns). Each loads
   * `setup`, which must give the plan, severity and checks of these options (`sftThreads` makes it).
   */
  threads?: SftThreads;
  signal?: AbortSignal;
}

export type { SftReject, UnitResult } from './spec.js';

/** One work unit: an input that could not become a task, or one task under one harness. */
export type SftUnit =
  | { unit: number; firstOfTask: boolean; kind: 'reject'; reject: SftReject }
  | { unit: number; firstOfTask: boolean; kind: 'variant'; task: BaseTask; variantIndex: number | 'base' };

/**
 * The units of the inputs, numbered in order: one per rejected input, one per harness of each task.
 *
 * @example
 * for await (const unit of planSftUnits(readInputs(config, harness), options)) console.log(unit.unit);
 */
export async function* planSftUnits(
  inputs: AsyncIterable<InputItem>,
  options: Pick<SftOptions, 'includeOriginal' | 'variants'>,
): AsyncGenerator<SftUnit> {
  let unit = 0;
  for await (const item of inputs) {
    if ('reject' in item) {
      const { reject } = item;
      yield {
        unit: unit++,
        firstOfTask: true,
        kind: 'reject',
        reject: {
          id: reject.id ?? `line ${reject.line}`,
          reason: reject.reason,
          stage: 'input',
          details: reject.issues.slice(0, 20).map((issue) => formatIssue(issue)),
        },
      };
      continue;
    }
    const indexes: Array<number | 'base'> = [
      ...(options.includeOriginal ? ['base' as const] : []),
      ...Array.from({ length: options.variants }, (_, index) => index),
    ];
    for (const [offset, variantIndex] of indexes.entries())
      yield { unit: unit++, firstOfTask: offset === 0, kind: 'variant', task: item.task, variantIndex };
  }
}

function exampleOf(id: string, trajectory: Trajectory, meta: Record<string, unknown>): TrainingExample {
  return { id, messages: trajectory.messages, tools: trajectory.tools ?? [], meta };
}

/** Where a unit's variant is made: worker threads, or the main thread (in turns) with the run's pool. */
type Augmenter = (trajectory: Trajectory, variantIndex: number) => Promise<ExampleResult>;

/**
 * What one SFT stage holds while it runs, made once where the stage starts (`runSft`, a queue worker's
 * runner) and passed to its units: the augmentation run, the variant pool its units draw from, and the
 * main thread's augmenter, which takes turns.
 */
export interface SftStage {
  readonly options: SftOptions;
  readonly run: AugmentRun;
  /** One pool per stage: a unit's variant depends on its seed only, never on which units ran before it. */
  readonly pool: VariantPool | undefined;
  readonly onMainThread: Augmenter;
}

/**
 * Prepares the state of one SFT stage over these options.
 *
 * @example
 * const stage = createSftStage(options);
 * const result = await runSftUnit(unit, stage);
 */
export function createSftStage(options: SftOptions): SftStage {
  const run = augmentRunOf(options.base, options);
  const augmentOptions = augmentOptionsOf(options, run);
  const pool = variantPoolFor(options.base, {
    ...augmentOptions,
    ...(options.variantPool !== undefined ? { pool: { size: options.variantPool } } : {}),
  });
  const turn = takeTurns();
  const onMainThread: Augmenter = (trajectory, variantIndex) =>
    turn(() =>
      pool
        ? pool.augment(trajectory, variantIndex)
        : augmentExample(options.base, trajectory, variantIndex, augmentOptions),
    );
  return { options, run, pool, onMainThread };
}

async function runUnit(
  unit: Extract<SftUnit, { kind: 'variant' }>,
  options: SftOptions,
  augmentVariant: Augmenter,
): Promise<UnitResult> {
  const { task, variantIndex } = unit;
  const unitId = `${task.id}/${variantIndex}`;
  const result: UnitResult = { unit: unit.unit, firstOfTask: unit.firstOfTask };
  let request: TeacherRequest = {
    base: options.base,
    task,
    unitId,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  let teacher = options.teachers.exact;
  let variantMeta: Record<string, unknown> = { variantId: 'base', variantIndex: -1, ops: [] };
  if (variantIndex !== 'base') {
    const augmented = await augmentVariant(task.trajectory, variantIndex);
    if ('reject' in augmented) {
      result.reject = {
        id: unitId,
        reason: augmented.reject.reason,
        stage: 'augment',
        details: augmented.reject.issues.slice(0, 20).map((issue) => formatIssue(issue)),
      };
      return result;
    }
    const { row } = augmented;
    if (options.meaning) {
      const check = await options.meaning.check(options.base, row);
      if (!check.keep) {
        result.reject = {
          id: unitId,
          reason: 'judge_refused',
          stage: 'judge',
          details: check.issues.slice(0, 20).map((issue) => formatIssue(issue)),
        };
        return result;
      }
    }
    const regenerates = row.provenance.ops.some((op) => options.registry.get(op.name)?.mode === 'regenerate');
    if (regenerates) teacher = options.teachers.regenerate;
    request = {
      ...request,
      variant: { id: row.variantId, harness: row.harness, relabel: row.relabel, rewritten: row.trajectory },
    };
    variantMeta = {
      variantId: row.variantId,
      variantIndex,
      ops: row.provenance.ops.map((op) => op.name),
      changed: row.provenance.changed,
    };
  }
  let generated: Awaited<ReturnType<Teacher['generate']>>;
  try {
    generated = await teacher.generate(request);
  } catch (error) {
    // A teacher that fails for good (an endpoint out of retries, an answer the runtime refuses) costs this
    // unit, not the run; an abort still stops the run.
    if (options.signal?.aborted) throw error;
    result.teacher = teacher.name;
    result.reject = {
      id: unitId,
      reason: 'teacher_error',
      stage: 'teacher',
      details: [(error as Error).message],
    };
    return result;
  }
  result.teacher = teacher.name;
  if ('skip' in generated) {
    result.reject = { id: unitId, reason: 'teacher_skipped', stage: 'teacher', details: [generated.skip] };
    return result;
  }
  const harness = request.variant?.harness ?? options.base;
  if (!teacher.exact) {
    // A model's trajectory has no certificate: the judge decides, in the variant's own vocabulary.
    const verdict = await options.judge.judge(
      {
        trajectory: generated.trajectory,
        harness,
        task: request.variant ? taskInVariant(task.task, request.variant.relabel) : task.task,
      },
      options.signal ? { signal: options.signal } : {},
    );
    if (!verdict.keep) {
      result.reject = { id: unitId, reason: 'judge', stage: 'judge', details: verdict.reasons.slice(0, 20) };
      return result;
    }
  }
  let trajectory = generated.trajectory;
  const hasRetries = trajectory.messages.some(
    (message) => 'hsa' in message && message.hsa?.event === 'hook_rejected',
  );
  const full = hasRetries && keepsFullTrace(unitId, { keepShare: options.keepShare, seed: options.seed });
  const collapsed = hasRetries && !full ? collapseHookRetries(trajectory) : undefined;
  if (collapsed) {
    trajectory = collapsed.trajectory;
    result.collapsed = collapsed.collapsed;
  }
  result.fullTrace = full;
  result.source = { harness, context: trajectory.context ?? {} };
  result.example = exampleOf(unitId, trajectory, {
    exampleId: task.id,
    ...variantMeta,
    teacher: teacher.name,
    baseHash: options.baseHash,
    harness: { id: harness.id, hash: hashHarness(harness).harness },
    retries: full ? 'kept' : (collapsed?.collapsed ?? 0) > 0 ? 'collapsed' : 'none',
  });
  return result;
}

/** Runs CPU work one piece at a time, each in its own turn of the event loop. */
type Turns = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Augmentation is CPU work on the event loop, and a unit's augmentation runs without an I/O wait: started
 * together, the units of a window would all augment before any of their requests is sent. Taking turns,
 * each unit augments in a turn of its own (after `setImmediate`, queued when the previous one is done), so
 * the loop sends the requests of the units already augmented between two augmentations. Which unit
 * augments when changes no output: a unit's variant depends on its seed only.
 */
function takeTurns(): Turns {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const turn = last.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(work);
    last = turn.catch(() => undefined);
    return turn;
  };
}
function augmentOptionsOf(options: SftOptions, run: AugmentRun) {
  return {
    plan: options.plan,
    seed: options.seed,
    severity: options.severity,
    ...(options.regenerate ? { regenerate: options.regenerate } : {}),
    run,
  };
}

/**
 * Runs the SFT stage over the inputs, one result per unit in order (units before `skipUnits` are skipped).
 *
 * @example
 * for await (const result of runSft(readInputs(config, harness), options)) write(result);
 */
export async function* runSft(
  inputs: AsyncIterable<InputItem>,
  options: SftOptions,
): AsyncGenerator<UnitResult> {
  const skip = options.skipUnits ?? 0;
  async function* pending() {
    for await (const unit of planSftUnits(inputs, options)) if (unit.unit >= skip) yield unit;
  }
  const stage = createSftStage(options);
  // The threads start with the stage (each loads the setup once) and stop with it.
  const threads: AugmentPool | undefined = options.threads
    ? createAugmentPool(options.threads.setup, options.threads.count, stage.pool)
    : undefined;
  const augmentVariant: Augmenter = threads
    ? (trajectory, variantIndex) => threads.augmentVariant(trajectory, variantIndex)
    : stage.onMainThread;
  try {
    yield* mapOrdered(pending(), options.concurrency, (unit) =>
      runSftUnitWith(unit, options, augmentVariant),
    );
  } finally {
    await threads?.close();
  }
}

function runSftUnitWith(unit: SftUnit, options: SftOptions, augmentVariant: Augmenter): Promise<UnitResult> {
  options.signal?.throwIfAborted();
  if (unit.kind === 'reject')
    return Promise.resolve({ unit: unit.unit, firstOfTask: unit.firstOfTask, reject: unit.reject });
  return runUnit(unit, options, augmentVariant);
}

/**
 * Runs one unit of a stage: the work of the in-process loop and of a queue worker alike.
 *
 * @example
 * const result = await runSftUnit(unit, createSftStage(options));
 */
export async function runSftUnit(unit: SftUnit, stage: SftStage): Promise<UnitResult> {
  return runSftUnitWith(unit, stage.options, stage.onMainThread);
}
