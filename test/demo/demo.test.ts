// `hsa demo` end to end at a small size: the CLI and the library give byte-identical reports for a seed;
// each learner beats a uniform chooser on the original harness; its predictions are what `hsa bench
// score` scores; and a row with its relabel and answer key removed gets the same prediction.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { createRegistry } from '../../src/augment/registry.js';
import { answerBenchRow } from '../../src/bench/answer-row.js';
import type { BenchRow } from '../../src/bench/schema.js';
import { runDemo } from '../../src/demo/run-demo.js';
import type { DemoSummary } from '../../src/demo/summary.js';
import { renamedRows } from '../../src/demo/summary.js';
import { learnerChatModel } from '../../src/learner/learner.js';
import { trainLearner } from '../../src/learner/train-learner.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { projectRoot, runCli } from '../support/run-cli.js';

const seed = '5';
const sizes = { trainTasks: 40, benchItems: 16, benchVariants: 1, steps: 250, ablation: false };
const fixture = (path: string) => join(projectRoot, 'fixtures/livestream', path);
let folder: string;
let cliOut: string;
let libraryOut: string;
let cliRun: ReturnType<typeof runCli>;
let summary: DemoSummary;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hsa-demo-'));
  cliOut = join(folder, 'cli');
  libraryOut = join(folder, 'library');
  cliRun = runCli(
    [
      'demo',
      '--seed',
      seed,
      '--out',
      cliOut,
      '--no-ablation',
      '--train-tasks',
      String(sizes.trainTasks),
      '--bench-items',
      String(sizes.benchItems),
      '--bench-variants',
      String(sizes.benchVariants),
      '--steps',
      String(sizes.steps),
    ],
    { timeout: 300_000 },
  );
  const dependencies = buildPipelineDependencies(
    parsePipelineConfig({
      harness: fixture('harness.yaml'),
      inputs: { trajectories: fixture('trajectories.jsonl') },
    }),
    { registry: createRegistry(builtinOperators) },
  );
  const result = await runDemo({
    harness: fixture('harness.yaml'),
    trajectories: fixture('trajectories.jsonl'),
    items: fixture('bench/items.jsonl'),
    out: libraryOut,
    seed,
    dependencies,
    sizes,
  });
  summary = result.summary;
}, 600_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('hsa demo', () => {
  it('prints the table and writes the same bytes as the library for the same seed', async () => {
    expect(cliRun.stderr).not.toMatch(/Error|at \w+ \(/);
    expect(cliRun.status).toBe(0);
    expect(cliRun.stdout).toMatch(/\| fixed \|/);
    expect(cliRun.stdout).toMatch(/\| hsa \|/);
    for (const file of [
      'report.html',
      'report.md',
      'summary.json',
      'bench/rows.jsonl',
      'hsa/predictions.jsonl',
    ])
      expect(await readFile(join(cliOut, file), 'utf8'), file).toBe(
        await readFile(join(libraryOut, file), 'utf8'),
      );
    const html = await readFile(join(libraryOut, 'report.html'), 'utf8');
    expect(html.match(/<svg/g)?.length).toBe(3);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });

  it('trains both learners on the same number of TRL rows and steps', () => {
    const [fixed, hsa] = summary.learners;
    expect(fixed?.name).toBe('fixed');
    expect(hsa?.name).toBe('hsa');
    expect(fixed?.training?.rows).toBe(hsa?.training?.rows);
    expect(fixed?.training?.steps).toBe(hsa?.training?.steps);
    for (const learner of summary.learners)
      expect(learner.training?.finalLoss).toBeLessThan(learner.training?.initialLoss as number);
  });

  it('each learner beats a uniform chooser on the original harness by a wide margin', () => {
    // Every name written in the held-out items' gold trajectories, teacher-forced, against the expectation
    // of a uniform pick among the offered names; and whole rows (`names`) against the uniform chooser's rows.
    const uniform = summary.baseline.decisions as NonNullable<typeof summary.baseline.decisions>;
    const uniformRows = summary.baseline.groups.all?.criteria.names.original.mean as number;
    for (const learner of summary.learners) {
      const decisions = learner.decisions as NonNullable<typeof learner.decisions>;
      expect(decisions.all - uniform.all, learner.name).toBeGreaterThanOrEqual(0.3);
      expect(decisions.bySlot.action.accuracy, learner.name).toBeGreaterThanOrEqual(
        3 * uniform.bySlot.action.accuracy,
      );
      expect(learner.groups.all?.criteria.names.original.mean, learner.name).toBeGreaterThan(uniformRows);
    }
  });

  it('its predictions are scored by hsa bench score', async () => {
    const scores = join(folder, 'scores.json');
    const run = runCli([
      'bench',
      'score',
      '--bench',
      join(libraryOut, 'bench/rows.jsonl'),
      '--predictions',
      join(libraryOut, 'fixed/predictions.jsonl'),
      '--seed',
      seed,
      '--out',
      scores,
    ]);
    expect(run.status).toBe(0);
    expect(JSON.parse(await readFile(scores, 'utf8'))).toEqual(
      JSON.parse(await readFile(join(libraryOut, 'fixed/scores.json'), 'utf8')),
    );
  });

  it('a row without its relabel and answer key gets the same prediction', async () => {
    const rows: BenchRow[] = (await readFile(join(libraryOut, 'bench/rows.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const renamed = renamedRows(rows);
    const chosen = rows.filter((row) => renamed.has(row.id)).slice(0, 6);
    expect(chosen.length).toBeGreaterThan(0);
    const { learner } = await trainLearner(join(libraryOut, 'hsa/train.jsonl'), {
      seed: `${seed}/train`,
      steps: sizes.steps,
    });
    const model = learnerChatModel(learner);
    const recorded = new Map(
      (await readFile(join(libraryOut, 'hsa/predictions.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .map((prediction) => [prediction.id, prediction]),
    );
    for (const row of chosen) {
      const stripped = {
        ...row,
        relabel: { steps: [] },
        expect: { toolCalls: [], skills: [], facts: [], forbidden: [] },
        provenance: {},
        certificate: {},
      };
      const full = await answerBenchRow(row, model);
      expect(await answerBenchRow(stripped, model)).toEqual(full);
      expect(full).toEqual(recorded.get(row.id));
    }
  });

  it('runs the helpdesk fixture, deriving bench items from its held-out gold trajectories', async () => {
    const out = join(folder, 'helpdesk');
    const run = runCli(
      [
        'demo',
        '--domain',
        'helpdesk',
        '--out',
        out,
        '--no-ablation',
        '--train-tasks',
        '16',
        '--bench-items',
        '6',
        '--bench-variants',
        '1',
        '--steps',
        '60',
      ],
      { timeout: 300_000 },
    );
    expect(run.stderr).not.toMatch(/Error|at \w+ \(/);
    expect(run.status).toBe(0);
    const helpdesk: DemoSummary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
    expect(helpdesk.bench.items).toBe(6);
    expect(helpdesk.bench.rows).toBeGreaterThan(6);
    const [fixed, hsa] = helpdesk.learners.map((learner) => learner.training?.rows as number);
    expect(fixed).toBeGreaterThan(0);
    expect(hsa).toBe(fixed);
    const rows: BenchRow[] = (await readFile(join(out, 'bench/rows.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const trained = (await readFile(join(out, 'inputs/train.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    // Held-out examples: no bench item's gold trajectory is trained on.
    const sources = new Set(rows.map((row) => row.itemId.replace(/^item-/, '')));
    expect(trained.filter((id: string) => sources.has(id))).toEqual([]);
  }, 300_000);

  it('refuses an unknown domain with a usage error', () => {
    const run = runCli(['demo', '--domain', 'nowhere', '--out', join(folder, 'x')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--domain/);
  });
});
