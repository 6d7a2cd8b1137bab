// The live-stream shop scenario: what the CLI, the examples and the tests import (never the core).
export {
  bundledShopCatalog,
  loadShopCatalog,
  type Product,
  parseShopCatalog,
  type ShopCatalog,
  ShopCatalogSchema,
} from './catalog.js';
export {
  bundledShopPhrases,
  loadShopPhrases,
  parseShopPhrases,
  type ShopPhrases,
  ShopPhrasesSchema,
} from './phrases.js';
export { FIXTURE_EPISODES, FIXTURE_SEED, type PlanEntry, planEpisodes } from './plan.js';
export {
  assertLivestreamHarness,
  type EpisodeResult,
  LIVESTREAM_TOOLS,
  runModelEpisode,
  runOracleEpisode,
} from './run-episode.js';
export {
  createLivestreamScenario,
  type LivestreamScenarioOptions,
  livestreamIssues,
  livestreamScenario,
} from './scenario.js';
