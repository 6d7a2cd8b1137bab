// The live-stream shop scenario: what the CLI, the examples and the tests import (never the core).
export { FIXTURE_EPISODES, FIXTURE_SEED, type PlanEntry, planEpisodes } from './plan.js';
export {
  assertLivestreamHarness,
  type EpisodeResult,
  LIVESTREAM_TOOLS,
  livestreamCatalog,
  runModelEpisode,
  runOracleEpisode,
} from './run-episode.js';
export {
  createLivestreamScenario,
  type LivestreamScenarioOptions,
  livestreamIssues,
  livestreamScenario,
} from './scenario.js';
