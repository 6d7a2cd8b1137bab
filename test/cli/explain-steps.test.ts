// `hsa explain` names what each relabel step acts on: a variant that nests the arguments of several tools
// printed "relabel nest_arguments" once per tool, without the tool (issue 40, item 7).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const harness = join(projectRoot, 'fixtures/helpdesk/harness.yaml');

describe('hsa explain: relabel steps', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hsa-explain-steps-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('prints each nest_arguments step with its tool and wrapper, one distinct line each', async () => {
    const policy = join(dir, 'nest.yaml');
    await writeFile(
      policy,
      'name: nest-only\nseverity: heavy\ndimensions:\n  tools:\n    probability: 1\n    operators: [tools/nest-arguments]\n',
    );
    const gold = (await readFile(join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl'), 'utf8')).split(
      '\n',
    )[0];
    const trajectories = join(dir, 'gold.jsonl');
    await writeFile(trajectories, `${gold}\n`);
    const rows = join(dir, 'rows.jsonl');
    const augmented = await hsa([
      'augment',
      '--harness',
      harness,
      '--trajectories',
      trajectories,
      '--policy-file',
      policy,
      '--variants',
      '1',
      '--out',
      rows,
    ]);
    expect(augmented.status, augmented.stderr).toBe(0);
    const row = JSON.parse((await readFile(rows, 'utf8')).split('\n')[0]!);
    const run = await hsa(['explain', rows, '--id', row.id, '--harness', harness]);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.split('\n').filter((line) => line.includes('relabel nest_arguments'));
    expect(lines.length).toBeGreaterThan(1);
    expect(new Set(lines).size).toBe(lines.length);
    for (const line of lines)
      expect(line).toMatch(/relabel nest_arguments [\w-]+: its arguments under [\w-]+$/);
    expect(run.stdout).toContain('relabel nest_arguments lookup_user: its arguments under ');
  }, 120_000);
});
