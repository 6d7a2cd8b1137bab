// A real public harness history: the search tools of GitHub's official MCP server
// (github/github-mcp-server), one version per upstream commit that changed them, as harness files built by
// the project's own MCP importer (what `hsa import mcp <file> --id github-search` writes).
//
// Usage: npx tsx scripts/github-mcp-search-history.ts [--from <git dir> | --check]
//   --from DIR  read every commit of `commits` below from a clone (or bare mirror) of github/github-mcp-server,
//               write one `tools/list` response per distinct version under tools/ (then
//               `npx biome format --write` them: the checked-in files are in the project's JSON style), then
//               the harness files;
//   (no flag)   rebuild harness/*.yaml from the checked-in tools/*.json (a file that already holds the same
//               harness is left as it is: the checked-in files are in the project's YAML style);
//   --check     build them in memory and compare with harness/*.yaml, value for value; exit 1 when one is
//               stale or missing.
//
// A version is the tool snapshots `pkg/github/__toolsnaps__/search_<name>.snap` at a commit (the `_ff_`
// snapshots of feature-flagged variants left out), sorted by tool name, each tool object as upstream wrote
// it; a commit whose snapshots are the same as the previous version's gives no version. Deterministic: no
// clock, no network; git is read with `git show`.
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { sameCanonicalJson } from '../src/harness/canonical-json.js';
import { importMcpTools, skeletonHarness } from '../src/harness/importers/index.js';
import type { Harness } from '../src/harness/schema.js';
import { stringifyYaml } from '../src/harness/yaml-text.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = join(root, 'test/drift/fixtures/github-mcp-search');
const snapshots = 'pkg/github/__toolsnaps__';
const harnessId = 'github-search';

/** The upstream commits that touched a search tool snapshot, oldest first (`git log --reverse -- 'search_*.snap'`). */
export const commits = [
  '3e988d5ab530cd65f038cba0e4cdcc3abfc11196',
  'acba2848a32dc54a8ab70581bc463cf4afbb5410',
  '805358ba3d3df1411fbd11ae906fdffc517f2c72',
  '8bd715235b4cf319d625702beda06fefb52de0f1',
  'efef8ae27a1d62c38c8f760ca38a65845efd3576',
  '4b64121b97f456163ef78a3d244462647068f585',
  'd65d1d5455989bfc45da11eab467d91e78fa8ce8',
  '358a4150813508719405add8a85c6806ca7a8b95',
  '16b43c9d44a32ba21210f45e2eccb2a6906c0782',
  '60aef5d2e3daff60f2485d9ad9730447d63a2e0f',
  '87a1110c15e4a9d3935707fb2da8d87f0e581c96',
  'e9533330b0ec2ea2f81ec490cc0c84d30538fcb9',
  '6b4ca78505e719019e0b2e95ab7aec57f6c43a23',
  '225c47cda1d5f7fba3a90292933ade8d9a801c47',
  '3b8ff504c0fcfd4b027ce8f6f55f12f8fb95e86f',
  '439ec711fa106f06969caa9d20738f74014abe69',
  '456fae9d0464944b946a288aed152dbb0c369a76',
  'f3cb662c25456f993115ad11fffafd0c5a5b9f97',
];

const git = (dir: string, args: string[]) =>
  execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** The search tool objects at one commit, sorted by file name. */
function toolsAt(dir: string, commit: string): unknown[] {
  const files = git(dir, ['ls-tree', '--name-only', commit, `${snapshots}/`])
    .split('\n')
    .filter((file) => /\/search_[a-z_]+\.snap$/.test(file) && !/_ff_/.test(file))
    .sort();
  return files.map((file) => JSON.parse(git(dir, ['show', `${commit}:${file}`])) as unknown);
}

async function extract(dir: string): Promise<void> {
  await rm(join(folder, 'tools'), { recursive: true, force: true });
  await mkdir(join(folder, 'tools'), { recursive: true });
  let previous = '';
  let index = 0;
  for (const commit of commits) {
    const tools = toolsAt(dir, commit);
    const text = `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools } }, null, 2)}\n`;
    if (text === previous) continue;
    previous = text;
    index++;
    await writeFile(join(folder, 'tools', `${versionName(index, commit)}.json`), text);
  }
}

const versionName = (index: number, commit: string) =>
  `${String(index).padStart(2, '0')}-${commit.slice(0, 7)}`;

/** The harness of one tools/list response, as `hsa import mcp --id github-search -o <file>.yaml` writes it. */
export function harnessOfToolsList(response: unknown): Harness {
  return skeletonHarness({ id: harnessId, tools: importMcpTools(response) });
}

/** Whether a harness file on disk holds `text`'s harness (formatting aside); false when it is missing. */
export async function holdsSameHarness(name: string, text: string): Promise<boolean> {
  const onDisk = await readFile(join(folder, 'harness', name), 'utf8').catch(() => undefined);
  return onDisk !== undefined && sameCanonicalJson(parse(onDisk), parse(text));
}

/** Every version: its name and the harness file's text, built from the checked-in tools lists. */
export async function buildHarnessFiles(): Promise<Array<{ name: string; text: string }>> {
  const names = (await readdir(join(folder, 'tools'))).filter((name) => name.endsWith('.json')).sort();
  const built: Array<{ name: string; text: string }> = [];
  for (const name of names) {
    const response: unknown = JSON.parse(await readFile(join(folder, 'tools', name), 'utf8'));
    built.push({
      name: name.replace(/\.json$/, '.yaml'),
      text: stringifyYaml(harnessOfToolsList(response), { lineWidth: 0, aliasDuplicateObjects: false }),
    });
  }
  return built;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const from = args.indexOf('--from');
  if (from >= 0) {
    const dir = args[from + 1];
    if (!dir) throw new Error('--from needs the git directory of github/github-mcp-server');
    await extract(dir);
  }
  const built = await buildHarnessFiles();
  if (args.includes('--check')) {
    const stale: string[] = [];
    for (const { name, text } of built) if (!(await holdsSameHarness(name, text))) stale.push(name);
    const present = (await readdir(join(folder, 'harness')).catch(() => [] as string[])).filter((name) =>
      name.endsWith('.yaml'),
    );
    const extra = present.filter((name) => !built.some((entry) => entry.name === name));
    if (stale.length > 0 || extra.length > 0) {
      process.stderr.write(`stale harness files: ${[...stale, ...extra].join(', ')}\n`);
      process.exit(1);
    }
    process.stdout.write(`${built.length} harness files up to date\n`);
    return;
  }
  await mkdir(join(folder, 'harness'), { recursive: true });
  const names = new Set(built.map((entry) => entry.name));
  for (const name of await readdir(join(folder, 'harness')))
    if (!names.has(name)) await rm(join(folder, 'harness', name));
  let written = 0;
  for (const { name, text } of built) {
    if (await holdsSameHarness(name, text)) continue;
    await writeFile(join(folder, 'harness', name), text);
    written++;
  }
  process.stdout.write(`${written} of ${built.length} harness files written to ${join(folder, 'harness')}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
