// `hsa import logs --help` printed the help of `import` and exited 0, while `hsa import logs` failed with
// "unknown command 'logs'" (exit 2). A word that is none of a group's commands is reported the same way with
// or without a help flag, for the program and every command group.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import { runCli } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

/** The words that name each command group: `[]` for `hsa` itself, `['import']`, `['bench']` … */
function groupsOf(command: Command, words: string[] = []): string[][] {
  if (command.commands.length === 0) return [];
  return [words, ...command.commands.flatMap((child) => groupsOf(child, [...words, child.name()]))];
}

describe('--help after an unknown command', () => {
  it('hsa import logs --help fails as hsa import logs does: unknown command, exit 2', () => {
    const plain = runCli(['import', 'logs']);
    expect(plain.status).toBe(2);
    expect(plain.stderr).toContain("unknown command 'logs'");
    for (const help of ['--help', '-h']) {
      const run = runCli(['import', 'logs', help]);
      expect(run.status, help).toBe(2);
      expect(run.stderr, help).toBe(plain.stderr);
      expect(run.stdout, help).not.toContain('Usage: hsa import');
    }
  });

  it('every command group, and hsa itself, reports the unknown command with or without --help', async () => {
    const groups = groupsOf(await createProgram());
    expect(groups.length).toBeGreaterThan(3);
    for (const words of groups) {
      const plain = await hsa([...words, 'nosuch']);
      const help = await hsa([...words, 'nosuch', '--help']);
      const where = [...words, 'nosuch', '--help'].join(' ');
      expect(plain.status, where).toBe(2);
      expect(help, where).toEqual(plain);
      expect(help.stderr, where).toContain("unknown command 'nosuch'");
    }
  });

  it('hsa help nosuch and hsa import help nosuch fail as hsa nosuch and hsa import nosuch do', async () => {
    const cases: Array<{ asked: string[]; plain: string[] }> = [
      { asked: ['help', 'nosuch'], plain: ['nosuch'] },
      { asked: ['import', 'help', 'nosuch'], plain: ['import', 'nosuch'] },
    ];
    for (const { asked, plain } of cases) {
      const run = await hsa(asked);
      expect(run.status, asked.join(' ')).toBe(2);
      expect(run).toEqual(await hsa(plain));
    }
    const known = await hsa(['help', 'import']);
    expect(known.status).toBe(0);
    expect(known.stdout).toContain('Usage: hsa import ');
  });

  // BFCL's audit tried `hsa import tools`: the door is `import openai-tools`, which no spelling suggestion finds.
  it("a group's unknown command lists the group's commands", async () => {
    const run = await hsa(['import', 'tools']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("unknown command 'tools'");
    const listed = /hsa import has: ([^;\n]*);/u.exec(run.stderr)?.[1]?.split(', ');
    expect(listed).toEqual(expect.arrayContaining(['openai-tools', 'mcp', 'trajectories', 'skills']));
    expect(run.stderr).toContain('run hsa import --help for usage');
    const program = await createProgram();
    const bench = program.commands.find((command) => command.name() === 'bench') as Command;
    const nested = await hsa(['bench', 'nosuch']);
    for (const child of bench.commands) expect(nested.stderr).toContain(child.name());
  });

  it('--help on a group or a command that exists still prints its help and exits 0', async () => {
    for (const words of [['import'], ['import', 'trajectories'], [], ['bench', 'score']]) {
      const run = await hsa([...words, '--help']);
      expect(run.status, words.join(' ')).toBe(0);
      expect(run.stdout).toContain(`Usage: hsa${words.map((word) => ` ${word}`).join('')} `);
    }
  });
});
