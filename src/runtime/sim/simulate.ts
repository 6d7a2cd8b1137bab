// The simulator: plans N live-stream episodes from a seed, optionally moves each into an augmented harness
// variant, plays it with the scripted oracle or a model through the runtime, injects tool faults, and scores
// it with the four rewards against the episode's gold labels. Episodes are independent and seeded by id, so
// the output is the same for any concurrency and any shard count.

import { augmentExample } from '../../augment/augment.js';
import type { Plan } from '../../augment/plan.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { Harness } from '../../harness/schema.js';
import type { Relabel } from '../../trajectory/relabel.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { AgentRunOptions } from '../agent-loop.js';
import type { ChatModel } from '../chat-model.js';
import type { EpisodeTask } from '../episode-task.js';
import type { FaultOptions } from '../faults.js';
import { mapOrdered } from '../map-ordered.js';
import { type EpisodeScore, scoreVariantEpisode } from '../rewards/index.js';
import { checkShard } from '../shard.js';
import { FIXTURE_EPISODES, FIXTURE_SEED, type PlanEntry, planEpisodes } from './livestream/plan.js';
import {
  assertLivestreamHarness,
  type EpisodeResult,
  runModelEpisode,
  runOracleEpisode,
} from './livestream/run-episode.js';

export interface SimulateOptions {
  /** The base harness (the live-stream harness, or one with the same tools). */
  harness: Harness;
  /** Number of episodes (default: the fixture's 396). */
  episodes?: number;
  /** Seed of the run (default: the fixture's seed, so that the defaults regenerate the fixture). */
  seed?: string;
  /** Episode ids are `${idPrefix}0001`, … (default `ls-`). */
  idPrefix?: string;
  /** Play with a model through the agent loop instead of the scripted oracle. */
  model?: { model: ChatModel; request?: AgentRunOptions['request'] };
  /** Run each episode under a certified variant sampled from this plan. */
  augment?: { plan: Plan; severity?: number };
  /** Seeded tool faults. */
  faults?: Omit<FaultOptions, 'seed'>;
  /** Assert every hook decision of the oracle's script (fixture generation; oracle without faults only). */
  strict?: boolean;
  /** Episodes played at once (default 1 for the oracle, 8 with a model). */
  concurrency?: number;
  /** Only episodes whose 0-based position modulo `count` equals `index`. */
  shard?: { index: number; count: number };
  maxStepsPerTurn?: number;
  signal?: AbortSignal;
}

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
  rewards: EpisodeScore;
  /** Registry tool calls that failed (faults), and how many of them the episode recovered from. */
  faults: { failed: number; kinds: Record<string, number> };
  deviations: string[];
}

/** Variant indexes tried before an episode falls back to the base harness. */
const VARIANT_ATTEMPTS = 4;

async function variantFor(
  options: SimulateOptions,
  seed: string,
  gold: EpisodeResult,
): Promise<{ harness: Harness; relabel: Relabel; id: string; ops: string[] } | { skipped: string }> {
  const augment = options.augment!;
  let reason = 'no certified variant';
  for (let index = 0; index < VARIANT_ATTEMPTS; index++) {
    const result = await augmentExample(options.harness, gold.trajectory, index, {
      plan: augment.plan,
      seed,
      ...(augment.severity !== undefined ? { severity: augment.severity } : {}),
    });
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

async function playEpisode(
  options: SimulateOptions,
  seed: string,
  entry: PlanEntry,
): Promise<SimulatedEpisode> {
  const base = options.harness;
  const strict = options.strict === true;
  const gold = await runOracleEpisode({
    entry,
    seed,
    base,
    strict,
    ...(options.maxStepsPerTurn ? { maxStepsPerTurn: options.maxStepsPerTurn } : {}),
  });
  let variant: Awaited<ReturnType<typeof variantFor>> | undefined;
  if (options.augment) variant = await variantFor(options, seed, gold);
  const live =
    variant && 'harness' in variant ? { harness: variant.harness, relabel: variant.relabel } : undefined;
  const common = {
    entry,
    seed,
    base,
    ...(live ? { variant: live } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.maxStepsPerTurn ? { maxStepsPerTurn: options.maxStepsPerTurn } : {}),
  };
  let played: EpisodeResult;
  if (options.model)
    played = await runModelEpisode({
      ...common,
      gold,
      model: options.model.model,
      ...(options.model.request ? { request: options.model.request } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  else if (live || options.faults) played = await runOracleEpisode(common);
  else played = gold;
  const kinds: Record<string, number> = {};
  for (const record of played.episode.toolLog)
    if (record.error) kinds[record.error] = (kinds[record.error] ?? 0) + 1;
  const result: SimulatedEpisode = {
    id: entry.id,
    trajectory: played.trajectory,
    harness: live?.harness ?? base,
    task: gold.task,
    rewards: scoreVariantEpisode(played.trajectory, base, live, gold.task),
    faults: { failed: Object.values(kinds).reduce((sum, count) => sum + count, 0), kinds },
    deviations: played.deviations,
  };
  if (variant && 'harness' in variant)
    result.variant = { id: variant.id, relabel: variant.relabel, ops: variant.ops };
  if (variant && 'skipped' in variant) result.augmentSkipped = variant.skipped;
  return result;
}

/**
 * Simulates episodes in plan order.
 *
 * @example
 * for await (const episode of simulate({ harness, episodes: 50, seed: '7', faults: { rate: 0.2 } }))
 *   console.log(episode.id, episode.rewards.accuracy);
 */
export async function* simulate(options: SimulateOptions): AsyncGenerator<SimulatedEpisode> {
  assertLivestreamHarness(options.harness);
  const episodes = options.episodes ?? FIXTURE_EPISODES;
  if (!Number.isInteger(episodes) || episodes < 1)
    throw new HarnessAugmentError(`episodes must be a positive integer, got ${episodes}`, { kind: 'usage' });
  if (options.strict && (options.faults || options.model))
    throw new HarnessAugmentError('strict mode replays the oracle without faults or a model', {
      kind: 'usage',
    });
  const seed = options.seed ?? FIXTURE_SEED;
  const plan = planEpisodes({ episodes, seed, idPrefix: options.idPrefix ?? 'ls-' });
  const shard = options.shard;
  checkShard(shard);
  const mine = shard ? plan.filter((_, index) => index % shard.count === shard.index) : plan;
  const concurrency = options.concurrency ?? (options.model ? 8 : 1);
  yield* mapOrdered(mine, concurrency, async (entry) => {
    options.signal?.throwIfAborted();
    return playEpisode(options, seed, entry);
  });
}
