// `hsa sim run --scenario replay` as a user runs it on the helpdesk fixture: the gold replayed under the
// base harness and under `hat` variants scores 1 on tool-call match, skill selection and hook compliance
// in every episode, the base-names player scores lower, and bad files are refused naming file and line.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, runCli } from '../support/run-cli.js';

const harness = join(projectRoot, 'fixtures/helpdesk/harness.yaml');
const trajectories = join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl');
const dir = await mkdtemp(join(tmpdir(), 'hsa-replay-'));
const reports = async (file: string) =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: string; rewards: Record<string, number> });

const replay = (name: string, ...extra: string[]) => {
  const out = join(dir, `${name}.jsonl`);
  const run = runCli(
    [
      'sim',
      'run',
      '--scenario',
      'replay',
      '--harness',
      harness,
      '--trajectories',
      trajectories,
      '--out',
      out,
      ...extra,
    ],
    { typescript: extra.includes('--backends') },
  ); // a backends file here names a TypeScript module
  return { run, out, report: join(dir, `${name}.rewards.jsonl`) };
};
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const gated = ['toolCallMatch', 'skillSelection', 'hookCompliance'];

describe('hsa sim run --scenario replay', () => {
  it('replays the gold at 1.0 under the base harness and under hat variants; base names score lower', async () => {
    const logged = (await readFile(trajectories, 'utf8')).trim().split('\n');
    const base = replay('base');
    expect(base.run.stderr).toBe('');
    expect(base.run.status).toBe(0);
    // Under the base harness the replay is the log itself.
    expect(
      (await readFile(base.out, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).messages),
    ).toEqual(logged.map((line) => JSON.parse(line).messages));
    const variants = replay('hat-gold', '--augment', 'hat', '--seed', '7');
    expect(variants.run.status).toBe(0);
    expect(variants.run.stdout).toMatch(/episodes without a certified variant: 0/);
    for (const { report } of [base, variants]) {
      const rows = await reports(report);
      expect(rows).toHaveLength(logged.length);
      for (const row of rows)
        for (const name of gated) expect(row.rewards[name], `${row.id} ${name}`).toBe(1);
    }
    const memorised = replay('hat-base-names', '--augment', 'hat', '--seed', '7', '--player', 'base-names');
    // Its calls name tools and skills the variants do not have: some trajectories are invalid (exit 1).
    expect(memorised.run.stdout).toMatch(/episodes: 84/);
    const rows = await reports(memorised.report);
    for (const name of gated) expect(mean(rows.map((row) => row.rewards[name]!))).toBeLessThan(0.9);
  }, 180_000);

  it('serves the tools from the fixture module: the same trajectories as the recorded results', async () => {
    const backends = join(dir, 'backends.yaml');
    await writeFile(backends, `default:\n  module: ${join(projectRoot, 'fixtures/helpdesk/tools.ts')}\n`);
    const recorded = replay('recorded', '--episodes', '20', '--seed', '3');
    const module = replay('module', '--episodes', '20', '--seed', '3', '--backends', backends);
    expect(module.run.stderr).toBe('');
    expect(module.run.status).toBe(0);
    expect(await readFile(module.out, 'utf8')).toBe(await readFile(recorded.out, 'utf8'));
  }, 60_000);

  it('refuses a trajectories file with bad lines, naming each line', async () => {
    const [first, second] = (await readFile(trajectories, 'utf8')).trim().split('\n');
    const broken = JSON.parse(second!);
    broken.messages[2].tool_calls[0].function.name = 'no_such_tool';
    const file = join(dir, 'bad.jsonl');
    await writeFile(file, `${first}\n{"id":\n${JSON.stringify(broken)}\n${first}\n`);
    const run = runCli([
      'sim',
      'run',
      '--scenario',
      'replay',
      '--harness',
      harness,
      '--trajectories',
      file,
      '--out',
      join(dir, 'x.jsonl'),
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`${file}:2 $: invalid JSON`);
    expect(run.stdout).toMatch(
      new RegExp(`${file}:3 \\$\\.messages\\[2\\]\\.tool_calls\\[0\\]\\.function\\.name: .*no_such_tool`),
    );
    expect(run.stdout).toContain(`${file}:4 $.id: trajectory id`);
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('refuses a bad backends file with file and line, and bad options as usage errors', async () => {
    const file = join(dir, 'bad-backends.yaml');
    await writeFile(
      file,
      'default: recorded\ntools:\n  get_user:\n    mcp: { url: "ftp://example" }\n  reset_password: 3\n',
    );
    const run = runCli([
      'sim',
      'run',
      '--scenario',
      'replay',
      '--harness',
      harness,
      '--trajectories',
      trajectories,
      '--backends',
      file,
      '--out',
      join(dir, 'x.jsonl'),
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`${file}:4 $.tools.get_user.mcp.url: expected an http:// or https:// URL`);
    expect(run.stdout).toContain(`${file}:5 $.tools.reset_password: expected recorded, { module: <path> }`);
    const unknown = join(dir, 'unknown-tool.yaml');
    await writeFile(unknown, 'tools:\n  no_such_tool: recorded\n');
    const check = runCli([
      'sim',
      'run',
      '--scenario',
      'replay',
      '--harness',
      harness,
      '--trajectories',
      trajectories,
      '--backends',
      unknown,
      '--out',
      join(dir, 'x.jsonl'),
    ]);
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(
      /\$\.backends\.tools\.no_such_tool: a backend is chosen for tool "no_such_tool"/,
    );
    const missing = runCli([
      'sim',
      'run',
      '--scenario',
      'replay',
      '--harness',
      harness,
      '--out',
      join(dir, 'x.jsonl'),
    ]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/needs --trajectories/);
    const player = replay('bad-player', '--player', 'memoriser');
    expect(player.run.status).toBe(2);
    expect(player.run.stderr).toMatch(/--player must be gold or base-names/);
  });
});
