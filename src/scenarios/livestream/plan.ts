// The input sampler of the live-stream simulator: which scenario (intent mix) each episode replays, which
// episodes carry a failed attempt to recover from, and in which language. For the fixture's seed and size
// (396 episodes) this is exactly the plan of the bundled trajectories; other sizes scale the mix.
import seedrandom from 'seedrandom';
import type { Lang, Slip } from './kit.js';
import { SCENARIOS, type ScenarioDef, SLIP_WEIGHTS } from './scenarios.js';
import { shuffle } from './world.js';

/** The seed of the bundled fixture; also the catalog's seed, whatever the episode seed. */
export const FIXTURE_SEED = 'harness-augment/livestream/v1';
const ZH_SHARE = 0.2;

export interface PlanEntry {
  id: string;
  /** 0-based position in the plan. */
  index: number;
  scenario: ScenarioDef;
  lang: Lang;
  slipOrder?: Slip[];
}

/** Weighted order without replacement: heavier slips tend to come first. */
function slipOrder(rng: () => number, weights: ReadonlyArray<readonly [Slip, number]>): Slip[] {
  const pool = [...weights];
  const order: Slip[] = [];
  while (pool.length > 0) {
    const total = pool.reduce((sum, [, weight]) => sum + weight, 0);
    const roll = rng() * total;
    let cumulative = 0;
    let index = pool.findIndex(([, weight]) => {
      cumulative += weight;
      return roll < cumulative;
    });
    if (index === -1) index = pool.length - 1;
    order.push(pool[index]![0]);
    pool.splice(index, 1);
  }
  return order;
}

/** Scenarios whose turn always calls a registry tool and loads a skill. */
const TOOL_USING = [
  'price',
  'stock',
  'shipping',
  'after_sales',
  'item_qa',
  'spec_compare',
  'multi_intent',
  'compliance_trap',
  'objection',
  'promotion',
  'purchase_intent',
  'product_discovery',
];

/** The fixture's own size: the sum of the scenario counts. */
export const FIXTURE_EPISODES = SCENARIOS.reduce((sum, scenario) => sum + scenario.count, 0);

/** Scenario counts for `episodes` episodes, proportional to the fixture's mix (largest remainder). */
function scaledCounts(episodes: number): number[] {
  const exact = SCENARIOS.map((scenario) => (scenario.count * episodes) / FIXTURE_EPISODES);
  const counts = exact.map(Math.floor);
  const order = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  let missing = episodes - counts.reduce((sum, count) => sum + count, 0);
  for (const { index } of order) {
    if (missing-- <= 0) break;
    counts[index]!++;
  }
  return counts;
}

export interface PlanOptions {
  episodes: number;
  seed: string;
  /** Episode ids are `${idPrefix}${n}`, n 1-based and zero-padded to 4 digits. */
  idPrefix: string;
}

/**
 * The episodes of a simulation run, in order.
 *
 * @example
 * planEpisodes({ episodes: 396, seed: FIXTURE_SEED, idPrefix: 'ls-' })[0].id // 'ls-0001'
 */
export function planEpisodes(options: PlanOptions): PlanEntry[] {
  const rng = seedrandom(`${options.seed}:plan`);
  type Draft = Omit<PlanEntry, 'id' | 'index' | 'lang'> & { lang?: Lang };
  const entries: Draft[] = [];
  const counts = scaledCounts(options.episodes);
  SCENARIOS.forEach((scenario, index) => {
    const count = counts[index]!;
    const own: Draft[] = Array.from({ length: count }, () => ({ scenario }));
    const slipped = shuffle(own, rng).slice(0, Math.round(scenario.slipRate * count));
    for (const [position, entry] of slipped.entries()) {
      entry.slipOrder = slipOrder(rng, SLIP_WEIGHTS);
      // Compliance traps: alternate superlative and efficacy baits that the first reply falls for.
      if (scenario.name === 'compliance_trap')
        entry.slipOrder = position % 2 === 0 ? ['banned'] : ['efficacy'];
      // Price questions: a few answers quote the room snapshot before calling the price tool.
      if (scenario.name === 'price' && position < 2) entry.slipOrder = ['early_guess'];
    }
    entries.push(...own);
  });
  // A few episodes that show more than one failure: two bad calls in a row, and a retry budget running out.
  const plain = (name: string) => entries.filter((entry) => entry.scenario.name === name && !entry.slipOrder);
  for (const entry of shuffle(plain('price'), rng).slice(0, 2)) entry.slipOrder = ['numbers_exhausted'];
  for (const name of ['item_qa', 'stock', 'after_sales']) {
    for (const entry of shuffle(plain(name), rng).slice(0, 1)) entry.slipOrder = ['bad_args_twice'];
  }
  const mixed = shuffle(entries, rng);
  // Tests plant faults into the tool calls of fixture trajectories 4, 11 and 21: keep ordinary tool-using
  // turns there.
  const ordinary = (entry: Draft) =>
    TOOL_USING.includes(entry.scenario.name) && !entry.slipOrder?.includes('numbers_exhausted');
  for (const index of [3, 10, 20]) {
    if (index >= mixed.length || ordinary(mixed[index]!)) continue;
    const swap = mixed.findIndex((entry, other) => other > 20 && ordinary(entry));
    if (swap === -1) continue;
    [mixed[index], mixed[swap]] = [mixed[swap]!, mixed[index]!];
  }
  const free = mixed.filter((entry) => !['input_spam', 'input_too_long'].includes(entry.scenario.name));
  const zh = new Set(shuffle(free, rng).slice(0, Math.round(free.length * ZH_SHARE)));
  for (const entry of free) entry.lang = zh.has(entry) ? 'zh' : 'en';
  return mixed.map((entry, index) => ({
    ...entry,
    lang: entry.lang ?? 'en',
    index,
    id: `${options.idPrefix}${String(index + 1).padStart(4, '0')}`,
  }));
}
