// README.md and docs/own-harness.md from the installed package, as a reader who installs harness-augment
// from npm meets them. `npm pack` makes the tarball a release publishes (dist/ as the prepare script builds
// it, the build `npm install` runs in a clone), an empty folder becomes the reader's project, and every step
// each page shows runs there in the page's order: each command with a shell (`npx hsa …` finds the installed
// `hsa`) and must exit as the page says (0 unless it says otherwise), each file it names after -o/--out must
// exist; each TypeScript example type-checks in the project as `tsc --init` sets it up and runs with tsx.
// The steps are read off the pages (test/support/page-steps.ts), so a step is covered as soon as it is
// written; the ones not run from the package are classified by one rule (`notRunFromPackage`) and checked for
// what they name. What stands in for what a reader has and this machine does not:
//  - `npm install harness-augment` installs the tarball (0.1 is not on the npm registry yet);
//  - the README's own-harness commands read the reader's own tools.json, skills/, prompt.md and logs.jsonl:
//    the test puts public material there (tau2-bench's telecom tools and skills, the example prompt, and
//    the well-formed lines of the example logs; docs/own-harness.md shows what a torn line does);
//  - docs/own-harness.md names its material by its place in a clone: the test copies it to the same paths,
//    and installs the MCP server the page starts from node_modules (a devDependency in a clone);
//  - `hsa env serve` runs until stopped: the test starts it on a free port (test/e2e/own-harness.test.ts
//    may hold the page's), waits for its banner, starts one episode, and stops it.
// npm reads its cache first (prefer-offline) and asks the registry only for what the cache lacks.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitWords } from '../../src/cli/command-words.js';
import { notRunFromPackage, npmParts, type PageStep, pageSteps } from '../support/page-steps.js';
import { projectRoot } from '../support/run-cli.js';

const ciScript = await readFile(join(projectRoot, '.ci/run'), 'utf8');
const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as {
  name: string;
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
const tsxCli = join(projectRoot, 'node_modules/tsx/dist/cli.mjs');
const tscCli = join(projectRoot, 'node_modules/typescript/bin/tsc');
const commandTimeout = 280_000;

let project: string;
let packFolder: string;
let tarball: string;
let server: ChildProcess | undefined;

/**
 * The environment of a reader's shell: this process's, without what `npm test` and vitest add (npm's
 * variables, this repository's `node_modules/.bin` on PATH), so nothing of the clone leaks into the project.
 */
function readersEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^(npm_|vitest|node_options$|node_v8_coverage$|init_cwd$)/i.test(name)) environment[name] = value;
  environment.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes(`${sep}node_modules${sep}`) && !entry.endsWith(`${sep}node_modules`))
    .join(delimiter);
  return {
    ...environment,
    NO_COLOR: '1',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

const run = (command: string, args: string[]) =>
  spawnSync(command, args, {
    cwd: project,
    env: readersEnvironment(),
    encoding: 'utf8',
    timeout: commandTimeout,
  });

const report = (result: ReturnType<typeof run>) =>
  `exit ${result.status} ${result.signal ?? ''}\n${result.stdout}\n${result.stderr}`;

/** The command with `npm install harness-augment` installing the tarball instead of the registry's package. */
function withTarball(command: string): string {
  const install = new RegExp(`^(npm (?:install|i|add)(?: \\S+)*? )${manifest.name}(?=\\s|$)`);
  return command.replace(install, (_, head: string) => `${head}${tarball}`);
}

/** The words of a command, a trailing `# comment` left out. */
const wordsOf = (command: string) => splitWords(command.replace(/\s#.*$/, ''));

/** The files a command names after `-o` / `--out` (it must have written them). */
function outputsNamed(command: string): string[] {
  const words = wordsOf(command);
  return words.flatMap((word, index) =>
    (word === '-o' || word === '--out') && words[index + 1] ? [words[index + 1]!] : [],
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function runProgram(step: Extract<PageStep, { kind: 'program' }>, name: string): Promise<void> {
  const file = join(project, `${name}-line-${step.line}.${step.language}`);
  await writeFile(file, step.code);
  if (step.language === 'ts') {
    if (!existsSync(join(project, 'tsconfig.json'))) {
      const init = run(process.execPath, [tscCli, '--init']);
      expect(init.status, report(init)).toBe(0);
    }
    const check = run(process.execPath, [tscCli, '--noEmit', '-p', project]);
    expect(check.status, report(check)).toBe(0);
  }
  const result =
    step.language === 'ts' ? run(process.execPath, [tsxCli, file]) : run(process.execPath, [file]);
  expect(result.status, report(result)).toBe(0);
  expect(result.stderr).toBe('');
}

function runCommand(step: Extract<PageStep, { kind: 'command' }>): void {
  const result = run('sh', ['-c', withTarball(step.text)]);
  expect(result.status, report(result)).toBe(step.exitStatus);
  for (const output of outputsNamed(step.text)) expect(existsSync(join(project, output)), output).toBe(true);
}

/** `hsa env serve` on a free port: its banner, then one episode started over HTTP. */
async function serveOnce(step: Extract<PageStep, { kind: 'command' }>): Promise<void> {
  const words = wordsOf(step.text);
  const port = words.indexOf('--port');
  if (port >= 0) words[port + 1] = '0';
  // A process group of its own: npx and the server it starts stop together.
  const child = spawn(words[0]!, words.slice(1), { cwd: project, env: readersEnvironment(), detached: true });
  server = child;
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (status) =>
      reject(new Error(`${step.text} ended (exit ${status}) before serving:\n${output}`)),
    );
  });
  const response = await fetch(`${url}/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const episode = (await response.json()) as { observation?: { messages?: unknown[] } };
  expect(response.status, JSON.stringify(episode)).toBe(200);
  expect(episode.observation?.messages?.length).toBeGreaterThan(0);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  server = undefined;
}

/** What a step not run from the package names is there: an npm script, a command .ci/run runs, a command. */
function checkNotRun(
  step: Extract<PageStep, { kind: 'command' }>,
  reason: string,
  runnable: PageStep[],
): void {
  if (reason.startsWith('a pattern')) {
    // The words before the placeholder start a command that runs.
    const fixed = step.text.split(/\s*(?:<|…)/)[0]!;
    expect(runnable.some((other) => other.kind === 'command' && other.text.startsWith(fixed))).toBe(true);
    return;
  }
  for (const [, subcommand, ...rest] of npmParts(step.text)) {
    if (subcommand === 'run') expect(Object.keys(manifest.scripts)).toContain(rest[0]);
    else if (subcommand === 'pack') expect(rest.filter((word) => !word.startsWith('-'))).toEqual([]);
    // `npm install`, `npm start`, `npm test`: .ci/run runs them in a fresh clone.
    else expect(ciScript).toMatch(new RegExp(`^npm ${subcommand}\\b`, 'm'));
  }
}

/** One test per step of the page, in page order. */
function describeSteps(name: string, steps: PageStep[]): void {
  const runnable = steps.filter((step) => step.kind === 'program' || !notRunFromPackage(step.text));
  for (const step of steps) {
    if (step.kind === 'program') {
      it(
        `line ${step.line}: the ${step.language} example type-checks and runs`,
        () => runProgram(step, name),
        2 * commandTimeout,
      );
      continue;
    }
    const reason = notRunFromPackage(step.text);
    if (reason !== undefined)
      it(`line ${step.line}: ${step.text} — not run from the package: ${reason}`, () =>
        checkNotRun(step, reason, runnable));
    else if (/^npx hsa env serve\b/.test(step.text))
      it(`line ${step.line}: ${step.text} (on a free port, one episode)`, () => serveOnce(step), 60_000);
    else it(`line ${step.line}: ${step.text}`, () => runCommand(step), commandTimeout + 10_000);
  }
}

const readme = pageSteps(await readFile(join(projectRoot, 'README.md'), 'utf8'));
const ownHarness = pageSteps(await readFile(join(projectRoot, 'docs/own-harness.md'), 'utf8'));

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'hsa-readme-project-'));
  packFolder = await mkdtemp(join(tmpdir(), 'hsa-readme-pack-'));
  const prepare = spawnSync(process.execPath, ['scripts/prepare.mjs'], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 300_000,
  });
  expect(prepare.status, `${prepare.stdout}\n${prepare.stderr}`).toBe(0);
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packFolder], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(pack.status, pack.stderr).toBe(0);
  tarball = join(packFolder, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename);
}, 420_000);
afterAll(async () => {
  if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
  await rm(project, { recursive: true, force: true });
  await rm(packFolder, { recursive: true, force: true });
});

describe('README.md from the installed package', () => {
  beforeAll(async () => {
    const readersMaterial: Record<string, string> = {
      'tools.json': 'test/augment/fixtures/public/telecom/tools.json',
      'skills/': 'test/augment/fixtures/public/telecom/skills',
      'prompt.md': 'examples/own-harness/prompt.md',
      'logs.jsonl': 'examples/own-harness/logs.jsonl',
    };
    for (const [name, source] of Object.entries(readersMaterial))
      await cp(join(projectRoot, source), join(project, name), { recursive: true });
    const logs = await readFile(join(project, 'logs.jsonl'), 'utf8');
    const wellFormed = logs.split('\n').filter((line) => line.trim() !== '' && isJson(line));
    await writeFile(join(project, 'logs.jsonl'), `${wellFormed.join('\n')}\n`);
  });

  it('shows how to install the package, and a program to run with it', () => {
    const installs = readme.filter((step) => step.kind === 'command' && withTarball(step.text) !== step.text);
    expect(installs).toHaveLength(1);
    expect(readme.some((step) => step.kind === 'program')).toBe(true);
  });

  describeSteps('readme', readme);
});

describe('docs/own-harness.md from the installed package', () => {
  beforeAll(async () => {
    for (const path of [
      'test/augment/fixtures/public/telecom/tools.json',
      'test/augment/fixtures/public/telecom/skills',
      'examples/own-harness',
      'fixtures/importers/rules-public',
      'fixtures/importers/openai-tools.json',
      'fixtures/importers/bfcl-travel-booking.json',
    ])
      await cp(join(projectRoot, path), join(project, path), { recursive: true });
    const server = '@modelcontextprotocol/server-memory';
    const install = run('npm', ['install', `${server}@${manifest.devDependencies[server]}`]);
    expect(install.status, report(install)).toBe(0);
  }, 120_000);

  describeSteps('own-harness', ownHarness);
});
