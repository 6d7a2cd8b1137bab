// The log-replay scenario: the episodes are the logged conversations of a trajectories list (each one's
// user turns and request context; its gold trajectory as the label), the tools are answered by backends
// chosen per tool (the logged results by default), and the oracle replays the gold through the runtime.
import { createRandom } from '../../augment/random.js';
import type { HookCheckRegistry } from '../../harness/hook-checks.js';
import { HarnessAugmentError, type Issue } from '../../harness/issues.js';
import type { Harness } from '../../harness/schema.js';
import type { ToolBackendFactory } from '../../runtime/backends/backend-factory.js';
import {
  type RecordedBackend,
  type RecordedStats,
  recordedBackend,
  recordedResults,
} from '../../runtime/backends/recorded.js';
import { routeBackends } from '../../runtime/backends/route.js';
import { taskFromTrajectory } from '../../runtime/episode-task.js';
import { scoreGeneric } from '../../runtime/rewards/generic/score-generic.js';
import type {
  PlannedEpisode,
  Scenario,
  ScenarioEpisode,
  ScenarioRewards,
  ScenarioRunContext,
  ToolBackend,
} from '../../runtime/scenario.js';
import type { Trajectory } from '../../trajectory/schema.js';
import { validateTrajectory } from '../../trajectory/validate-trajectory.js';
import { type ReplayPlayer, replayOracle } from './replay-oracle.js';

/** A backend choice: the logged results (`recorded`), or a factory (a module's functions, an MCP server). */
export type ToolBackendChoice = 'recorded' | ToolBackendFactory;

/**
 * Options of `createReplayScenario`: the logged conversations to replay, the backends that answer their
 * tools, the oracle's policy.
 */
export interface ReplayScenarioOptions {
  /** The logged conversations, valid under the base harness; ids must be unique. */
  trajectories: readonly Trajectory[];
  /** Backends by base tool name, and the default for the others (default `recorded`). */
  backends?: { default?: ToolBackendChoice; tools?: Readonly<Record<string, ToolBackendChoice>> };
  /** The scripted policy the oracle plays: the relabelled gold (default) or the gold in base names. */
  player?: ReplayPlayer;
  /** Rewards instead of the generic ones. */
  rewards?: ScenarioRewards;
  /** The custom hook checks the harness names, for checking the logs under it (default: none). */
  hookChecks?: HookCheckRegistry | undefined;
  /** The name episodes, manifests and RL groups report (default `replay`): the domain the logs are from. */
  name?: string;
}

/** A planned replay episode: which logged conversation, and which pass over the log it belongs to. */
export interface ReplayPlannedEpisode extends PlannedEpisode {
  /** Index of the conversation in `trajectories`. */
  source: number;
  /** 1 for the first time the plan takes a conversation, 2 for the second, … */
  pass: number;
}

/** The replay scenario, with what its recorded backends answered. */
export interface ReplayScenario extends Scenario<ReplayPlannedEpisode> {
  /** Calls, hits and misses of every recorded backend made so far, summed. */
  recordedStats(): RecordedStats;
}

/**
 * The episodes for a count: the whole log in logged order for each full pass, then a seeded sample of
 * the rest (kept in logged order). An episode's id is its conversation's id, `#2`, `#3`, … from the
 * second pass on.
 */
function planReplay(
  trajectories: readonly Trajectory[],
  seed: string,
  episodes: number,
): ReplayPlannedEpisode[] {
  const passes = Math.floor(episodes / trajectories.length);
  const sources: { source: number; pass: number }[] = [];
  for (let pass = 1; pass <= passes; pass++)
    for (let source = 0; source < trajectories.length; source++) sources.push({ source, pass });
  const rest = episodes - passes * trajectories.length;
  if (rest > 0) {
    const picked = createRandom(`${seed}`)
      .fork('replay/plan')
      .sample(
        trajectories.map((_, index) => index),
        rest,
      );
    for (const source of picked) sources.push({ source, pass: passes + 1 });
  }
  return sources.map(({ source, pass }, index) => ({
    id: pass === 1 ? trajectories[source]!.id : `${trajectories[source]!.id}#${pass}`,
    index,
    source,
    pass,
  }));
}

/**
 * A scenario that replays logged conversations on any harness. Its tools answer from the logs unless a
 * backend is chosen (per tool, or for all); its oracle replays each gold through the runtime (under a
 * variant, the gold moved into the variant's vocabulary; or, with `player: 'base-names'`, as logged); its
 * rewards are the generic ones.
 *
 * @example
 * const scenario = createReplayScenario({ trajectories, backends: { tools: { search_kb: moduleBackend(kb) } } });
 * for await (const episode of simulate({ scenario, harness })) console.log(episode.rewards.total);
 */
export function createReplayScenario(options: ReplayScenarioOptions): ReplayScenario {
  const trajectories = [...options.trajectories];
  if (trajectories.length === 0)
    throw new HarnessAugmentError('the replay scenario needs at least one trajectory', { kind: 'usage' });
  const byId = new Map<string, number>();
  trajectories.forEach((trajectory, index) => {
    const earlier = byId.get(trajectory.id);
    if (earlier !== undefined)
      throw new HarnessAugmentError(
        `trajectory ids must be unique: "${trajectory.id}" is used by trajectories ${earlier} and ${index}`,
        { kind: 'usage' },
      );
    byId.set(trajectory.id, index);
  });
  const fallback = options.backends?.default ?? 'recorded';
  const perTool = options.backends?.tools ?? {};
  /** The backend factories the scenario holds, each once. */
  const factoriesOf = () => [
    ...new Set(
      [fallback, ...Object.values(perTool)].filter(
        (choice): choice is ToolBackendFactory => choice !== 'recorded',
      ),
    ),
  ];
  const player = options.player ?? 'gold';
  const oracle = replayOracle(player);
  const checks = { hookChecks: options.hookChecks };
  let everyResult: ReturnType<typeof recordedResults> | undefined;
  const totals: RecordedStats = { calls: 0, hits: 0, misses: 0, missesByTool: {} };

  const makeBackend = async (
    choice: ToolBackendChoice,
    episode: ScenarioEpisode,
    context: ScenarioRunContext,
    recordedOfEpisode: () => RecordedBackend,
  ): Promise<ToolBackend> => (choice === 'recorded' ? recordedOfEpisode() : choice(episode, context));

  return {
    name: options.name ?? 'replay',
    oracle,
    rewards: options.rewards ?? ((input) => scoreGeneric(input)),

    check(harness: Harness): Issue[] {
      const issues: Issue[] = [];
      const names = new Set(harness.tools.items.map((tool) => tool.name));
      for (const name of Object.keys(perTool).sort())
        if (!names.has(name))
          issues.push({
            code: 'unknown_tool',
            path: ['backends', 'tools', name],
            message: `a backend is chosen for tool "${name}", which the harness does not have`,
          });
      for (const tool of harness.tools.items) {
        const choice = Object.hasOwn(perTool, tool.name) ? perTool[tool.name]! : fallback;
        if (choice !== 'recorded' && choice.tools && !choice.tools.includes(tool.name))
          issues.push({
            code: 'tool_without_backend',
            path: ['backends', Object.hasOwn(perTool, tool.name) ? 'tools' : 'default', tool.name],
            message: `the backend chosen for tool "${tool.name}" does not provide it (it provides ${choice.tools.join(', ') || 'no tool'})`,
          });
      }
      trajectories.forEach((trajectory, index) => {
        for (const issue of validateTrajectory(trajectory, harness, checks).issues)
          issues.push({ ...issue, path: ['trajectories', index, ...issue.path] });
      });
      return issues;
    },

    defaultEpisodes: () => trajectories.length,

    // A log keeps its own ids, so `idPrefix` does not apply.
    plan(context) {
      const episodes = context.episodes ?? trajectories.length;
      if (!Number.isInteger(episodes) || episodes < 1)
        throw new HarnessAugmentError(`episodes must be a positive integer, got ${episodes}`, {
          kind: 'usage',
        });
      return planReplay(trajectories, context.seed, episodes);
    },

    async episode(planned, context): Promise<ScenarioEpisode> {
      const gold = trajectories[planned.source];
      if (!gold)
        throw new HarnessAugmentError(`no logged conversation at index ${planned.source}`, { kind: 'usage' });
      const task = taskFromTrajectory(gold, context.base);
      return {
        id: planned.id,
        context: gold.context ?? {},
        task: { ...task, id: planned.id },
        gold,
        ...(gold.meta ? { labels: gold.meta } : {}),
        meta: { source: gold.id, pass: planned.pass },
      };
    },

    async backend(episode, context): Promise<ToolBackend> {
      let own: RecordedBackend | undefined;
      const recordedOfEpisode = () => {
        if (!own) {
          everyResult ??= recordedResults(trajectories);
          own = recordedBackend(recordedResults(episode.gold ? [episode.gold] : []), everyResult, { totals });
        }
        return own;
      };
      const byTool: Record<string, ToolBackend> = {};
      for (const name of Object.keys(perTool).sort())
        byTool[name] = await makeBackend(perTool[name]!, episode, context, recordedOfEpisode);
      return routeBackends(await makeBackend(fallback, episode, context, recordedOfEpisode), byTool);
    },

    recordedStats: (): RecordedStats => ({ ...totals, missesByTool: { ...totals.missesByTool } }),

    health() {
      for (const factory of factoriesOf()) {
        const problem = factory.health?.();
        if (problem !== undefined) return problem;
      }
      return undefined;
    },

    async close() {
      await Promise.all(factoriesOf().map((factory) => factory.close?.()));
    },
  };
}
