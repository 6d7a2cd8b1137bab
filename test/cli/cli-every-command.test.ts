// Every command honours the global output switches: with `--json` its standard output is one JSON document,
// with `--quiet` it prints nothing there (what it writes goes to the files named with -o). The commands are
// enumerated from the program itself, so a new command fails this test until it has a case here.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../support/fake-openai-server.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const folder = mkdtempSync(join(tmpdir(), 'hsa-every-command-'));
const fixture = (path: string) => join(projectRoot, 'fixtures', path);
const harness = fixture('livestream/harness.yaml');
// The first dozen of the fixture's trajectories: the test is about what each command prints, not volume.
const trajectories = join(folder, 'trajectories.jsonl');
let model: FakeOpenAIServer;

/** One run of a command: its argv under a mode's folder, and the exit code it must give. */
interface Case {
  command: string;
  args: (dir: string) => string[];
  status?: number;
  /** Runs until stopped: played in a child process (with `--port`) and stopped with SIGTERM once it listens. */
  server?: true;
}

const cases: Case[] = [
  { command: 'validate', args: () => [harness, '--trajectories', trajectories] },
  {
    command: 'render',
    args: (dir) => [harness, '-c', fixture('livestream/contexts/example.json'), '-o', join(dir, 'prompt.md')],
  },
  {
    command: 'import mcp',
    args: (dir) => [fixture('importers/mcp-tools-list.json'), '-o', join(dir, 'mcp.yaml')],
  },
  {
    command: 'import openai-tools',
    args: (dir) => [fixture('importers/openai-tools.json'), '-o', join(dir, 'openai.yaml')],
  },
  { command: 'import skills', args: (dir) => [fixture('importers/skills'), '-o', join(dir, 'skills.yaml')] },
  {
    command: 'import trajectories',
    args: (dir) => [trajectories, '--harness', harness, '-o', join(dir, 'imported.jsonl')],
  },
  {
    command: 'harness build',
    args: (dir) => [
      '-o',
      join(dir, 'built.yaml'),
      '--openai-tools',
      fixture('importers/openai-tools.json'),
      '--skills',
      fixture('importers/skills'),
    ],
  },
  { command: 'export mcp', args: (dir) => [harness, '-o', join(dir, 'tools.mcp.json')] },
  { command: 'export openai-tools', args: (dir) => [harness, '-o', join(dir, 'tools.openai.json')] },
  { command: 'export skills', args: (dir) => [harness, '-o', join(dir, 'skills')] },
  { command: 'schema', args: (dir) => ['-o', join(dir, 'harness.schema.json')] },
  { command: 'hash', args: () => [harness] },
  {
    command: 'drift',
    args: (dir) => [
      '--harness',
      harness,
      harness,
      '--policy',
      'tools-only',
      '--samples',
      '1',
      '-o',
      join(dir, 'drift'),
    ],
  },
  {
    command: 'augment',
    args: (dir) => [
      '--harness',
      harness,
      '--trajectories',
      trajectories,
      '--variants',
      '1',
      '-o',
      join(dir, 'rows.jsonl'),
    ],
  },
  { command: 'explain', args: (dir) => [join(dir, 'rows.jsonl'), '--limit', '1'] },
  {
    command: 'review',
    args: (dir) => [
      join(dir, 'rows.jsonl'),
      '--harness',
      harness,
      '-o',
      join(dir, 'review.html'),
      '--sample',
      '2',
    ],
  },
  {
    command: 'invert',
    args: (dir) => [
      '--rows',
      join(dir, 'rows.jsonl'),
      '--id',
      'ls-0001/0',
      '--output',
      join(folder, 'output.json'),
      '-o',
      join(dir, 'inverted.json'),
    ],
  },
  { command: 'operators', args: () => [] },
  {
    command: 'bench items',
    args: (dir) => ['--harness', harness, '--trajectories', trajectories, '-o', join(dir, 'items.jsonl')],
  },
  {
    command: 'bench generate',
    args: (dir) => [
      '--items',
      join(folder, 'items.jsonl'),
      '--harness',
      harness,
      '--variants',
      '1',
      '-o',
      join(dir, 'bench.jsonl'),
    ],
  },
  {
    // The harness as its own next version: every item carried, rows under both.
    command: 'bench next-version',
    args: (dir) => [
      '--harness',
      harness,
      '--next',
      harness,
      '--items',
      join(folder, 'items.jsonl'),
      '-o',
      join(dir, 'next-version'),
    ],
  },
  {
    command: 'bench predict',
    args: (dir) => [
      '--bench',
      join(dir, 'bench.jsonl'),
      '--endpoint',
      model.url,
      '--model',
      'agent',
      '-o',
      join(dir, 'predictions.jsonl'),
    ],
  },
  {
    command: 'bench score',
    args: (dir) => [
      '--bench',
      join(dir, 'bench.jsonl'),
      '--predictions',
      join(dir, 'predictions.jsonl'),
      '--resamples',
      '10',
      '-o',
      join(dir, 'scores.json'),
    ],
  },
  {
    command: 'bench report',
    args: (dir) => ['--scores', join(dir, 'scores.json'), '-o', join(dir, 'report')],
  },
  {
    command: 'sim run',
    args: (dir) => [
      '--harness',
      harness,
      '--scenario',
      'livestream',
      '--episodes',
      '2',
      '-o',
      join(dir, 'sim.jsonl'),
    ],
  },
  {
    command: 'env serve',
    args: () => ['--harness', harness, '--scenario', 'livestream'],
    server: true,
  },
  { command: 'pipeline run', args: (dir) => [join(folder, 'pipeline.yaml'), '-o', join(dir, 'pipeline')] },
  {
    // No Redis listens there: the worker fails to connect, and says so as JSON under --json.
    command: 'worker',
    args: () => ['--queue', 'redis://127.0.0.1:1', '--connect-timeout', '300'],
    status: 2,
  },
  {
    command: 'latency',
    args: (dir) => [
      '--endpoint',
      model.url,
      '--model',
      'agent',
      '--harness',
      harness,
      '--scenario',
      'livestream',
      '--episodes',
      '1',
      '-o',
      join(dir, 'latency'),
    ],
  },
  {
    command: 'demo',
    args: (dir) => [
      '--no-ablation',
      '--train-tasks',
      '4',
      '--steps',
      '1',
      '--bench-items',
      '2',
      '--bench-variants',
      '1',
      '-o',
      join(dir, 'demo'),
    ],
  },
  { command: 'check-exports', args: (dir) => [join(dir, 'pipeline', 'exports', 'trl')] },
];

function leafCommands(command: Command, prefix: string[] = []): string[] {
  return command.commands.flatMap((child) => {
    const path = [...prefix, child.name()];
    return child.commands.length === 0 ? [path.join(' ')] : leafCommands(child, path);
  });
}

/** A port free a moment ago, for a server command to listen on. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Runs a server command in a child process, stops it with SIGTERM once it listens, and returns what it printed. */
async function runServer(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), ...args, '--port', String(port)],
    { cwd: projectRoot, env: { ...process.env, NO_COLOR: '1' } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (status) => resolve(status)));
  let running = true;
  void exited.then(() => {
    running = false;
  });
  while (running && !(await listening(port))) await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill('SIGTERM');
  return { status: await exited, stdout, stderr };
}

async function run(entry: Case, mode: '--json' | '--quiet') {
  const dir = join(folder, mode.slice(2));
  const argv = [...entry.command.split(' '), ...entry.args(dir), mode];
  return entry.server ? runServer(argv) : hsa(argv);
}

beforeAll(async () => {
  model = await startFakeOpenAIServer({ respond: () => ({ content: 'ok' }) });
  const lines = readFileSync(fixture('livestream/trajectories.jsonl'), 'utf8').split('\n').slice(0, 12);
  writeFileSync(trajectories, `${lines.join('\n')}\n`);
  // Two bench items keep `bench predict` short.
  const items = readFileSync(fixture('livestream/bench/items.jsonl'), 'utf8').split('\n').slice(0, 2);
  writeFileSync(join(folder, 'items.jsonl'), `${items.join('\n')}\n`);
  writeFileSync(join(folder, 'output.json'), JSON.stringify({ role: 'assistant', content: 'ok' }));
  writeFileSync(
    join(folder, 'pipeline.yaml'),
    [
      `harness: ${harness}`,
      'inputs: { simulate: { scenario: livestream, episodes: 2, seed: every-command } }',
      'augment: { policy: hat, variants: 1 }',
      'exports: [trl]',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await model?.close();
});

describe('every command honours --json and --quiet', () => {
  it('has a case for every command of the program', async () => {
    const program = await createProgram();
    expect(cases.map((entry) => entry.command).sort()).toEqual(leafCommands(program).sort());
  });

  it('--json: standard output is one JSON document', { timeout: 900_000 }, async () => {
    for (const entry of cases) {
      const result = await run(entry, '--json');
      expect.soft(result.status, `${entry.command}: ${result.stderr}`).toBe(entry.status ?? 0);
      expect
        .soft(() => JSON.parse(result.stdout), `${entry.command} --json printed:\n${result.stdout}`)
        .not.toThrow();
    }
  });

  it('--quiet: nothing on standard output', { timeout: 900_000 }, async () => {
    for (const entry of cases) {
      const result = await run(entry, '--quiet');
      expect.soft(result.status, `${entry.command}: ${result.stderr}`).toBe(entry.status ?? 0);
      expect.soft(result.stdout, `${entry.command} --quiet`).toBe('');
    }
    expect(readdirSync(join(folder, 'quiet'))).toContain('rows.jsonl');
  });
});
