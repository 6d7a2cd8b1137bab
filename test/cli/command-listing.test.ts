// `hsa --help`, `hsa` alone and an unknown command list the commands from src/cli/command-listing.ts without
// importing any command module. The listing must say what each command's module defines (name, order, the
// help's term and summary), and the built CLI must load no command module (nor the library's dependencies)
// to print it: the imports of the child process are recorded by a module hook.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandListing } from '../../src/cli/command-listing.js';
import { createProgram } from '../../src/cli/program.js';
import { hsaCli, projectRoot } from '../support/run-cli.js';

const folder = mkdtempSync(join(tmpdir(), 'hsa-command-listing-'));
const recorder = join(projectRoot, 'test/support/record-imports.mjs');

let runs = 0;

/** Runs the built `hsa` with `args` and returns its exit code and the URLs of the modules it imported. */
function importsOf(args: string[]): { status: number | null; stdout: string; imported: string[] } {
  const log = join(folder, `run-${++runs}.log`);
  const result = spawnSync(process.execPath, ['--import', recorder, hsaCli(), ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    env: { ...process.env, HSA_IMPORT_LOG: log, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: 120_000,
  });
  const imported = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { status: result.status, stdout: result.stdout, imported };
}

/** The bundle names the chunk of a dynamically imported module after it: `<build>/augment-<hash>.js`. */
function commandModulesIn(imported: readonly string[]): string[] {
  const build = pathToFileURL(dirname(dirname(hsaCli()))).href;
  return imported.filter((url) =>
    commandListing.some((entry) => new RegExp(`^${build}/${entry.name}-[A-Z0-9]+\\.js$`).test(url)),
  );
}

/** The packages under node_modules that were imported (by name). */
function packagesIn(imported: readonly string[]): string[] {
  const names = imported.flatMap((url) => {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    return match ? [match[1] as string] : [];
  });
  return [...new Set(names)].sort();
}

describe('the command listing', () => {
  it('lists every command of the program, in order, with the term and summary its help shows', async () => {
    const program = await createProgram();
    const help = new Help();
    const defined = program.commands.map((command) => ({
      name: command.name(),
      term: help.subcommandTerm(command),
      summary: help.subcommandDescription(command),
    }));
    const listed = commandListing.map(({ name, term, summary }) => ({ name, term, summary }));
    expect(listed).toEqual(defined);
  });

  it('prints the same help as the program with every command loaded', async () => {
    const loaded = await createProgram();
    for (const argv of [['--help'], [], ['nosuch'], ['help']]) {
      const listed = await createProgram(['node', 'hsa', ...argv]);
      expect(listed.helpInformation()).toBe(loaded.helpInformation());
    }
  });

  it('hsa --help, hsa help, hsa alone and an unknown command import no command module', () => {
    for (const args of [['--help'], ['help'], [], ['nosuch']]) {
      const run = importsOf(args);
      expect(run.status, args.join(' ')).toBe(args[0] === '--help' || args[0] === 'help' ? 0 : 2);
      expect(commandModulesIn(run.imported), args.join(' ')).toEqual([]);
      expect(packagesIn(run.imported), args.join(' ')).toEqual(['commander']);
    }
  });

  it('a command imports its own module and no other (the recording sees command modules)', () => {
    const run = importsOf(['hash', '--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Usage: hsa hash');
    expect(commandModulesIn(run.imported).map((url) => /\/([a-z-]+)-[A-Z0-9]+\.js$/.exec(url)?.[1])).toEqual([
      'hash',
    ]);
    const helpOfAugment = importsOf(['help', 'augment']);
    expect(helpOfAugment.stdout).toContain('Usage: hsa augment');
    expect(commandModulesIn(helpOfAugment.imported).length).toBe(1);
  });

  it('hsa augment (one thread, no terminal) imports only its command module, no progress bar and no thread pool', () => {
    const out = join(folder, 'rows.jsonl');
    const harness = join(projectRoot, 'fixtures/livestream/harness.yaml');
    const trajectories = join(folder, 'two.jsonl');
    const lines = readFileSync(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8').split(
      '\n',
    );
    writeFileSync(trajectories, `${lines.slice(0, 2).join('\n')}\n`);
    const run = importsOf([
      'augment',
      '--harness',
      harness,
      '--trajectories',
      trajectories,
      '--variants',
      '1',
      '--policy',
      'tools-only',
      '-o',
      out,
    ]);
    expect(run.status).toBe(0);
    expect(commandModulesIn(run.imported).map((url) => /\/([a-z-]+)-[A-Z0-9]+\.js$/.exec(url)?.[1])).toEqual([
      'augment',
    ]);
    expect(packagesIn(run.imported)).not.toContain('cli-progress');
    expect(packagesIn(run.imported)).not.toContain('piscina');
  });

  it('hsa augment --help imports its command module and no package but commander (the library is not loaded)', () => {
    const run = importsOf(['augment', '--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('--variant-pool <n>');
    expect(commandModulesIn(run.imported).length).toBe(1);
    expect(packagesIn(run.imported)).toEqual(['commander']);
  });
});
