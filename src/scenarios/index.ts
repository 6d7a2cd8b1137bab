// harness-augment/scenarios: the bundled scenarios, to run as they are or to learn from — the log replay
// (any harness, its logs, tools from recorded results, a module or MCP servers; its files' schemas), the
// helpdesk (the replay on the bundled IT-helpdesk logs and tools) and the live-stream shop.

export {
  createState as createHelpdeskState,
  createTools as createHelpdeskTools,
  type HelpdeskDirectory,
  type HelpdeskState,
  type HelpdeskTool,
  loadDirectory as loadHelpdeskDirectory,
} from './helpdesk/tools.js';
export { type HelpdeskScenarioOptions, loadHelpdeskScenario } from './helpdesk-replay.js';
export {
  bundledShopCatalog,
  bundledShopPhrases,
  createLivestreamScenario,
  type LivestreamScenarioOptions,
  loadShopCatalog,
  loadShopPhrases,
  type Product,
  parseShopCatalog,
  parseShopPhrases,
  type ShopCatalog,
  ShopCatalogSchema,
  type ShopPhrases,
  ShopPhrasesSchema,
} from './livestream/index.js';
export {
  type BackendChoice,
  BackendChoiceSchema,
  type BackendsFile,
  BackendsFileSchema,
  type BuildBackendsOptions,
  buildBackends,
  createReplayScenario,
  type McpConnection,
  McpServerEntrySchema,
  type McpServerSpec,
  parsePlayer,
  type ReplayPlannedEpisode,
  type ReplayPlayer,
  type ReplayScenario,
  type ReplayScenarioOptions,
  readBackendsFile,
  readReplayTrajectories,
  replayPlayers,
  type ToolBackendChoice,
} from './replay/index.js';
