// No command replaces its own input (issue 44, item 1): every command that writes, given one of its inputs
// as an output (the same path, a hard link to it, a file of an input folder, or a folder it clears that holds
// it), exits 2 before it opens anything for writing, names both paths, and leaves the input byte for byte.
// The commands are enumerated from the program, so a new command that writes fails here until it has a case.
import {
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createProgram } from '../../src/cli/program.js';
import { assertOutputAllowed } from '../../src/harness/output-guard.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const folder = mkdtempSync(join(tmpdir(), 'hsa-output-is-input-'));
const at = (name: string) => join(folder, name);
const fixture = (path: string) => join(projectRoot, 'fixtures', path);

/** A run that must be refused: its argv, and the input it names as an output. */
interface Case {
  command: string;
  args: string[];
  input: string;
}

let skillName = '';

const cases = (): Case[] => [
  { command: 'render', args: [at('h.yaml'), '-o', at('h.yaml')], input: at('h.yaml') },
  { command: 'render', args: [at('h.yaml'), '-c', at('c.json'), '-o', at('c.json')], input: at('c.json') },
  { command: 'import mcp', args: [at('mcp.json'), '-o', at('mcp.json')], input: at('mcp.json') },
  {
    command: 'import openai-tools',
    args: [at('openai.json'), '-o', at('openai.json')],
    input: at('openai.json'),
  },
  {
    command: 'import skills',
    args: [at('skills'), '-o', at(`skills/${firstEntry(at('skills'))}/SKILL.md`)],
    input: at(`skills/${firstEntry(at('skills'))}/SKILL.md`),
  },
  {
    command: 'import trajectories',
    args: [at('t.jsonl'), '--harness', at('h.yaml'), '-o', at('t.jsonl')],
    input: at('t.jsonl'),
  },
  {
    command: 'import trajectories',
    args: [at('t.jsonl'), '--harness', at('h.yaml'), '-o', at('imported.jsonl'), '--rejects', at('t.jsonl')],
    input: at('t.jsonl'),
  },
  {
    command: 'harness build',
    args: ['-o', at('openai.json'), '--openai-tools', at('openai.json')],
    input: at('openai.json'),
  },
  { command: 'export mcp', args: [at('h.yaml'), '-o', at('h.yaml')], input: at('h.yaml') },
  { command: 'export openai-tools', args: [at('h.yaml'), '-o', at('h-link.yaml')], input: at('h.yaml') },
  // A SKILL.md the export would write is a hard link to the harness it reads.
  { command: 'export skills', args: [at('h.yaml'), '-o', at('skills-out')], input: at('h.yaml') },
  {
    command: 'augment',
    args: ['--harness', at('h.yaml'), '--trajectories', at('t.jsonl'), '-o', at('t.jsonl')],
    input: at('t.jsonl'),
  },
  {
    command: 'augment',
    args: [
      '--harness',
      at('h.yaml'),
      '--trajectories',
      at('t.jsonl'),
      '-o',
      at('rows.jsonl'),
      '--rejects',
      at('t.jsonl'),
    ],
    input: at('t.jsonl'),
  },
  {
    command: 'augment',
    args: [
      '--harness',
      at('h.yaml'),
      '--trajectories',
      at('t.jsonl'),
      '-o',
      at('rows.jsonl'),
      '--sidecar',
      at('h.yaml'),
    ],
    input: at('h.yaml'),
  },
  {
    command: 'invert',
    args: ['--rows', at('t.jsonl'), '--id', 'x/0', '--output', at('c.json'), '-o', at('c.json')],
    input: at('c.json'),
  },
  {
    command: 'bench generate',
    args: ['--items', at('t.jsonl'), '--harness', at('h.yaml'), '-o', at('t.jsonl')],
    input: at('t.jsonl'),
  },
  {
    command: 'bench predict',
    args: ['--bench', at('t.jsonl'), '--endpoint', 'http://127.0.0.1:1', '--model', 'm', '-o', at('t.jsonl')],
    input: at('t.jsonl'),
  },
  {
    command: 'bench score',
    args: ['--bench', at('t.jsonl'), '--predictions', at('c.json'), '-o', at('c.json')],
    input: at('c.json'),
  },
  // The scores file is where the report would be written.
  {
    command: 'bench report',
    args: ['--scores', at('report/report.md'), '-o', at('report')],
    input: at('report/report.md'),
  },
  {
    command: 'bench items',
    args: ['--harness', at('h.yaml'), '--trajectories', at('t.jsonl'), '-o', at('t.jsonl')],
    input: at('t.jsonl'),
  },
  {
    command: 'review',
    args: [at('t.jsonl'), '--harness', at('h.yaml'), '-o', at('h.yaml')],
    input: at('h.yaml'),
  },
  // The items it reads lie where it writes the carried items.
  {
    command: 'bench next-version',
    args: [
      '--harness',
      at('h.yaml'),
      '--next',
      at('h.yaml'),
      '--items',
      at('next/items.jsonl'),
      '-o',
      at('next'),
    ],
    input: at('next/items.jsonl'),
  },
  // A harness version it reads lies where the drift report goes.
  {
    command: 'drift',
    args: ['--harness', at('drift/drift.json'), at('h.yaml'), '-o', at('drift')],
    input: at('drift/drift.json'),
  },
  {
    command: 'sim run',
    args: [
      '--harness',
      at('h.yaml'),
      '--scenario',
      'livestream',
      '--episodes',
      '1',
      '-o',
      at('sim.jsonl'),
      '--report',
      at('h.yaml'),
    ],
    input: at('h.yaml'),
  },
  // The harness lies in the exports folder a fresh run clears.
  {
    command: 'pipeline run',
    args: [at('pipeline.yaml'), '-o', at('pipeline')],
    input: at('pipeline/exports/h.yaml'),
  },
  {
    command: 'latency',
    args: [
      '--endpoint',
      'http://127.0.0.1:1',
      '--model',
      'm',
      '--harness',
      at('lat/latency.json'),
      '--scenario',
      'livestream',
      '-o',
      at('lat'),
    ],
    input: at('lat/latency.json'),
  },
  {
    command: 'demo',
    args: ['--harness', at('h.yaml'), '--trajectories', at('demo/inputs/train.jsonl'), '-o', at('demo')],
    input: at('demo/inputs/train.jsonl'),
  },
];

/** Commands that write but read no file a user names: nothing of theirs to protect. */
const readNoFile = ['schema'];

function firstEntry(dir: string): string {
  return readdirSync(dir).sort()[0] as string;
}

function writingCommands(command: Command, prefix: string[] = []): string[] {
  return command.commands.flatMap((child) => {
    const path = [...prefix, child.name()];
    if (child.commands.length > 0) return writingCommands(child, path);
    return child.options.some((option) => option.long === '--out') ? [path.join(' ')] : [];
  });
}

beforeAll(async () => {
  cpSync(fixture('livestream/harness.yaml'), at('h.yaml'));
  linkSync(at('h.yaml'), at('h-link.yaml'));
  cpSync(fixture('livestream/contexts/example.json'), at('c.json'));
  cpSync(fixture('importers/mcp-tools-list.json'), at('mcp.json'));
  cpSync(fixture('importers/openai-tools.json'), at('openai.json'));
  cpSync(fixture('importers/skills'), at('skills'), { recursive: true });
  const lines = readFileSync(fixture('livestream/trajectories.jsonl'), 'utf8').split('\n').slice(0, 2);
  writeFileSync(at('t.jsonl'), `${lines.join('\n')}\n`);
  // Where `export skills` writes its first skill: a hard link to the harness waits there.
  const reference = await hsa(['export', 'skills', at('h.yaml'), '-o', at('skills-reference'), '--json']);
  skillName = firstEntry(at('skills-reference'));
  expect(reference.status).toBe(0);
  mkdirSync(at(`skills-out/${skillName}`), { recursive: true });
  linkSync(at('h.yaml'), at(`skills-out/${skillName}/SKILL.md`));
  mkdirSync(at('next'));
  cpSync(at('t.jsonl'), at('next/items.jsonl'));
  mkdirSync(at('drift'));
  writeFileSync(at('drift/drift.json'), JSON.stringify(parse(readFileSync(at('h.yaml'), 'utf8'))));
  mkdirSync(at('report'));
  writeFileSync(at('report/report.md'), '{"not": "scores"}\n');
  mkdirSync(at('pipeline/exports'), { recursive: true });
  cpSync(at('h.yaml'), at('pipeline/exports/h.yaml'));
  writeFileSync(
    at('pipeline.yaml'),
    `harness: ${at('pipeline/exports/h.yaml')}\ninputs: { simulate: { scenario: livestream, episodes: 1 } }\nexports: [trl]\n`,
  );
  mkdirSync(at('lat'));
  cpSync(at('h.yaml'), at('lat/latency.json'));
  // The demo writes `inputs/train.jsonl` in its folder: gold trajectories kept there are an input it holds.
  mkdirSync(at('demo/inputs'), { recursive: true });
  cpSync(at('t.jsonl'), at('demo/inputs/train.jsonl'));
}, 120_000);

describe('an output that is an input is refused, and the input stays byte for byte', () => {
  it('has a case for every command that writes and reads a named file', async () => {
    const program = await createProgram();
    const covered = new Set(cases().map((entry) => entry.command));
    const missing = writingCommands(program).filter(
      (command) => !covered.has(command) && !readNoFile.includes(command),
    );
    expect(missing).toEqual([]);
  });

  it('every case exits 2 with both paths named, before anything is written', {
    timeout: 60_000,
  }, async () => {
    for (const entry of cases()) {
      const before = readFileSync(entry.input);
      const run = await hsa([...entry.command.split(' '), ...entry.args]);
      const label = `${entry.command} ${entry.args.join(' ')}`;
      expect.soft(run.status, `${label}: ${run.stderr}`).toBe(2);
      expect.soft(run.stderr, label).toMatch(/cannot write: (it is|it would be cleared)/);
      expect.soft(run.stderr, label).toContain(folder);
      expect.soft(readFileSync(entry.input).equals(before), `${label}: the input changed`).toBe(true);
    }
  });
});

describe('links inside an output folder (issue 44, item 2)', () => {
  it('export skills refuses a link it did not create inside the folder, and writes nothing through it', async () => {
    const elsewhere = at('elsewhere');
    mkdirSync(elsewhere);
    const out = at('skills-with-link');
    mkdirSync(out);
    symlinkSync(elsewhere, join(out, skillName));
    const run = await hsa(['export', 'skills', at('h.yaml'), '-o', out]);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `${join(out, skillName)}: cannot write through it: a symbolic link inside the output folder ${out}`,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
    // Refused before the first write: no other skill was written either.
    expect(readdirSync(out)).toEqual([skillName]);
  });

  it('a link named as the output folder is followed, as asked', async () => {
    const target = at('bigger-disk');
    mkdirSync(target);
    symlinkSync(target, at('skills-link'));
    const run = await hsa(['export', 'skills', at('h.yaml'), '-o', at('skills-link')]);
    expect(run.status, run.stderr).toBe(0);
    expect(readdirSync(target)).toContain(skillName);
  });

  it('a file a folder command writes through a link inside its folder is refused too (bench report)', async () => {
    const out = at('report-with-link');
    mkdirSync(out);
    symlinkSync(at('elsewhere-report.md'), join(out, 'report.md'));
    const run = await hsa(['bench', 'report', '--scores', at('no-scores.json'), '-o', out]);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain('cannot write through it: a symbolic link inside the output folder');
    expect(existsSync(at('elsewhere-report.md'))).toBe(false);
  });

  // A command's inputs are protected while it runs, not after: a library call in the same process (a test, a
  // service that runs commands) writes freely, and an input deleted since then may leave its file identity to
  // a new file (a false "it is the input" was seen between two test files sharing a process).
  it("after an in-process command, its inputs and output folders no longer bind the process's writes", async () => {
    const input = at('released.yaml');
    cpSync(fixture('livestream/harness.yaml'), input);
    const during = await hsa(['render', input, '-o', input]);
    expect(during.status, during.stderr).toBe(2);
    const run = await hsa(['validate', input]);
    expect(run.status, run.stderr).toBe(0);
    await expect(assertOutputAllowed(input)).resolves.toBeUndefined();
  });
});
