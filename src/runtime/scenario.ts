// What it takes to *run* a harness for one domain. A scenario plans seeded episodes (the request context,
// the user turns, the gold labels), answers tool calls through a ToolBackend, and may offer an oracle that
// plays an episode and scenario-specific rewards. The simulator, the environment service, the pipeline's
// inputs, the oracle teacher and scoring take a scenario as a parameter; only the CLI, examples and tests
// pick one. Everything a scenario sees and returns is in the base harness's vocabulary: under a variant,
// the runtime maps calls back through the inverse relabel before they reach the backend (`variantTools`).
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { Issue } from '../harness/issues.js';
import type { RunContext } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import type { Relabel } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';
import type { ToolRecord, TurnEnd } from './episode.js';
import type { EpisodeTask } from './episode-task.js';
import type { RewardFinding } from './rewards/reward.js';
import type { ToolCallContext, ToolCallRequest, ToolOutcome, ToolRuntime } from './tool-runtime.js';

/** A planned episode: cheap to make, stable for a (seed, index). Scenarios may carry more fields. */
export interface PlannedEpisode {
  /** Unique within a plan; becomes the trajectory id. */
  readonly id: string;
  /** 0-based position in the plan. */
  readonly index: number;
}

/** One episode made ready to play: what the user says, in what context, and what a correct agent does. */
export interface ScenarioEpisode {
  id: string;
  /** The request context that prompt templates read (room state, account, locale). */
  context: Record<string, unknown>;
  /** The user turns and the gold labels, in the base harness's vocabulary. */
  task: EpisodeTask;
  /** The gold trajectory under the base harness, where the scenario has one (a log; an oracle's play). */
  gold?: Trajectory;
  /**
   * Public facts about the episode (its kind, its language), written into the `meta` of trajectories played
   * from it and into the environment's `info.labels`.
   */
  labels?: Record<string, unknown>;
  /** Facts the scenario's own oracle, backend or rewards need; never written into trajectories. */
  meta?: Record<string, unknown>;
}

/** Answers registry tool calls named in the base vocabulary (the skill loader is the runtime's own). */
export interface ToolBackend {
  call(request: ToolCallRequest, context: ToolCallContext): ToolOutcome | Promise<ToolOutcome>;
  /** Releases what the backend holds (an MCP connection, a child process). */
  close?(): Promise<void>;
}

/** The variant an episode is played under, when it is not the base harness. */
export interface ScenarioVariant {
  id?: string;
  harness: Harness;
  /** Maps base names to the variant's. */
  relabel: Relabel;
}

/** What the scenario's hooks get besides the episode. */
export interface ScenarioRunContext {
  /** The base harness. */
  base: Harness;
  /** The run's seed; episodes draw from forks of `${seed}:${episode.id}`. */
  seed: string;
}

/** What an oracle is given to play one episode. */
export interface OracleInput extends ScenarioRunContext {
  episode: ScenarioEpisode;
  /** Play under this variant (its vocabulary); undefined: under the base harness. */
  variant?: ScenarioVariant;
  /** The tools to call, already in the played harness's vocabulary (faults applied where asked). */
  tools: ToolRuntime;
  /** Assert every hook decision of a scripted oracle (fixture generation). */
  strict?: boolean;
  /** Most assistant messages per user turn (the player resolved it: asked for, or `stepLimitFor`). */
  maxStepsPerTurn?: number;
  /**
   * The custom hook checks the harness names (default: none): the run's own when the library plays, kept
   * for an oracle written before runs. An oracle plays in `run` where it is given.
   */
  hookChecks?: HookCheckRegistry | undefined;
  /**
   * The run the play belongs to (the library always gives it; a caller of `play` may not): play its
   * episode in it, `new Episode({ ..., run: input.run, hookChecks: input.hookChecks })`.
   */
  run?: RunContext | undefined;
  signal?: AbortSignal;
}

/** What an oracle returns: the played trajectory, in the played harness's vocabulary. */
export interface OracleResult {
  trajectory: Trajectory;
  /** Where the play departed from the gold labels (a fault it could not recover from, a step limit). */
  deviations: string[];
  /** The registry tool calls as the runtime ran them (failures counted from it); optional. */
  toolLog?: readonly ToolRecord[];
  /** How each user turn ended, by turn (`step_limit`: cut); optional, read off the trajectory without it. */
  turnEnds?: readonly (TurnEnd | undefined)[];
}

/**
 * A scripted policy that plays an episode correctly; a scenario that has none can still be played by a model.
 * An oracle that reads `input.hookChecks` (written before runs) keeps working: the library passes the run's.
 *
 * @example
 * const oracle: ScenarioOracle = {
 *   async play(input) {
 *     const episode = new Episode({ harness: input.variant?.harness ?? input.base, tools: input.tools, run: input.run, hookChecks: input.hookChecks });
 *     // … play the episode's turns …
 *     return { trajectory: episode.trajectory(input.episode.id), deviations: [] };
 *   },
 * };
 */
export interface ScenarioOracle {
  play(input: OracleInput): Promise<OracleResult>;
}

/** One episode's scores: named rewards in [0, 1], their weighted total, and the evidence. */
export interface ScenarioScore {
  total: number;
  rewards: Record<string, number>;
  findings: RewardFinding[];
  /** Reward-specific details, for debugging. */
  details?: Record<string, unknown>;
}

/** What scoring is given; the trajectory is in the played harness's vocabulary. */
export interface ScoreInput extends ScenarioRunContext {
  episode: ScenarioEpisode;
  trajectory: Trajectory;
  variant?: ScenarioVariant;
}

/** A domain's own rewards; without them the generic rewards score the episode. */
export type ScenarioRewards = (input: ScoreInput) => ScenarioScore;

/**
 * A domain the runtime can play. Implement it to simulate, serve as an RL environment, feed the pipeline or
 * score episodes on your own harness; see docs/scenarios.md.
 *
 * @example
 * const scenario = createReplayScenario({ trajectories, backends: { default: 'recorded' } });
 * for await (const episode of simulate({ scenario, harness, episodes: 20 })) console.log(episode.rewards.total);
 */
export interface Scenario<Planned extends PlannedEpisode = PlannedEpisode> {
  /** Short name, e.g. `replay`, `helpdesk`; written into outputs. */
  readonly name: string;
  /** The seed of runs that give none (a fixture's own seed); default `'0'`. */
  readonly seed?: string;
  /** Issues when the harness cannot be run by this scenario (a tool the backend cannot answer, …). */
  check(harness: Harness): Issue[];
  /** Episodes a seed plans when no count is given (a log-replay scenario: the number of logged tasks). */
  defaultEpisodes(context: ScenarioRunContext): number;
  /** Plans `episodes` episodes for the seed, in a stable order: same seed, same plan, on any machine. */
  plan(
    context: ScenarioRunContext & {
      episodes?: number;
      /** Where the scenario numbers its episodes, their ids are `${idPrefix}…` (a log keeps its own ids). */
      idPrefix?: string;
    },
  ): readonly Planned[] | Promise<readonly Planned[]>;
  /** Makes one planned episode ready: context, turns, gold labels (and a gold trajectory where it has one). */
  episode(planned: Planned, context: ScenarioRunContext): Promise<ScenarioEpisode>;
  /** The tool backend of one episode (fresh state per episode, so episodes stay independent). */
  backend(episode: ScenarioEpisode, context: ScenarioRunContext): ToolBackend | Promise<ToolBackend>;
  oracle?: ScenarioOracle;
  rewards?: ScenarioRewards;
  /** Why the scenario cannot play episodes any more (a tool server that is gone); undefined while it can. */
  health?(): string | undefined;
  /** Releases what the scenario holds across episodes. */
  close?(): Promise<void>;
}
