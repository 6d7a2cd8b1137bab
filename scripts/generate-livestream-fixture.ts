// Generates the bundled live-stream fixture from the shop's data (fixtures/livestream/catalog.json, edited by
// hand), the scenario's scripts and one seed:
//   fixtures/livestream/trajectories.jsonl    gold trajectories under fixtures/livestream/harness.yaml
//   fixtures/livestream/contexts/example.json one request context, for `hsa render`
//
// Usage: npx tsx scripts/generate-livestream-fixture.ts [--check | --out FILE]
//   --check     generate in memory and compare with the files on disk instead of writing them;
//   --out FILE  write only the trajectories, to FILE (the fixture on disk is left alone).
// (The catalog is data, not generated: edit fixtures/livestream/catalog.json, then run this.)
//
// The trajectories are the simulator's: the scripted oracle plays each planned episode through the
// runtime's agent loop under the harness, in strict mode (every hook decision the script expects is
// asserted). `hsa sim run --scenario livestream --harness fixtures/livestream/harness.yaml --strict --out FILE`
// writes the same file.
// Every trajectory is replayed through the library's trajectory validator before it is written.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import seedrandom from 'seedrandom';
import { loadHarnessFile } from '../src/harness/parse-harness.js';
import type { Harness } from '../src/harness/schema.js';
import { loadShopCatalog } from '../src/scenarios/livestream/catalog.js';
import { FIXTURE_EPISODES, FIXTURE_SEED, planEpisodes } from '../src/scenarios/livestream/plan.js';
import { runOracleEpisode } from '../src/scenarios/livestream/run-episode.js';
import { makeContext } from '../src/scenarios/livestream/world.js';
import { validateTrajectory } from '../src/trajectory/validate-trajectory.js';

const SEED = FIXTURE_SEED;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtureDir = join(root, 'fixtures', 'livestream');
const HARNESS_FILE = join(fixtureDir, 'harness.yaml');
const catalog = loadShopCatalog(join(fixtureDir, 'catalog.json'));

interface Built {
  line: string;
  scenario: string;
  lang: string;
  viewerMessages: number;
  zhViewerMessages: number;
  rejected: boolean;
  recovered: boolean;
  hookEvents: string[];
  issues: string[];
}

async function buildTrajectory(
  entry: ReturnType<typeof planEpisodes>[number],
  harness: Harness,
): Promise<Built> {
  const { trajectory } = await runOracleEpisode({ entry, seed: SEED, base: harness, strict: true, catalog });
  const messages = trajectory.messages;
  const viewer = messages.filter((message) => message.role === 'user' && !('hsa' in message && message.hsa));
  const rejected = messages.some((message) => 'hsa' in message && message.hsa?.event === 'hook_rejected');
  const last = messages[messages.length - 1]!;
  const recovered = rejected && last.role === 'assistant' && last.content !== null && !last.hsa;
  const lang = String(trajectory.meta?.language);
  const hookEvents = trajectory.meta?.hook_events as string[];
  const validation = validateTrajectory(trajectory, harness);
  return {
    line: JSON.stringify(trajectory),
    scenario: entry.scenario.name,
    lang,
    viewerMessages: viewer.length,
    zhViewerMessages: lang === 'zh' ? viewer.length : 0,
    rejected,
    recovered,
    hookEvents,
    issues: validation.issues.map(
      (issue) => `${trajectory.id} ${JSON.stringify(issue.path)} ${issue.code}: ${issue.message}`,
    ),
  };
}

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;

async function main() {
  const check = process.argv.includes('--check');
  const outIndex = process.argv.indexOf('--out');
  const out = outIndex === -1 ? undefined : process.argv[outIndex + 1];
  if (outIndex !== -1 && !out) throw new Error('--out needs a file');
  const harness = await loadHarnessFile(HARNESS_FILE);
  const entries = planEpisodes({ episodes: FIXTURE_EPISODES, seed: SEED, idPrefix: 'ls-' });
  const built: Built[] = [];
  for (const entry of entries) built.push(await buildTrajectory(entry, harness));

  const example = makeContext(catalog.products, catalog.rooms[0]!, seedrandom(`${SEED}:example-context`), {
    mustShow: [1, 2, 5],
    current: 1,
  });
  const outputs: Array<[string, string]> = [
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
  const targets: Array<[string, string]> = out ? [[out, outputs[0]![1]]] : outputs;
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
