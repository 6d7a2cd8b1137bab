// Issue 40, item 4: a pipeline fed by inputs.trajectories (a user's own logs) with an rl: stage plays the
// replay scenario over those same trajectories, instead of exiting 2 for want of inputs.simulate.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const harness = join(projectRoot, 'fixtures/helpdesk/harness.yaml');
const trajectories = join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl');

describe('hsa pipeline run: RL from inputs.trajectories', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hsa-rl-from-logs-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('plays the replay scenario over the same trajectories', async () => {
    const config = join(dir, 'pipeline.yaml');
    const out = join(dir, 'out');
    await writeFile(
      config,
      [
        `harness: ${JSON.stringify(harness)}`,
        `inputs: { trajectories: ${JSON.stringify(trajectories)} }`,
        'seed: 7',
        'augment: { variants: 0 }',
        'exports: [trl]',
        'rl: { episodes: 3, groupSize: 2, formats: [trl] }',
        `out: ${JSON.stringify(out)}`,
        '',
      ].join('\n'),
    );
    const run = await hsa(['pipeline', 'run', config, '--json']);
    expect(run.stderr).not.toMatch(/inputs\.simulate/);
    expect(run.status, run.stderr).toBe(0);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.rl).toMatchObject({ scenario: 'replay', counts: { groups: 3, rows: 3 } });
    const rows = (await readFile(join(out, 'rl', 'rows.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { scenario: string; episode: { id: string } });
    // The episodes are the logs' own conversations, by their ids.
    const logged = (await readFile(trajectories, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(rows.map((row) => row.episode.id)).toEqual(logged.slice(0, 3));
    expect(rows.every((row) => row.scenario === 'replay')).toBe(true);
  }, 180_000);
});
