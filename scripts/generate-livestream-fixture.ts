// Generates the bundled live-stream fixture from hand-written pieces and one seed:
//   fixtures/livestream/catalog.json          the shop's catalog (products, promotions, rooms)
//   fixtures/livestream/trajectories.jsonl    gold trajectories under fixtures/livestream/harness.yaml
//   fixtures/livestream/contexts/example.json one request context, for `hsa render`
//
// Usage: npx tsx scripts/generate-livestream-fixture.ts [--check | --out FILE]
//   --check     generate in memory and compare with the files on disk instead of writing them;
//   --out FILE  write only the trajectories, to FILE (the fixture on disk is left alone).
//
// The output is byte-identical on every run: every random choice comes from seedrandom generators derived
// from SEED and the trajectory id, and nothing iterates an unordered collection to make a choice. Every
// trajectory is replayed through the library's trajectory validator before it is written.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import seedrandom from 'seedrandom';
import { hashHarness } from '../src/harness/hash.js';
import { toChatCompletionTools } from '../src/harness/offered-tools.js';
import { loadHarnessFile } from '../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../src/harness/render-prompt.js';
import type { Harness } from '../src/harness/schema.js';
import { validateTrajectory } from '../src/trajectory/validate-trajectory.js';
import {
  MULTI_BUY,
  PRICE_PROTECTION_DAYS,
  PROMOTION_RULES,
  ROOMS,
  THRESHOLD_TIERS,
  tierLabel,
} from './fixture/catalog-data.js';
import { Conversation } from './fixture/conversation.js';
import { Kit, type Lang, type Slip } from './fixture/kit.js';
import { SCENARIOS, type ScenarioDef, SLIP_WEIGHTS } from './fixture/scenarios.js';
import { buildCatalog, makeContext, type Product, type RoomContext, Shop, shuffle } from './fixture/world.js';

export const SEED = 'harness-augment/livestream/v1';
const ZH_SHARE = 0.2;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtureDir = join(root, 'fixtures', 'livestream');
const HARNESS_FILE = join(fixtureDir, 'harness.yaml');

interface PlanEntry {
  scenario: ScenarioDef;
  lang?: Lang;
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

/** Which scenario each trajectory gets, which ones carry a failed attempt, and in which language. */
function plan(): PlanEntry[] {
  const rng = seedrandom(`${SEED}:plan`);
  const entries: PlanEntry[] = [];
  for (const scenario of SCENARIOS) {
    const own: PlanEntry[] = Array.from({ length: scenario.count }, () => ({ scenario }));
    const slipped = shuffle(own, rng).slice(0, Math.round(scenario.slipRate * scenario.count));
    for (const [index, entry] of slipped.entries()) {
      entry.slipOrder = slipOrder(rng, SLIP_WEIGHTS);
      // Compliance traps: alternate superlative and efficacy baits that the first reply falls for.
      if (scenario.name === 'compliance_trap') entry.slipOrder = index % 2 === 0 ? ['banned'] : ['efficacy'];
      // Price questions: a few answers quote the room snapshot before calling the price tool.
      if (scenario.name === 'price' && index < 2) entry.slipOrder = ['early_guess'];
    }
    entries.push(...own);
  }
  // A few episodes that show more than one failure: two bad calls in a row, and a retry budget running out.
  const plain = (name: string) => entries.filter((entry) => entry.scenario.name === name && !entry.slipOrder);
  for (const entry of shuffle(plain('price'), rng).slice(0, 2)) entry.slipOrder = ['numbers_exhausted'];
  for (const name of ['item_qa', 'stock', 'after_sales']) {
    for (const entry of shuffle(plain(name), rng).slice(0, 1)) entry.slipOrder = ['bad_args_twice'];
  }
  const mixed = shuffle(entries, rng);
  // Tests plant faults into the tool calls of trajectories 4, 11 and 21: keep ordinary tool-using turns there.
  const ordinary = (entry: PlanEntry) =>
    TOOL_USING.includes(entry.scenario.name) && !entry.slipOrder?.includes('numbers_exhausted');
  for (const index of [3, 10, 20]) {
    if (ordinary(mixed[index]!)) continue;
    const swap = mixed.findIndex((entry, other) => other > 20 && ordinary(entry));
    [mixed[index], mixed[swap]] = [mixed[swap]!, mixed[index]!];
  }
  const free = mixed.filter((entry) => !['input_spam', 'input_too_long'].includes(entry.scenario.name));
  const zh = new Set(shuffle(free, rng).slice(0, Math.round(free.length * ZH_SHARE)));
  for (const entry of free) entry.lang = zh.has(entry) ? 'zh' : 'en';
  return mixed;
}

interface Built {
  line: string;
  scenario: string;
  lang: Lang;
  viewerMessages: number;
  zhViewerMessages: number;
  rejected: boolean;
  recovered: boolean;
  hookEvents: string[];
  issues: string[];
}

function buildTrajectory(
  id: string,
  entry: PlanEntry,
  harness: Harness,
  catalog: Product[],
  harnessHash: string,
): Built {
  const rng = seedrandom(`${SEED}:${id}`);
  const setup = entry.scenario.setup(rng, catalog, entry.slipOrder?.[0]);
  const lang = setup.lang ?? entry.lang ?? 'en';
  const context: RoomContext = makeContext(catalog, setup.room, rng, {
    mustShow: setup.mustShow,
    ...(setup.current !== undefined ? { current: setup.current } : {}),
  });
  const shop = new Shop(catalog, context);
  const conv = new Conversation(
    harness,
    shop,
    renderSystemPrompt(harness, context as unknown as Record<string, unknown>),
    seedrandom(`${SEED}:${id}:call-ids`),
  );
  const slipTurns = entry.scenario.slipTurns ?? [0];
  const slip = entry.slipOrder
    ? { turn: slipTurns[Math.floor(rng() * slipTurns.length)]!, order: entry.slipOrder }
    : undefined;
  const kit = new Kit(harness, conv, shop, rng, lang, slip);
  try {
    entry.scenario.run(kit, setup);
  } catch (error) {
    throw new Error(`${id} (${entry.scenario.name}, ${lang}): ${(error as Error).message}`);
  }
  const messages = conv.messages;
  const viewer = messages.filter((message) => message.role === 'user' && !('hsa' in message && message.hsa));
  const rejected = messages.some((message) => 'hsa' in message && message.hsa?.event === 'hook_rejected');
  const last = messages[messages.length - 1]!;
  const recovered = rejected && last.role === 'assistant' && last.content !== null && !last.hsa;
  const trajectory = {
    id,
    harness: { id: harness.id, hash: harnessHash },
    context,
    tools: toChatCompletionTools(harness),
    messages,
    meta: {
      scenario: entry.scenario.name,
      intents: [...new Set(kit.intents)],
      language: lang,
      turns: viewer.length,
      hook_events: conv.hookEvents,
      ...(kit.injected.length > 0 ? { failed_attempt: kit.injected[0] } : {}),
    },
  };
  const validation = validateTrajectory(trajectory, harness);
  return {
    line: JSON.stringify(trajectory),
    scenario: entry.scenario.name,
    lang,
    viewerMessages: viewer.length,
    zhViewerMessages: lang === 'zh' ? viewer.length : 0,
    rejected,
    recovered,
    hookEvents: conv.hookEvents,
    issues: validation.issues.map(
      (issue) => `${id} ${JSON.stringify(issue.path)} ${issue.code}: ${issue.message}`,
    ),
  };
}

function catalogDocument(catalog: Product[]) {
  return {
    id: 'livestream-catalog',
    description:
      'The shop behind the live-stream fixture. Generated by scripts/generate-livestream-fixture.ts; do not edit by hand.',
    currency: 'CNY',
    seed: SEED,
    promotions: {
      threshold_coupons: Object.fromEntries(
        Object.entries(THRESHOLD_TIERS).map(([category, tiers]) => [category, tiers.map(tierLabel)]),
      ),
      multi_buy: MULTI_BUY,
      price_protection_days: PRICE_PROTECTION_DAYS,
      rules: PROMOTION_RULES,
    },
    rooms: ROOMS,
    products: catalog,
  };
}

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;

async function main() {
  const check = process.argv.includes('--check');
  const outIndex = process.argv.indexOf('--out');
  const out = outIndex === -1 ? undefined : process.argv[outIndex + 1];
  if (outIndex !== -1 && !out) throw new Error('--out needs a file');
  const harness = await loadHarnessFile(HARNESS_FILE);
  const harnessHash = hashHarness(harness).harness;
  const catalog = buildCatalog(SEED);
  const entries = plan();
  const built = entries.map((entry, index) =>
    buildTrajectory(`ls-${String(index + 1).padStart(4, '0')}`, entry, harness, catalog, harnessHash),
  );

  const example = makeContext(catalog, ROOMS[0]!, seedrandom(`${SEED}:example-context`), {
    mustShow: [1, 2, 5],
    current: 1,
  });
  const outputs: Array<[string, string]> = [
    [join(fixtureDir, 'catalog.json'), `${JSON.stringify(catalogDocument(catalog), null, 2)}\n`],
    [join(fixtureDir, 'trajectories.jsonl'), `${built.map((item) => item.line).join('\n')}\n`],
    [join(fixtureDir, 'contexts', 'example.json'), `${JSON.stringify(example, null, 2)}\n`],
  ];

  // Summary.
  const total = built.length;
  const byScenario = new Map<string, number>();
  for (const item of built) byScenario.set(item.scenario, (byScenario.get(item.scenario) ?? 0) + 1);
  const viewerMessages = built.reduce((sum, item) => sum + item.viewerMessages, 0);
  const zhMessages = built.reduce((sum, item) => sum + item.zhViewerMessages, 0);
  const hookCounts = new Map<string, number>();
  for (const item of built)
    for (const hook of item.hookEvents) hookCounts.set(hook, (hookCounts.get(hook) ?? 0) + 1);
  const lines = [
    `trajectories: ${total}`,
    `  by scenario: ${[...byScenario].map(([name, count]) => `${name} ${count}`).join(', ')}`,
    `  with a hook rejection: ${built.filter((item) => item.rejected).length} (${pct(built.filter((item) => item.rejected).length, total)}), recovered: ${built.filter((item) => item.recovered).length} (${pct(built.filter((item) => item.recovered).length, total)})`,
    `  hook events: ${[...hookCounts]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([hook, count]) => `${hook} ${count}`)
      .join(', ')}`,
    `  multi-turn: ${built.filter((item) => item.viewerMessages > 1).length}`,
    `  Chinese: ${built.filter((item) => item.lang === 'zh').length} trajectories (${pct(built.filter((item) => item.lang === 'zh').length, total)}), ${zhMessages} of ${viewerMessages} viewer messages (${pct(zhMessages, viewerMessages)})`,
  ];
  console.log(lines.join('\n'));

  const issues = built.flatMap((item) => item.issues);
  if (issues.length > 0) {
    console.error(`\n${issues.length} validator issue(s):`);
    for (const issue of issues.slice(0, 40)) console.error(`  ${issue}`);
  }

  if (check) {
    let stale = 0;
    for (const [file, content] of outputs) {
      const current = await readFile(file, 'utf8').catch(() => '');
      if (current !== content) {
        console.error(`stale: ${file}`);
        stale++;
      }
    }
    process.exitCode = stale > 0 || issues.length > 0 ? 1 : 0;
    return;
  }
  const targets: Array<[string, string]> = out ? [[out, outputs[1]![1]]] : outputs;
  for (const [file, content] of targets) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  console.log(
    `wrote ${targets.map(([file]) => (file.startsWith(root) ? file.slice(root.length + 1) : file)).join(', ')}`,
  );
  if (issues.length > 0) process.exitCode = 1;
}

await main();
