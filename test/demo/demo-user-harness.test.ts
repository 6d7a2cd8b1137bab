// `hsa demo --harness --trajectories` on a harness the project did not write: tau-bench's retail domain
// (test/demo/fixtures/tau-bench-retail), its logs brought under the harness by `hsa import trajectories`
// as a user would, then the demo at small settings. The split is by trajectory, the bench renames into a
// vocabulary training never draws from, and a tiny input is told plainly that it is too small to decide.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vocabularyPart } from '../../src/augment/vocabulary.js';
import type { BenchRow } from '../../src/bench/schema.js';
import type { DemoSummary } from '../../src/demo/summary.js';
import { addTrainingNames } from '../../src/demo/training-names.js';
import { type CliRun, projectRoot, runCli } from '../support/run-cli.js';

const material = join(projectRoot, 'test/demo/fixtures/tau-bench-retail');
const harness = join(material, 'harness.yaml');
const small = ['--no-ablation', '--train-tasks', '16', '--bench-items', '8', '--bench-variants', '1'];
let folder: string;
let gold: string;
let imported: CliRun;
let run: CliRun;
let summary: DemoSummary;

const jsonLines = async <T>(file: string): Promise<T[]> =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hsa-demo-user-'));
  gold = join(folder, 'gold.jsonl');
  imported = runCli([
    'import',
    'trajectories',
    '--harness',
    harness,
    join(material, 'logs.jsonl'),
    '-o',
    gold,
  ]);
  run = runCli(
    ['demo', '--harness', harness, '--trajectories', gold, '--out', join(folder, 'out'), '--seed', '7']
      .concat(small)
      .concat(['--steps', '80']),
    { timeout: 300_000 },
  );
  summary = JSON.parse(await readFile(join(folder, 'out', 'summary.json'), 'utf8'));
}, 400_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('hsa demo on a user harness', () => {
  it('imports the public logs and runs end to end, with a verdict in the report', async () => {
    expect(imported.status).toBe(0);
    expect(imported.stdout).toMatch(/read 243 log lines: 243 written \+ 0 rejected/);
    expect(run.stderr).not.toMatch(/Error|at \w+ \(/);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/## Verdict\n\n(Decided|Too small to decide|No difference measured): /);
    expect(summary.data.trajectories).toBe(243);
    expect(summary.bench.items).toBe(8);
    expect(summary.verdict.units).toBe(summary.paired.names?.units);
    expect(summary.learners.map((learner) => learner.name)).toEqual(['fixed', 'hsa']);
    const html = await readFile(join(folder, 'out', 'report.html'), 'utf8');
    expect(html).toContain('<h2>Verdict</h2>');
  });

  it('splits by trajectory: no held-out conversation is trained on, and every item names its own', async () => {
    const trained = new Set(
      (await jsonLines<{ id: string }>(join(folder, 'out', 'inputs/train.jsonl'))).map((line) => line.id),
    );
    expect(trained.size).toBe(16);
    const rows = await jsonLines<BenchRow>(join(folder, 'out', 'bench/rows.jsonl'));
    const held = new Set(summary.units.names?.map((unit) => unit.item));
    expect(held.size).toBe(summary.data.heldOut);
    for (const row of rows) {
      const source = row.itemId.replace(/-turn-\d+$/, '');
      expect(held.has(source), row.itemId).toBe(true);
      expect(trained.has(source), row.itemId).toBe(false);
    }
    // Conversations of two turns give two items: the bench holds both turns of some trajectory.
    expect(new Set(rows.map((row) => row.itemId)).size).toBeGreaterThan(held.size);
  });

  it('renames the bench into the vocabulary part that training never draws from', async () => {
    const rows = await jsonLines<BenchRow>(join(folder, 'out', 'bench/rows.jsonl'));
    // Every name of both learners' training rows (tools, keys, enum values, call names and values).
    const trained = new Set<string>();
    for (const learner of ['fixed', 'hsa'])
      for (const row of await jsonLines<unknown>(join(folder, 'out', learner, 'train.jsonl')))
        addTrainingNames(row, trained);
    const original = new Map(rows.filter((row) => row.variantIndex === 0).map((row) => [row.itemId, row]));
    const namesOf = (row: BenchRow) => [
      ...row.harness.tools.items.map((tool) => tool.name),
      ...row.harness.skills.items.map((skill) => skill.id),
      row.harness.skills.loader.tool,
    ];
    let checked = 0;
    for (const row of rows) {
      const ops = (row.provenance.ops ?? []) as Array<{ name?: string }>;
      if (!ops.some((op) => ['tools/rename', 'skill-ids/rename'].includes(op.name ?? ''))) continue;
      const before = new Set(namesOf(original.get(row.itemId) as BenchRow));
      for (const name of namesOf(row).filter((fresh) => !before.has(fresh))) {
        checked++;
        expect(vocabularyPart(name, 2), name).toBe(summary.vocabulary.bench.part);
        expect(trained.has(name), name).toBe(false);
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(summary.vocabulary.training.part).not.toBe(summary.vocabulary.bench.part);
  });

  it('says plainly that a tiny input is too small to decide', async () => {
    const tiny = join(folder, 'tiny.jsonl');
    await writeFile(tiny, `${(await readFile(gold, 'utf8')).trim().split('\n').slice(0, 10).join('\n')}\n`);
    const out = join(folder, 'tiny');
    const tinyRun = runCli(
      [
        'demo',
        '--harness',
        harness,
        '--trajectories',
        tiny,
        '--out',
        out,
        '--seed',
        '3',
        '--no-ablation',
      ].concat(['--train-tasks', '5', '--bench-items', '6', '--bench-variants', '1', '--steps', '60']),
      { timeout: 300_000 },
    );
    expect(tinyRun.status).toBe(0);
    expect(tinyRun.stdout).toMatch(/## Verdict\n\nToo small to decide: /);
    const tinySummary: DemoSummary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
    expect(tinySummary.verdict.decided).toBe(false);
    expect(tinySummary.data.heldOut).toBeLessThanOrEqual(5);
  });

  it('refuses --harness without --trajectories, --harness with --domain, --items alone and a missing file', () => {
    const missing = runCli(['demo', '--harness', harness, '--out', join(folder, 'x')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--harness needs --trajectories/);
    const both = runCli(['demo', '--domain', 'itops', '--harness', harness, '--trajectories', gold]);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/--domain and --harness/);
    const itemsAlone = runCli(['demo', '--items', join(material, 'logs.jsonl')]);
    expect(itemsAlone.status).toBe(2);
    expect(itemsAlone.stderr).toMatch(/--trajectories and --items go with --harness/);
    const absent = runCli(['demo', '--harness', harness, '--trajectories', join(folder, 'none.jsonl')]);
    expect(absent.status).toBe(2);
    expect(absent.stderr).toMatch(/--trajectories: no file/);
  });
});
