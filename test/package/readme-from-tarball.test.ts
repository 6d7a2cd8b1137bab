// README.md from the installed package, as a reader who installs harness-augment from npm meets it. `npm pack`
// makes the tarball a release publishes (dist/ as the prepare script builds it, the same build `npm install`
// runs in a clone), an empty folder becomes the reader's project, and every step the README shows runs there,
// in the README's order: each command with a shell (`npx hsa …` finds the installed `hsa`), each TypeScript
// example type-checked in a project set up by `tsc --init` and run with tsx. The steps are read off the
// README (test/support/page-steps.ts), so a step is covered as soon as it is written; the ones not run from
// the package are classified by one rule (`notRunFromPackage`) and checked for what they name.
// Two things stand in for what a reader has and this machine does not:
//  - `npm install harness-augment` installs the tarball (0.1 is not on the npm registry yet);
//  - the README's own-harness commands read the reader's own tools.json, skills/, prompt.md and logs.jsonl:
//    the test puts public material there (tau2-bench's telecom tools and skills, the example prompt, and
//    the well-formed lines of the example logs; docs/own-harness.md shows what a torn line does).
// npm reads its cache first (prefer-offline) and asks the registry only for what the cache lacks.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitWords } from '../../src/cli/command-words.js';
import { notRunFromPackage, type PageStep, pageSteps } from '../support/page-steps.js';
import { projectRoot } from '../support/run-cli.js';

const readme = await readFile(join(projectRoot, 'README.md'), 'utf8');
const ciScript = await readFile(join(projectRoot, '.ci/run'), 'utf8');
const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as {
  name: string;
  scripts: Record<string, string>;
};
const steps = pageSteps(readme);
const runnable = steps.filter((step) => step.kind === 'program' || !notRunFromPackage(step.text));

/** The reader's own material, by the name the README gives it, and where the test takes it from. */
const readersMaterial: Record<string, string> = {
  'tools.json': 'test/augment/fixtures/public/telecom/tools.json',
  'skills/': 'test/augment/fixtures/public/telecom/skills',
  'prompt.md': 'examples/own-harness/prompt.md',
  'logs.jsonl': 'examples/own-harness/logs.jsonl',
};

const tsxCli = join(projectRoot, 'node_modules/tsx/dist/cli.mjs');
const tscCli = join(projectRoot, 'node_modules/typescript/bin/tsc');
const commandTimeout = 280_000;

let project: string;
let packFolder: string;
let tarball: string;

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

const run = (command: string, args: string[], cwd = project) =>
  spawnSync(command, args, { cwd, env: readersEnvironment(), encoding: 'utf8', timeout: commandTimeout });

const report = (result: ReturnType<typeof run>) =>
  `exit ${result.status} ${result.signal ?? ''}\n${result.stdout}\n${result.stderr}`;

/** The command with `npm install harness-augment` installing the tarball instead of the registry's package. */
function withTarball(command: string): string {
  const install = new RegExp(`^(npm (?:install|i|add)(?: \\S+)*? )${manifest.name}(?=\\s|$)`);
  return command.replace(install, (_, head: string) => `${head}${tarball}`);
}

/** The files a command names after `-o` / `--out` (it must have written them). */
function outputsNamed(command: string): string[] {
  const words = splitWords(command.replace(/\s#.*$/, ''));
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

async function runProgram(step: Extract<PageStep, { kind: 'program' }>): Promise<void> {
  const file = join(project, `readme-line-${step.line}.${step.language}`);
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

describe('README.md from the installed package', () => {
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
    for (const [name, source] of Object.entries(readersMaterial))
      await cp(join(projectRoot, source), join(project, name), { recursive: true });
    const logs = await readFile(join(project, 'logs.jsonl'), 'utf8');
    const wellFormed = logs.split('\n').filter((line) => line.trim() !== '' && isJson(line));
    await writeFile(join(project, 'logs.jsonl'), `${wellFormed.join('\n')}\n`);
  }, 420_000);
  afterAll(async () => {
    await rm(project, { recursive: true, force: true });
    await rm(packFolder, { recursive: true, force: true });
  });

  it('shows a way to install the package and runs something from it', () => {
    expect(runnable.some((step) => step.kind === 'command' && withTarball(step.text) !== step.text)).toBe(
      true,
    );
    expect(runnable.filter((step) => step.kind === 'program').length).toBeGreaterThan(0);
  });

  for (const step of steps) {
    if (step.kind === 'program') {
      it(
        `line ${step.line}: the ${step.language} example type-checks and runs`,
        () => runProgram(step),
        2 * commandTimeout,
      );
      continue;
    }
    const reason = notRunFromPackage(step.text);
    if (reason === undefined) {
      it(
        `line ${step.line}: ${step.text}`,
        () => {
          const result = run('sh', ['-c', withTarball(step.text)]);
          expect(result.status, report(result)).toBe(0);
          for (const output of outputsNamed(step.text))
            expect(existsSync(join(project, output)), output).toBe(true);
        },
        commandTimeout + 10_000,
      );
      continue;
    }
    it(`line ${step.line}: ${step.text} — not run from the package: ${reason}`, () => {
      if (reason.startsWith('a pattern')) {
        // The words before the placeholder start a command that runs.
        const fixed = step.text.split(/\s*(?:<|…)/)[0]!;
        expect(runnable.some((other) => other.kind === 'command' && other.text.startsWith(fixed))).toBe(true);
        return;
      }
      for (const part of step.text.split(/&&|\|\||;/).map((text) => text.trim().split(/\s+/))) {
        if (part[0] !== 'npm') continue;
        if (part[1] === 'run') expect(Object.keys(manifest.scripts)).toContain(part[2]);
        else if (part[1] === 'pack')
          expect(part.slice(2).filter((word) => !word.startsWith('-'))).toEqual([]);
        // `npm install`, `npm start`, `npm test`: .ci/run runs them in a fresh clone.
        else expect(ciScript).toMatch(new RegExp(`^npm ${part[1]}\\b`, 'm'));
      }
    });
  }
});
