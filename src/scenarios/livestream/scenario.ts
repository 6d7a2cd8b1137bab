// The live-stream shop as a Scenario: the planner samples the fixture's intent mix, each episode is the
// scripted oracle's play under the base harness (its gold trajectory and labels), the shop answers the ten
// tools from the catalog, the oracle replays the script under any variant, and the four task rewards
// score it.
import type { Issue } from '../../harness/issues.js';
import { runContextOf } from '../../harness/run-context.js';
import type { Harness } from '../../harness/schema.js';
import { scoreTaskRewards } from '../../runtime/rewards/task-rewards.js';
import type { Scenario, ScenarioEpisode } from '../../runtime/scenario.js';
import { bundledShopCatalog, type ShopCatalog } from './catalog.js';
import { bundledShopPhrases, type ShopPhrases } from './phrases.js';
import { FIXTURE_EPISODES, FIXTURE_SEED, type PlanEntry, planEpisodes } from './plan.js';
import { LIVESTREAM_TOOLS, runOracleEpisode } from './run-episode.js';
import { shopTools } from './shop-tools.js';
import { type RoomContext, Shop } from './world.js';

/** Options of `createLivestreamScenario`: a catalog or phrase tables to use instead of the bundled ones. */
export interface LivestreamScenarioOptions {
  /** The shop's data (default: the bundled fixtures/livestream/catalog.json; see `loadShopCatalog`). */
  catalog?: ShopCatalog;
  /** The viewer's phrase tables (default: the bundled fixtures/livestream/phrases.json; see `loadShopPhrases`). */
  phrases?: ShopPhrases;
}

/** The issues of a harness the shop cannot serve: every live-stream tool must be offered (base names). */
export function livestreamIssues(harness: Harness): Issue[] {
  const names = new Set(harness.tools.items.map((tool) => tool.name));
  const missing = LIVESTREAM_TOOLS.filter((name) => !names.has(name));
  if (missing.length === 0) return [];
  return [
    {
      code: 'missing_tools',
      path: ['tools'],
      message: `the live-stream scenario needs a harness with the live-stream tools (as in fixtures/livestream/harness.yaml); "${harness.id}" lacks ${missing.join(', ')}`,
    },
  ];
}

const planned = (episode: ScenarioEpisode): PlanEntry => episode.meta!.entry as PlanEntry;

/**
 * The live-stream shop scenario.
 *
 * @example
 * const scenario = createLivestreamScenario();
 * for await (const episode of simulate({ scenario, harness, episodes: 20 })) console.log(episode.rewards.total);
 */
export function createLivestreamScenario(options: LivestreamScenarioOptions = {}): Scenario<PlanEntry> {
  const catalog = options.catalog ?? bundledShopCatalog();
  const phrases = options.phrases ?? bundledShopPhrases();
  return {
    name: 'livestream',
    seed: FIXTURE_SEED,
    check: livestreamIssues,
    defaultEpisodes: () => FIXTURE_EPISODES,
    plan: ({ seed, episodes, idPrefix }) =>
      planEpisodes({ episodes: episodes ?? FIXTURE_EPISODES, seed, idPrefix: idPrefix ?? 'ls-' }),
    async episode(entry, { base, seed }) {
      const gold = await runOracleEpisode({ entry, seed, base, catalog, phrases });
      const meta = gold.trajectory.meta ?? {};
      return {
        id: entry.id,
        context: gold.trajectory.context ?? {},
        task: gold.task,
        gold: gold.trajectory,
        labels: { scenario: meta.scenario, intents: meta.intents, language: meta.language },
        meta: { entry },
      };
    },
    backend: (episode) => shopTools(new Shop(catalog, episode.context as unknown as RoomContext)),
    oracle: {
      async play(input) {
        const played = await runOracleEpisode({
          entry: planned(input.episode),
          seed: input.seed,
          base: input.base,
          tools: input.tools,
          catalog,
          phrases,
          ...(input.variant ? { variant: input.variant } : {}),
          ...(input.strict ? { strict: true } : {}),
          ...(input.maxStepsPerTurn ? { maxStepsPerTurn: input.maxStepsPerTurn } : {}),
          // The run's, or (called by an oracle's user without one) the hook checks alone.
          run: runContextOf(input.run, input.hookChecks),
        });
        return {
          trajectory: played.trajectory,
          deviations: played.deviations,
          toolLog: played.episode.toolLog,
        };
      },
    },
    rewards: (input) => scoreTaskRewards(input),
  };
}

/** The live-stream shop scenario over the bundled catalog (see `createLivestreamScenario`). */
export const livestreamScenario = (options: LivestreamScenarioOptions = {}) =>
  createLivestreamScenario(options);
