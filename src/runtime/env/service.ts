// The RL environment as a service, without the network: Gym-like `reset`/`step` over a scenario's episodes
// (under the base harness, a sampled variant or a client's own variant, with seeded tool faults), OpenRLHF's
// `get_reward`, and `health`. Each episode is the runtime's Episode, driven one assistant message at a time;
// the user's next message is sent when a turn ends, and the scenario's rewards are computed in the base
// vocabulary against the episode's gold labels when the last turn ends: the same numbers `hsa sim run`
// computes for the same episode played in process. The only state shared between episodes is the store.
import { augmentRunOf } from '../../augment/augment-run.js';
import type { PolicyInput } from '../../augment/policy.js';
import { presets } from '../../augment/presets.js';
import type { Registry } from '../../augment/registry.js';
import { hashHarness } from '../../harness/hash.js';
import type { HookCheckRegistry } from '../../harness/hook-checks.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { RunContext } from '../../harness/run-context.js';
import type { Harness } from '../../harness/schema.js';
import type { Relabel } from '../../trajectory/relabel.js';
import type { Message } from '../../trajectory/schema.js';
import { version } from '../../version.js';
import { Episode, type HookEventRecord, StepError, toChatMessages } from '../episode.js';
import { withFaults } from '../faults.js';
import type { PlannedEpisode, Scenario, ScenarioEpisode, ScenarioScore, ToolBackend } from '../scenario.js';
import { scoreScenarioEpisode } from '../score-scenario.js';
import { withGold } from '../sim/play.js';
import { assertScenarioRuns } from '../sim/simulate.js';
import { stepLimitFor } from '../step-limit.js';
import type { ToolRuntime } from '../tool-runtime.js';
import { variantTools } from '../variant-tools.js';
import { EnvError } from './env-error.js';
import { EpisodeStore, type StoreEntry } from './episode-store.js';
import { type ChosenHarness, chooseHarness, createPlanCache } from './harness-choice.js';
import {
  type ChatMessage,
  type EnvRewards,
  GetRewardRequestSchema,
  type GetRewardResponse,
  type HealthResponse,
  parseRequest,
  ResetRequestSchema,
  type ResetResponse,
  type StepResponse,
} from './schemas.js';

/** What `createEnvService` serves: the scenario, the base harness, and the defaults of its resets. */
export interface EnvServiceOptions {
  /** The domain whose episodes the service plays (plans, tools, rewards). */
  scenario: Scenario;
  /** The base harness. */
  harness: Harness;
  /** Seed of resets that give none (default: the scenario's seed, else `'0'`). */
  seed?: string;
  /** Tool faults of resets that say nothing about faults (default: none). */
  faults?: { rate: number };
  /** Most episodes held at once, running and finished (default 1024). */
  maxEpisodes?: number;
  /** An episode untouched for this long is dropped (default 10 minutes). */
  idleMs?: number;
  /** Clock in milliseconds for idle expiry (default `Date.now`). */
  now?: () => number;
  /** Named augmentation policies a reset may ask for (default: the built-in presets). */
  policies?: Readonly<Record<string, PolicyInput>>;
  /** Operators the policies refer to (default: the built-in operators). */
  registry?: Registry;
  /** Tag in episode ids (`ep-<instance>-<n>`), so that a restarted server does not answer for old ids. */
  instance?: string;
  /**
   * Most assistant messages in one user turn (default, as in the simulator: `stepLimitFor`, at least the
   * episode's longest gold turn). A cut turn ends `step_limit`, its step says `truncated`.
   */
  maxStepsPerTurn?: number;
  /**
   * The run the service serves in (`createRunContext`, or a CLI command's): its hook checks, and the facts
   * of the variants it samples. Default: one of its own, with `hookChecks`, for the service's life.
   */
  run?: RunContext | undefined;
  /** The custom hook checks the harness names (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
}

/** The environment protocol, in process. */
export interface EnvService {
  /** Starts an episode and sends its first user message. */
  reset(request?: unknown): Promise<ResetResponse>;
  /** Takes one assistant message in an episode. */
  step(episodeId: string, message: unknown): Promise<StepResponse>;
  /** Rewards of episodes by id, in OpenRLHF's remote reward model shape. */
  getReward(request: unknown): GetRewardResponse;
  health(): HealthResponse;
  /** Closes every episode (tools still running are aborted). */
  close(): void;
}

interface LiveEpisode extends StoreEntry {
  episode: Episode;
  planned: PlannedEpisode;
  made: ScenarioEpisode;
  /** The seed the episode was planned with. */
  seed: string;
  /** Maps base names to the episode's harness names; absent under the base harness. */
  relabel?: Relabel;
  /** Index of the next user message to send. */
  nextUser: number;
  score?: ScenarioScore;
}

/** Plans kept per seed; a plan is cheap to rebuild, this only saves the work for busy seeds. */
const cachedPlans = 64;

const rewardsOf = (score: ScenarioScore): EnvRewards => ({ ...score.rewards });

function faultRate(rate: unknown, where: string): number {
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
    throw new HarnessAugmentError(
      `${where}: the fault rate must be a number in [0, 1], got ${String(rate)}`,
      {
        kind: 'usage',
      },
    );
  return rate;
}

/**
 * Creates the environment service over a scenario and a base harness.
 *
 * @example
 * const env = createEnvService({ scenario, harness: await loadHarnessFile('harness.yaml') });
 * const { episode_id, observation } = await env.reset({ seed: 7, index: 3, harness: { augment: 'hat' } });
 * const result = await env.step(episode_id, await model.chat(observation.messages, observation.tools));
 * // In a run of your own (its hook checks, its memory budget):
 * const served = createEnvService({ scenario, harness, run: createRunContext({ hookChecks }) });
 */
export function createEnvService(options: EnvServiceOptions): EnvService {
  const { scenario } = options;
  const base = options.harness;
  assertScenarioRuns(scenario, base);
  const defaultSeed = options.seed ?? scenario.seed ?? '0';
  const defaultFaults = options.faults ? { rate: faultRate(options.faults.rate, 'faults') } : undefined;
  const store = new EpisodeStore<LiveEpisode>({
    ...(options.maxEpisodes !== undefined ? { maxEpisodes: options.maxEpisodes } : {}),
    ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    ...(options.now ? { now: options.now } : {}),
    idPrefix: options.instance ? `ep-${options.instance}-` : 'ep-',
  });
  const plans = createPlanCache(options.policies ?? presets, options.registry);
  // One run for the service's life: its hook checks, and the facts of the variants it samples.
  const run = augmentRunOf(base, options);
  const askedLimit =
    options.maxStepsPerTurn !== undefined ? { maxStepsPerTurn: options.maxStepsPerTurn } : {};
  if (options.maxStepsPerTurn !== undefined) stepLimitFor(options.maxStepsPerTurn);
  const planBySeed = new Map<string, Promise<readonly PlannedEpisode[]>>();

  /** The episodes one seed plans: the scenario's default count, ids `env-…` where it numbers them. */
  function planFor(seed: string): Promise<readonly PlannedEpisode[]> {
    let plan = planBySeed.get(seed);
    if (plan) {
      // Most recently used last: the first key is the one to drop.
      planBySeed.delete(seed);
    } else {
      const context = { base, seed };
      plan = Promise.resolve(
        scenario.plan({ ...context, episodes: scenario.defaultEpisodes(context), idPrefix: 'env-' }),
      );
      plan.catch(() => planBySeed.delete(seed));
      if (planBySeed.size >= cachedPlans) planBySeed.delete(planBySeed.keys().next().value as string);
    }
    planBySeed.set(seed, plan);
    return plan;
  }

  /** Sends user messages while the turn is closed and turns remain; appends what they produced. */
  async function sendUserMessages(live: LiveEpisode, messages: Message[], hookEvents: HookEventRecord[]) {
    const turns = live.made.task.turns;
    while (!live.episode.turnOpen && live.nextUser < turns.length) {
      const turn = turns[live.nextUser]!;
      live.nextUser++;
      const observation = await live.episode.user(turn.user);
      messages.push(...observation.messages);
      hookEvents.push(...observation.hookEvents);
    }
    if (!live.episode.turnOpen && live.nextUser >= turns.length) {
      live.done = true;
      live.score = score(live);
    }
  }

  /** The episode's rewards, from the trajectory in the vocabulary it was played in. */
  function score(live: LiveEpisode): ScenarioScore {
    const trajectory = {
      ...live.episode.trajectory(live.made.id),
      harness: { id: live.episode.harness.id, hash: hashHarness(live.episode.harness).harness },
    };
    return scoreScenarioEpisode({
      scenario,
      base,
      seed: live.seed,
      episode: live.made,
      trajectory,
      ...(live.relabel ? { variant: { harness: live.episode.harness, relabel: live.relabel } } : {}),
    });
  }

  function toolsFor(
    backend: ToolBackend,
    chosen: ChosenHarness,
    seed: string,
    made: ScenarioEpisode,
    rate: number | undefined,
  ) {
    const tools: ToolRuntime = variantTools(backend, chosen.relabel);
    // The same fault seed as the simulator's, so that call k fails here exactly when it fails in process.
    return rate !== undefined && rate > 0 ? withFaults(tools, { rate, seed: `${seed}:${made.id}` }) : tools;
  }

  return {
    async reset(request: unknown = {}): Promise<ResetResponse> {
      store.sweep();
      const parsed = parseRequest(ResetRequestSchema, request ?? {}, '/reset');
      const seed = String(parsed.seed ?? defaultSeed);
      const index = parsed.index ?? 0;
      const plan = await planFor(seed);
      if (index >= plan.length)
        throw new EnvError(
          400,
          'invalid_request',
          `/reset: index must be below ${plan.length} (the episodes of one seed), got ${index}`,
        );
      const faults = parsed.faults === null ? undefined : (parsed.faults ?? defaultFaults);
      const release = store.reserve();
      let backend: ToolBackend | undefined;
      try {
        const planned = plan[index]!;
        const context = { base, seed };
        const made = await scenario.episode(planned, context);
        // A sampled variant carries the gold over: the scenario's own, or its oracle's play.
        const augmented = typeof parsed.harness === 'object' && 'augment' in parsed.harness;
        const episodeForChoice = augmented
          ? await withGold(scenario, made, context, { run, ...askedLimit })
          : made;
        const chosen = await chooseHarness(parsed.harness, {
          base,
          episode: episodeForChoice,
          seed,
          plans,
          run,
        });
        if (parsed.variant_id !== undefined && parsed.variant_id !== chosen.variantId)
          throw new EnvError(
            409,
            'variant_mismatch',
            `/reset: the row expects variant "${parsed.variant_id}", this server draws ${chosen.variantId ? `"${chosen.variantId}"` : 'the base harness'} for it (different policies, operators or version)`,
          );
        backend = await scenario.backend(made, context);
        const held = backend;
        const episode = new Episode({
          harness: chosen.harness,
          context: made.context,
          tools: toolsFor(held, chosen, seed, made, faults?.rate),
          maxStepsPerTurn: stepLimitFor(options.maxStepsPerTurn, made.gold),
          run,
        });
        const live: LiveEpisode = {
          id: store.nextId(),
          lastUsed: store.now(),
          busy: false,
          done: false,
          close: () => {
            episode.close();
            void held.close?.().catch(() => {});
          },
          episode,
          planned,
          made,
          seed,
          nextUser: 0,
          ...(chosen.relabel ? { relabel: chosen.relabel } : {}),
        };
        const hookEvents: HookEventRecord[] = [];
        await sendUserMessages(live, [], hookEvents);
        store.add(live, release);
        return {
          episode_id: live.id,
          observation: {
            messages: toChatMessages(episode.messages) as ChatMessage[],
            tools: episode.tools,
          },
          done: live.done,
          reward: live.score?.total ?? 0,
          ...(live.score ? { rewards: rewardsOf(live.score) } : {}),
          info: {
            turns: made.task.turns.length,
            scenario: scenario.name,
            entry_id: made.id,
            seed,
            index,
            max_steps_per_turn: episode.maxStepsPerTurn,
            ...(made.labels ? { labels: made.labels } : {}),
            ...(chosen.variantId ? { variant_id: chosen.variantId } : {}),
            ...(chosen.augmentSkipped ? { augment_skipped: chosen.augmentSkipped } : {}),
            ...(chosen.leftOut ? { left_out: chosen.leftOut } : {}),
            ...(faults && faults.rate > 0 ? { faults: { rate: faults.rate } } : {}),
            hook_events: hookEvents,
          },
        };
      } catch (error) {
        release();
        await backend?.close?.().catch(() => {});
        throw error;
      }
    },

    async step(episodeId: string, message: unknown): Promise<StepResponse> {
      store.sweep();
      if (typeof episodeId !== 'string' || episodeId === '')
        throw new EnvError(400, 'invalid_request', '/step: episode_id must be a non-empty string');
      const live = store.get(episodeId);
      store.touch(live);
      if (live.done)
        throw new EnvError(
          409,
          'episode_done',
          `episode "${episodeId}" is done (reward ${live.score?.total ?? 0}); call /reset for a new episode`,
        );
      if (live.busy)
        throw new EnvError(
          409,
          'episode_busy',
          `episode "${episodeId}" is still taking a step; send the next one after its answer`,
        );
      live.busy = true;
      try {
        const turn = live.episode.turns - 1;
        let observation: Awaited<ReturnType<Episode['assistant']>>;
        try {
          observation = await live.episode.assistant(message as Parameters<Episode['assistant']>[0]);
        } catch (error) {
          if (error instanceof StepError)
            throw new EnvError(400, 'invalid_step', `/step: ${error.message} (the episode is unchanged)`);
          throw error;
        }
        const messages = [...observation.messages];
        const hookEvents = [...observation.hookEvents];
        if (observation.turnEnded) await sendUserMessages(live, messages, hookEvents);
        return {
          observation: { messages: toChatMessages(messages) as ChatMessage[] },
          reward: live.score?.total ?? 0,
          ...(live.score ? { rewards: rewardsOf(live.score) } : {}),
          done: live.done,
          info: {
            turn,
            ...(observation.end ? { end: observation.end } : {}),
            ...(observation.end === 'step_limit' ? { truncated: true } : {}),
            hook_events: hookEvents,
          },
        };
      } finally {
        live.busy = false;
        store.touch(live);
      }
    },

    getReward(request: unknown): GetRewardResponse {
      store.sweep();
      const parsed = parseRequest(GetRewardRequestSchema, request, '/get_reward');
      const lengths = [
        parsed.query.length,
        parsed.prompts?.length ?? parsed.query.length,
        parsed.labels.length,
      ];
      if (new Set(lengths).size !== 1)
        throw new EnvError(
          400,
          'invalid_request',
          `/get_reward: query, prompts and labels must have one entry per sample; got ${lengths.join(', ')}`,
        );
      const missing = parsed.labels.flatMap((label, index) => (store.find(label) ? [] : [{ label, index }]));
      if (missing.length > 0)
        throw new EnvError(
          404,
          'unknown_episode',
          `/get_reward: labels must be episode ids of this server; unknown or expired: ${missing
            .slice(0, 5)
            .map(({ label }) => JSON.stringify(label))
            .join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}`,
          {
            issues: missing.map(({ label, index }) => ({
              code: 'unknown_episode',
              path: ['labels', index],
              message: `no episode "${label}" on this server`,
            })),
          },
        );
      const rewards: number[] = [];
      const scores = parsed.labels.map((label) => {
        const live = store.find(label)!;
        store.touch(live);
        // A running episode is scored as it stands (its missing turns count against it).
        return { score: live.score ?? score(live), done: live.done };
      });
      // One log per reward name, in the order the scores name them, then `done`.
      const names = [...new Set(scores.flatMap(({ score: current }) => Object.keys(current.rewards)))];
      const extra: Record<string, number[]> = Object.fromEntries(
        [...names, 'done'].map((name) => [name, [] as number[]]),
      );
      for (const { score: current, done } of scores) {
        rewards.push(current.total);
        for (const name of names) extra[name]!.push(current.rewards[name] ?? 0);
        extra.done!.push(done ? 1 : 0);
      }
      return { rewards, scores: [...rewards], extra_logs: extra };
    },

    health(): HealthResponse {
      store.sweep();
      const { running, finished } = store.counts();
      const problem = scenario.health?.();
      return problem === undefined
        ? { status: 'ok', episodes: running, finished, version }
        : { status: 'unhealthy', reason: problem, episodes: running, finished, version };
    },

    close(): void {
      store.clear();
    },
  };
}
