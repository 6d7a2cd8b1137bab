// `hsa pipeline run` with opd and rl sections, as a user runs it: SFT, OPD and RL data in one go, the
// stages named in the summary, and a bad rl section refused with the config line (exit 1).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot, runCli } from '../support/run-cli.js';

const dir = await mkdtemp(join(tmpdir(), 'hsa-cli-full-loop-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
const harness = join(projectRoot, 'fixtures/livestream/harness.yaml');
const prompts = join(projectRoot, 'fixtures/opd/prompts.jsonl');

describe('hsa pipeline run with opd and rl', () => {
  it('writes SFT, OPD and RL data in one run', async () => {
    const config = join(dir, 'loop.yaml');
    await writeFile(
      config,
      [
        `harness: ${harness}`,
        'inputs: { simulate: { scenario: livestream, episodes: 3, seed: loop } }',
        'augment: { policy: hat, variants: 1 }',
        'exports: [trl]',
        `opd: { prompts: ${prompts}, teacher: Qwen/Qwen3-4B }`,
        'rl: { episodes: 3, groupSize: 2, harnessPer: rollout, segments: split, formats: [trl, verl] }',
        'out: out',
        '',
      ].join('\n'),
    );
    const run = runCli(['pipeline', 'run', config]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/opd {11}52 prompt-only \+ 52 GKD rows, teacher Qwen\/Qwen3-4B/);
    // 3 groups × 2 rollouts × 2 segments.
    expect(run.stdout).toMatch(/rl {12}12 rows in 3 groups/);
    const manifest = JSON.parse(await readFile(join(dir, 'out', 'manifest.json'), 'utf8'));
    expect(manifest.rl).toMatchObject({
      harnessPer: 'rollout',
      segments: 'split',
      counts: { groups: 3, rows: 12 },
    });
    const rows = (await readFile(join(dir, 'out', 'rl', 'rows.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows.map((row) => row.rollout)).toEqual([0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1]);
    for (const row of rows)
      if (row.state === 'augmented') expect(row.reset.harness.variant_index).toBe(row.rollout);
  }, 180_000);

  it('refuses a bad rl section with its line', async () => {
    const config = join(dir, 'bad.yaml');
    await writeFile(
      config,
      [
        `harness: ${harness}`,
        'inputs: { simulate: { scenario: livestream, episodes: 3 } }',
        'rl:',
        '  augmentedShare: 2',
        '',
      ].join('\n'),
    );
    const run = runCli(['pipeline', 'run', config]);
    expect(run.status).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toMatch(/bad\.yaml:4 \$\.rl\.augmentedShare: Too big/);
  }, 60_000);
});
