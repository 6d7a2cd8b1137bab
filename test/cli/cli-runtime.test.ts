// `hsa sim run`, `hsa pipeline run` and `hsa env serve` as a user runs them.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hsaCli, projectRoot, runCli } from '../support/run-cli.js';

const harness = join(projectRoot, 'fixtures/livestream/harness.yaml');
const lines = async (file: string) =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('hsa sim run', () => {
  it('simulates episodes with faults under hat variants and writes trajectories, rewards and variants', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsa-sim-'));
    const out = join(dir, 'sim.jsonl');
    const run = runCli([
      'sim',
      'run',
      '--scenario',
      'livestream',
      '--harness',
      harness,
      '--episodes',
      '12',
      '--seed',
      'cli',
      '--augment',
      'hat',
      '--faults',
      '0.2',
      '--out',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/episodes: 12 \(oracle, augmented with hat, fault rate 0\.2\)/);
    expect(run.stdout).toMatch(/valid under their harness: 12 \/ 12/);
    // Variants run the episodes: the operators that change what the hooks enforce are left out, visibly.
    expect(run.stdout).toContain(
      'operators left out (they change what the hooks enforce, and variants run episodes): 3 (hooks/disable-untriggered, hooks/reorder, hooks/vary-budgets)',
    );
    const trajectories = await lines(out);
    const rewards = await lines(join(dir, 'sim.rewards.jsonl'));
    const variants = await lines(join(dir, 'sim.variants.jsonl'));
    expect(trajectories.map((row) => row.id)).toEqual(rewards.map((row) => row.id));
    expect(rewards.every((row) => row.valid === true)).toBe(true);
    expect(variants.length).toBe(12);
    expect(variants[0]).toHaveProperty('relabel');
  });

  it('--strict with the defaults regenerates the bundled fixture', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'hsa-fixture-')), 'trajectories.jsonl');
    const run = runCli([
      'sim',
      'run',
      '--scenario',
      'livestream',
      '--harness',
      harness,
      '--strict',
      '--out',
      out,
    ]);
    expect(run.status).toBe(0);
    expect(
      (await readFile(out, 'utf8')) ===
        (await readFile(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8')),
    ).toBe(true);
  });

  it('refuses a model policy without an endpoint, and a harness without the live-stream tools', async () => {
    const noEndpoint = runCli([
      'sim',
      'run',
      '--scenario',
      'livestream',
      '--harness',
      harness,
      '--policy',
      'model',
      '--out',
      '/tmp/never.jsonl',
    ]);
    expect(noEndpoint.status).toBe(2);
    expect(noEndpoint.stderr).toMatch(/--endpoint and --model/);
    const dir = await mkdtemp(join(tmpdir(), 'hsa-sim-'));
    const other = join(dir, 'other.yaml');
    await writeFile(other, (await readFile(harness, 'utf8')).replaceAll('search_catalog', 'find_products'));
    const wrong = runCli([
      'sim',
      'run',
      '--scenario',
      'livestream',
      '--harness',
      other,
      '--out',
      join(dir, 'x.jsonl'),
    ]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/lacks search_catalog/);
  });
});

describe('hsa pipeline run', () => {
  it('runs a config into an output folder with exports and a manifest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsa-pipeline-'));
    const config = join(dir, 'pipeline.yaml');
    await writeFile(
      config,
      [
        `harness: ${harness}`,
        'inputs: { simulate: { scenario: livestream, episodes: 10, seed: cli } }',
        'augment: { policy: hat, variants: 2 }',
        'teacher: { exact: replay, regenerate: oracle }',
        'exports: [trl, { llama-factory: { datasetName: cli_set } }]',
        'out: out',
        '',
      ].join('\n'),
    );
    const run = runCli(['pipeline', 'run', config]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/tasks: 10; units: 30 = 30 examples \+ 0 rejected/);
    const manifest = JSON.parse(await readFile(join(dir, 'out', 'manifest.json'), 'utf8'));
    expect(manifest.counts).toMatchObject({ tasks: 10, units: 30, examples: 30 });
    expect(manifest.exports.map((entry: { format: string }) => entry.format)).toEqual([
      'trl',
      'llama-factory',
    ]);
    const info = JSON.parse(
      await readFile(join(dir, 'out', 'exports', 'llama-factory', 'dataset_info.json'), 'utf8'),
    );
    expect(Object.keys(info)).toEqual(['cli_set']);
  });

  it('names the file, the path and the rule of a bad config', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsa-pipeline-'));
    const config = join(dir, 'bad.yaml');
    await writeFile(config, `harness: ${harness}\ninputs: { trajectories: t.jsonl }\nconcurrency: many\n`);
    const run = runCli(['pipeline', 'run', config]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('bad.yaml is invalid');
    expect(run.stdout).toMatch(/bad\.yaml:3 \$\.concurrency: .*expected number/);
  });
});

describe('hsa env serve', () => {
  it('listens on 127.0.0.1, answers /health and /reset, and stops on SIGINT', async () => {
    const child = spawn(
      process.execPath,
      [hsaCli(), 'env', 'serve', '--scenario', 'livestream', '--harness', harness, '--port', '0'],
      { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    while (!/listening on (http:\/\/127\.0\.0\.1:\d+)/.test(output))
      await new Promise((resolve) => setTimeout(resolve, 20));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const reset = await fetch(`${url}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seed: 'cli', index: 0 }),
    });
    expect(reset.status).toBe(200);
    const body = (await reset.json()) as { episode_id: string; observation: { messages: unknown[] } };
    expect(body.observation.messages.length).toBeGreaterThan(1);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
