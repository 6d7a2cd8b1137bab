// Runs one simulated live-stream episode: the planned scenario's room, viewer messages and gold behaviour,
// played through the runtime's Episode by the scripted oracle (or by a model through the agent loop), under
// the base harness or a variant, with seeded tool faults. Returns the trajectory and the episode's gold
// labels (an EpisodeTask in the base vocabulary).
import seedrandom from 'seedrandom';
import { hashHarness } from '../../harness/hash.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { RunContext } from '../../harness/run-context.js';
import type { Harness } from '../../harness/schema.js';
import { type AgentRunOptions, runAgent } from '../../runtime/agent-loop.js';
import type { ChatModel, ChatRequest } from '../../runtime/chat-model.js';
import { Episode } from '../../runtime/episode.js';
import type { EpisodeTask, TurnTask } from '../../runtime/episode-task.js';
import { isToolError } from '../../runtime/episode-task.js';
import { type FaultOptions, withFaults } from '../../runtime/faults.js';
import type { ToolRuntime } from '../../runtime/tool-runtime.js';
import { variantTools } from '../../runtime/variant-tools.js';
import type { Relabel } from '../../trajectory/relabel.js';
import type { Message, Trajectory } from '../../trajectory/schema.js';
import { bundledShopCatalog, type ShopCatalog } from './catalog.js';
import { Conversation } from './conversation.js';
import { Kit } from './kit.js';
import { bundledShopPhrases, type ShopPhrases } from './phrases.js';
import type { PlanEntry } from './plan.js';
import { shopTools } from './shop-tools.js';
import { makeContext, type RoomContext, Shop } from './world.js';

/** Tools the live-stream shop serves; a harness run by the simulator must offer each (in base vocabulary). */
export const LIVESTREAM_TOOLS = [
  'get_product_info_by_link_id',
  'get_price_and_coupons',
  'check_stock_and_sizes',
  'recommend_size',
  'get_shipping_info',
  'get_after_sales_policy',
  'get_live_room_state',
  'compare_products',
  'search_catalog',
  'get_promotion_rules',
] as const;

/**
 * Throws a usage error when `harness` cannot be simulated: the oracle speaks the live-stream domain.
 *
 * @example
 * assertLivestreamHarness(await loadHarnessFile('fixtures/livestream/harness.yaml'));
 */
export function assertLivestreamHarness(harness: Harness): void {
  const names = new Set(harness.tools.items.map((tool) => tool.name));
  const missing = LIVESTREAM_TOOLS.filter((name) => !names.has(name));
  if (missing.length > 0)
    throw new HarnessAugmentError(
      `the live-stream simulator needs a harness with the live-stream tools (as in fixtures/livestream/harness.yaml); "${harness.id}" lacks ${missing.join(', ')}`,
      { kind: 'usage' },
    );
}

export interface EpisodeRunOptions {
  entry: PlanEntry;
  /** The run's seed; the episode draws from `${seed}:${entry.id}`. */
  seed: string;
  /** The base harness the oracle's script is written against. */
  base: Harness;
  /** Run under this variant of `base` (its relabel maps base names to the variant's). */
  variant?: { harness: Harness; relabel: Relabel };
  /** Seeded tool faults; the draw for call k uses `${seed}:${entry.id}:fault:${k}`. */
  faults?: Omit<FaultOptions, 'seed'>;
  /** The tools to call, already in the played harness's vocabulary (default: the shop's, with `faults`). */
  tools?: ToolRuntime;
  /** The shop's data (default: the bundled fixtures/livestream/catalog.json). */
  catalog?: ShopCatalog;
  /** The viewer's phrase tables (default: the bundled fixtures/livestream/phrases.json). */
  phrases?: ShopPhrases;
  /** Assert every hook decision of the script (fixture generation). */
  strict?: boolean;
  maxStepsPerTurn?: number;
  /** The run the episode plays in (its hook checks); default: one of its own, with none. */
  run?: RunContext | undefined;
}

export interface EpisodeResult {
  trajectory: Trajectory;
  /** Gold labels, in the base vocabulary. */
  task: EpisodeTask;
  /** Script steps that could not happen as written under this harness (live mode). */
  deviations: string[];
  episode: Episode;
}

interface Setting {
  context: RoomContext;
  shop: Shop;
  rng: () => number;
  lang: 'en' | 'zh';
  slip: { turn: number; order: NonNullable<PlanEntry['slipOrder']> } | undefined;
  setup: ReturnType<PlanEntry['scenario']['setup']>;
  phrases: ShopPhrases;
}

/** The room and the episode's random stream; the same for every harness the episode is run under. */
function setting(entry: PlanEntry, seed: string, data: ShopCatalog, phrases: ShopPhrases): Setting {
  const rng = seedrandom(`${seed}:${entry.id}`);
  const setup = entry.scenario.setup(rng, data, entry.slipOrder?.[0], phrases);
  const lang = setup.lang ?? entry.lang;
  const context = makeContext(data.products, setup.room, rng, {
    mustShow: setup.mustShow,
    ...(setup.current !== undefined ? { current: setup.current } : {}),
  });
  const slipTurns = entry.scenario.slipTurns ?? [0];
  const slip = entry.slipOrder
    ? { turn: slipTurns[Math.floor(rng() * slipTurns.length)]!, order: entry.slipOrder }
    : undefined;
  return { context, shop: new Shop(data, context), rng, lang, slip, setup, phrases };
}

function toolRuntime(shop: Shop, options: EpisodeRunOptions): ToolRuntime {
  if (options.tools) return options.tools;
  const tools = variantTools(shopTools(shop), options.variant?.relabel);
  return options.faults
    ? withFaults(tools, { ...options.faults, seed: `${options.seed}:${options.entry.id}` })
    : tools;
}

const isViewer = (message: Message) => message.role === 'user' && !message.hsa;

/** The messages of each viewer turn (from a viewer message up to the next). */
function turnsOf(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  for (const message of messages) {
    if (isViewer(message)) turns.push([]);
    turns[turns.length - 1]?.push(message);
  }
  return turns;
}

/** Registry tools with a successful result in a turn, in order of first success. */
function successfulTools(turn: readonly Message[], loaderTool: string): string[] {
  const names = new Map<string, string>();
  for (const message of turn)
    if (message.role === 'assistant' && !message.hsa)
      for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  const tools: string[] = [];
  for (const message of turn) {
    if (message.role !== 'tool' || message.hsa) continue;
    const name = names.get(message.tool_call_id);
    if (name && name !== loaderTool && !isToolError(message.content) && !tools.includes(name))
      tools.push(name);
  }
  return tools;
}

function metaOf(
  kit: Kit,
  entry: PlanEntry,
  lang: string,
  messages: readonly Message[],
  hookEvents: string[],
) {
  return {
    scenario: entry.scenario.name,
    intents: [...new Set(kit.intents)],
    language: lang,
    turns: messages.filter(isViewer).length,
    hook_events: hookEvents,
    ...(kit.injected.length > 0 ? { failed_attempt: kit.injected[0] } : {}),
  };
}

/**
 * Plays one planned episode with the scripted oracle.
 *
 * @example
 * const { trajectory, task } = await runOracleEpisode({ entry, seed: FIXTURE_SEED, base: harness });
 */
export async function runOracleEpisode(options: EpisodeRunOptions): Promise<EpisodeResult> {
  const { entry, seed, base } = options;
  const harness = options.variant?.harness ?? base;
  const world = setting(
    entry,
    seed,
    options.catalog ?? bundledShopCatalog(),
    options.phrases ?? bundledShopPhrases(),
  );
  const episode = new Episode({
    harness,
    context: world.context as unknown as Record<string, unknown>,
    tools: toolRuntime(world.shop, options),
    ...(options.maxStepsPerTurn ? { maxStepsPerTurn: options.maxStepsPerTurn } : {}),
    run: options.run,
  });
  const conversation = new Conversation(episode, base, seedrandom(`${seed}:${entry.id}:call-ids`), {
    strict: options.strict ?? false,
    ...(options.variant ? { relabel: options.variant.relabel } : {}),
  });
  const kit = new Kit(base, conversation, world.shop, world.rng, world.lang, world.slip, world.phrases);
  try {
    await entry.scenario.run(kit, world.setup);
  } catch (error) {
    throw new Error(`${entry.id} (${entry.scenario.name}, ${world.lang}): ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    episode.close();
  }
  const messages = episode.messages;
  const trajectory: Trajectory = {
    id: entry.id,
    harness: { id: harness.id, hash: hashHarness(harness).harness },
    context: world.context as unknown as Record<string, unknown>,
    tools: episode.tools,
    messages,
    meta: metaOf(kit, entry, world.lang, messages, [...episode.hookEvents]),
  };
  const turns = turnsOf(messages);
  const task: EpisodeTask = {
    id: entry.id,
    turns: kit.tasks.map(({ spec, skills }, index): TurnTask => {
      const turn: TurnTask = {
        user: spec.viewer,
        intents: spec.intents,
        skills: [...new Set(skills)],
        tools: spec.expectInput ? [] : successfulTools(turns[index] ?? [], base.skills.loader.tool),
        facts: [],
      };
      if (spec.expectInput) turn.blockedBy = spec.expectInput;
      return turn;
    }),
  };
  return { trajectory, task, deviations: conversation.deviations, episode };
}

export interface ModelEpisodeOptions extends Omit<EpisodeRunOptions, 'strict'> {
  model: ChatModel;
  request?: AgentRunOptions['request'];
  signal?: AbortSignal;
  /** The episode's gold labels, when already known (otherwise the oracle plays the base harness first). */
  gold?: EpisodeResult;
}

/**
 * Plays one planned episode with a model: the viewer messages and gold labels come from the oracle's run
 * under the base harness; the model answers under the given harness through the agent loop.
 *
 * @example
 * const result = await runModelEpisode({ entry, seed, base: harness, model: createOpenAICompatible({ baseURL }) });
 */
export async function runModelEpisode(
  options: ModelEpisodeOptions,
): Promise<EpisodeResult & { steps: Awaited<ReturnType<typeof runAgent>>['steps'] }> {
  const gold =
    options.gold ??
    (await runOracleEpisode({ entry: options.entry, seed: options.seed, base: options.base }));
  const world = setting(
    options.entry,
    options.seed,
    options.catalog ?? bundledShopCatalog(),
    options.phrases ?? bundledShopPhrases(),
  );
  const harness = options.variant?.harness ?? options.base;
  const request: Omit<ChatRequest, 'messages' | 'tools'> = options.request ?? {};
  const run = await runAgent({
    harness,
    context: world.context as unknown as Record<string, unknown>,
    tools: toolRuntime(world.shop, options),
    model: options.model,
    userMessages: gold.task.turns.map((turn) => turn.user),
    request,
    ...(options.maxStepsPerTurn ? { maxStepsPerTurn: options.maxStepsPerTurn } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const goldMeta = gold.trajectory.meta ?? {};
  const trajectory: Trajectory = {
    ...run.trajectory(options.entry.id, {
      scenario: goldMeta.scenario,
      intents: goldMeta.intents,
      language: goldMeta.language,
      turns: run.messages.filter(isViewer).length,
      hook_events: [...run.episode.hookEvents],
    }),
    harness: { id: harness.id, hash: hashHarness(harness).harness },
  };
  return { trajectory, task: gold.task, deviations: [], episode: run.episode, steps: run.steps };
}
