// The simulator, for any scenario: plans N seeded episodes, makes each ready, optionally moves it into a
// certified variant of the base harness (the gold trajectory carried over exactly), plays it with the
// scenario's oracle or a model through the runtime with seeded tool faults, and scores it (the scenario's
// rewards, or the default scorer) in the base vocabulary. Episodes are independent and seeded by id, so the
// output is the same for any concurrency and any shard count.
import { augmentExample } from '../../augment/augment.js';
import { type AugmentRun, augmentRunOf } from '../../augment/augment-run.js';
import type { Plan } from '../../augment/plan.js';
import { runnablePlan } from '../../augment/runnable-plan.js';
import type { HookCheckRegistry } from '../../harness/hook-checks.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { RunContext } from '../../harness/run-context.js';
import type { Harness } from '../../harness/schema.js';
import type { Relabel } from '../../trajectory/relabel.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { AgentRunOptions } from '../agent-loop.js';
import type { ChatModel } from '../chat-model.js';
import type { EpisodeTask } from '../episode-task.js';
import type { FaultOptions } from '../faults.js';
import { mapOrdered } from '../map-ordered.js';
import type { PlannedEpisode, Scenario, ScenarioEpisode, ScenarioScore } from '../scenario.js';
import { scoreScenarioEpisode } from '../score-scenario.js';
import { checkShard } from '../shard.js';
import { playScenarioEpisode, withGold } from './play.js';

/** What `simulate` runs: the scenario, base harness, episodes, seed, augmentation, faults and model. */
export interface SimulateOptions {
  /** The domain that plans the episodes, answers the tools and may play them (its oracle). */
  scenario: Scenario;
  /** The base harness. */
  harness: Harness;
  /** Number of episodes (default: the scenario's `defaultEpisodes`). */
  episodes?: number;
  /** Seed of the run (default: the scenario's `seed`, else `'0'`). */
  seed?: string;
  /** Episode ids are `${idPrefix}0001`, … where the scenario numbers its episodes. */
  idPrefix?: string;
  /** Play with a model through the agent loop instead of the scenario's oracle. */
  model?: { model: ChatModel; request?: AgentRunOptions['request'] };
  /**
   * Run each episode under a certified variant sampled from this plan, less the operators that change what
   * the environment enforces (`runnablePlan`: its `leftOut` names them).
   */
  augment?: { plan: Plan; severity?: number };
  /** Seeded tool faults. */
  faults?: Omit<FaultOptions, 'seed'>;
  /** Assert every hook decision of the oracle's script (fixture generation; oracle without faults only). */
  strict?: boolean;
  /** Episodes played at once (default 1 for the oracle, 8 with a model). */
  concurrency?: number;
  /** Only episodes whose 0-based position modulo `count` equals `index`. */
  shard?: { index: number; count: number };
  /** Most assistant messages per user turn (default: `stepLimitFor`, at least the gold's longest turn). */
  maxStepsPerTurn?: number;
  /**
   * The run the episodes belong to (`createRunContext`, or a CLI command's): its hook checks, and the
   * facts its variants derive. Default: one of its own, with `hookChecks`.
   */
  run?: RunContext | undefined;
  /** The custom hook checks the harness names (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
  signal?: AbortSignal;
  /**
   * Told, in plan order, of an episode that threw instead of finishing (a model endpoint that failed for
   * good): return true to record it and go on with the next episode, false to end the run with the
   * error. Without it, the first error ends the run.
   */
  onEpisodeError?: (failure: { id: string; index: number; error: unknown }) => boolean | Promise<boolean>;
}

/** One simulated episode: its trajectory, the harness it was played under, its gold labels and rewards. */
export interface SimulatedEpisode {
  id: string;
  /** The episode as played, under `harness`. */
  trajectory: Trajectory;
  /** The harness it was played under (the base, or the variant). */
  harness: Harness;
  /** Gold labels in the base vocabulary. */
  task: EpisodeTask;
  /** The variant, when the episode was augmented. */
  variant?: { id: string; relabel: Relabel; ops: string[] };
  /** Why no certified variant was found (the episode then runs under the base harness). */
  augmentSkipped?: string;
  /** The episode's scores: named rewards, their total and the findings behind them. */
  rewards: ScenarioScore;
  /** Registry tool calls that failed (faults), by kind. */
  faults: { failed: number; kinds: Record<string, number> };
  /** Where the play left the gold (a truncated turn is one). */
  deviations: string[];
  /** The step limit the episode ran under. */
  maxStepsPerTurn: number;
  /** 0-based user turns the step limit cut: the episode is truncated, not a whole replay. */
  truncatedTurns: number[];
}

/** Variant indexes tried before an episode falls back to the base harness. */
export const VARIANT_ATTEMPTS = 4;

/** Why an episode cannot be augmented exactly: a variant carries a gold trajectory over, it has none (and no oracle to play one). */
export const NO_GOLD_TO_CARRY = 'the episode has no gold trajectory to carry over to a variant';

/**
 * A certified variant of `base` for an episode's gold trajectory, tried at variant indexes 0…3, or why none
 * was found. The environment service samples its variants the same way. The variant runs the episode, so
 * it comes from `runnablePlan(plan)`: every hook the base enforces, it enforces.
 *
 * @example
 * const found = await variantFor(base, episode, { plan, severity: 1 }, seed, createAugmentRun(base));
 */
export async function variantFor(
  base: Harness,
  episode: ScenarioEpisode,
  augment: { plan: Plan; severity?: number },
  seed: string,
  run: AugmentRun,
  start = 0,
): Promise<{ harness: Harness; relabel: Relabel; id: string; ops: string[] } | { skipped: string }> {
  if (!episode.gold) return { skipped: NO_GOLD_TO_CARRY };
  let reason = 'no certified variant';
  for (let index = start; index < start + VARIANT_ATTEMPTS; index++) {
    let result: Awaited<ReturnType<typeof augmentExample>>;
    try {
      result = await augmentExample(base, episode.gold, index, {
        plan: runnablePlan(augment.plan).plan,
        seed,
        ...(augment.severity !== undefined ? { severity: augment.severity } : {}),
        run,
      });
    } catch (error) {
      // An operator that throws on this example counts as one failed attempt.
      if (!HarnessAugmentError.isInstance(error)) throw error;
      reason = error.message;
      continue;
    }
    if ('row' in result) {
      const { row } = result;
      return {
        harness: row.harness,
        relabel: row.relabel,
        id: row.variantId,
        ops: row.provenance.ops.map((op) => op.name),
      };
    }
    reason = result.reject.reason;
  }
  return { skipped: reason };
}

async function simulateOne(
  options: SimulateOptions,
  run: AugmentRun,
  seed: string,
  planned: PlannedEpisode,
): Promise<SimulatedEpisode> {
  const { scenario } = options;
  const base = options.harness;
  const context = { base, seed };
  const made = await scenario.episode(planned, context);
  // A variant carries the gold over: the scenario's own, or its oracle's play under the base harness.
  // The plays are the run's: its hook checks, and what they derive.
  const inRun = { run };
  const limit = options.maxStepsPerTurn !== undefined ? { maxStepsPerTurn: options.maxStepsPerTurn } : {};
  const episode = options.augment ? await withGold(scenario, made, context, { ...inRun, ...limit }) : made;
  const variant = options.augment ? await variantFor(base, episode, options.augment, seed, run) : undefined;
  const live =
    variant && 'harness' in variant
      ? { id: variant.id, harness: variant.harness, relabel: variant.relabel }
      : undefined;
  const played = await playScenarioEpisode({
    ...context,
    scenario,
    episode,
    ...(live ? { variant: live } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.strict ? { strict: true } : {}),
    ...inRun,
    ...limit,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const kinds: Record<string, number> = {};
  for (const record of played.toolLog) if (record.error) kinds[record.error] = (kinds[record.error] ?? 0) + 1;
  const result: SimulatedEpisode = {
    id: episode.id,
    trajectory: played.trajectory,
    harness: live?.harness ?? base,
    task: episode.task,
    rewards: scoreScenarioEpisode({
      ...context,
      scenario,
      episode,
      trajectory: played.trajectory,
      ...(live ? { variant: live } : {}),
    }),
    faults: { failed: Object.values(kinds).reduce((sum, count) => sum + count, 0), kinds },
    deviations: played.deviations,
    maxStepsPerTurn: played.maxStepsPerTurn,
    truncatedTurns: played.truncatedTurns,
  };
  if (variant && 'harness' in variant)
    result.variant = { id: variant.id, relabel: variant.relabel, ops: variant.ops };
  if (variant && 'skipped' in variant) result.augmentSkipped = variant.skipped;
  return result;
}

/**
 * Checks that a scenario can run a harness: throws a usage error listing the scenario's issues.
 *
 * @example
 * assertScenarioRuns(scenario, harness);
 */
export function assertScenarioRuns(scenario: Scenario, harness: Harness): void {
  const issues = scenario.check(harness);
  if (issues.length > 0)
    throw new HarnessAugmentError(
      `scenario "${scenario.name}" cannot run harness "${harness.id}": ${issues.map((issue) => issue.message).join('; ')}`,
      { kind: 'usage', issues },
    );
}

/**
 * Simulates a scenario's episodes in plan order.
 *
 * @example
 * for await (const episode of simulate({ scenario, harness, episodes: 50, seed: '7', faults: { rate: 0.2 } }))
 *   console.log(episode.id, episode.rewards.total);
 * // In a run of your own (its hook checks, its memory budget), shared with what else the run does:
 * const run = createRunContext({ hookChecks });
 * for await (const episode of simulate({ scenario, harness, run })) write(episode);
 */
export async function* simulate(options: SimulateOptions): AsyncGenerator<SimulatedEpisode> {
  const { scenario } = options;
  assertScenarioRuns(scenario, options.harness);
  if (!options.model && !scenario.oracle)
    throw new HarnessAugmentError(
      `scenario "${scenario.name}" has no oracle: simulate it with a model (an endpoint)`,
      { kind: 'usage' },
    );
  if (options.episodes !== undefined && (!Number.isInteger(options.episodes) || options.episodes < 1))
    throw new HarnessAugmentError(`episodes must be a positive integer, got ${options.episodes}`, {
      kind: 'usage',
    });
  if (options.strict && (options.faults || options.model))
    throw new HarnessAugmentError('strict mode replays the oracle without faults or a model', {
      kind: 'usage',
    });
  const seed = options.seed ?? scenario.seed ?? '0';
  // One run for every episode: its hook checks, and the facts its variants derive.
  const run = augmentRunOf(options.harness, options);
  const context = { base: options.harness, seed };
  const episodes = options.episodes ?? scenario.defaultEpisodes(context);
  const plan = await scenario.plan({
    ...context,
    episodes,
    ...(options.idPrefix !== undefined ? { idPrefix: options.idPrefix } : {}),
  });
  const shard = options.shard;
  checkShard(shard);
  const mine = shard ? plan.filter((_, index) => index % shard.count === shard.index) : plan;
  const concurrency = options.concurrency ?? (options.model ? 8 : 1);
  const onEpisodeError = options.onEpisodeError;
  for await (const result of mapOrdered(mine, concurrency, async (planned) => {
    options.signal?.throwIfAborted();
    if (!onEpisodeError) return simulateOne(options, run, seed, planned);
    try {
      return await simulateOne(options, run, seed, planned);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return { failed: planned, error };
    }
  })) {
    if ('failed' in result) {
      const { id, index } = result.failed;
      if (!(await onEpisodeError?.({ id, index, error: result.error }))) throw result.error;
    } else yield result;
  }
}
