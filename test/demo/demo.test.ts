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
import { vocabularyPart } from '../../src/augment/vocabulary.js';
import { answerBenchRow } from '../../src/bench/answer-row.js';
import type { BenchRow } from '../../src/bench/schema.js';
import type { DemoPooledSummary } from '../../src/demo/pool-seeds.js';
import { runDemo } from '../../src/demo/run-demo.js';
import type { DemoSummary } from '../../src/demo/summary.js';
import { nameDimensions, renamedRows } from '../../src/demo/summary.js';
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

  it('runs the helpdesk fixture, deriving bench items from the turns of held-out trajectories', async () => {
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
    // Held-out examples, by trajectory: every item is a turn of a held-out conversation, none trained on.
    const sources = new Set(rows.map((row) => row.itemId.replace(/-turn-\d+$/, '')));
    expect(sources).toEqual(new Set(helpdesk.units.names?.map((unit) => unit.item)));
    expect(helpdesk.data.trajectories).toBeGreaterThanOrEqual(250);
    expect(trained.filter((id: string) => sources.has(id))).toEqual([]);
  }, 300_000);

  it('reports the paired comparison with the memoriser as the ceiling', () => {
    const memoriser = summary.memoriser.groups;
    // The memoriser writes the original answer: every original row passes, renamed rows lose names.
    expect(memoriser.all?.criteria.names.original.mean).toBe(1);
    expect(memoriser.renamed?.criteria.names.variants.mean as number).toBeLessThan(1);
    const names = summary.paired.names;
    expect(names?.rows).toBe(summary.bench.nameRows);
    expect(names?.gap.ceiling.mean).toBe(memoriser.names?.criteria.names.gap.mean);
    const fixedGap = summary.learners[0]?.groups.names?.criteria.names.gap.mean as number;
    const hsaGap = summary.learners[1]?.groups.names?.criteria.names.gap.mean as number;
    expect(names?.gapDifference.mean).toBeCloseTo(fixedGap - hsaGap);
    const low = names?.gapDifference.low as number;
    const high = names?.gapDifference.high as number;
    expect(low).toBeLessThanOrEqual(names?.gapDifference.mean as number);
    expect(high).toBeGreaterThanOrEqual(names?.gapDifference.mean as number);
    expect(Object.keys(summary.paired)).toEqual(
      expect.arrayContaining(['names', 'renamed-unseen', 'renamed-seen', 'dimension/prompt']),
    );
    expect(summary.bench.renamedUnseenRows + summary.bench.renamedSeenRows).toBe(summary.bench.renamedRows);
  });

  it('the bench renames into a vocabulary that training never draws from', async () => {
    expect(summary.vocabulary.operators).toEqual(
      expect.arrayContaining(['tools/rename', 'skill-ids/rename', 'skill-ids/rename-loader']),
    );
    const rows: BenchRow[] = (await readFile(join(libraryOut, 'bench/rows.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const trained = await readFile(join(libraryOut, 'hsa/train.jsonl'), 'utf8');
    const original = new Map(rows.filter((row) => row.variantIndex === 0).map((row) => [row.itemId, row]));
    let checked = 0;
    for (const row of rows) {
      const ops = (row.provenance.ops ?? []) as Array<{ name?: string }>;
      if (
        !ops.some((op) =>
          ['tools/rename', 'skill-ids/rename', 'skill-ids/rename-loader'].includes(op.name ?? ''),
        )
      )
        continue;
      const base = original.get(row.itemId) as BenchRow;
      const before = new Set([
        ...base.harness.tools.items.map((tool) => tool.name),
        ...base.harness.skills.items.map((skill) => skill.id),
        base.harness.skills.loader.tool,
      ]);
      const fresh = [
        ...row.harness.tools.items.map((tool) => tool.name),
        ...row.harness.skills.items.map((skill) => skill.id),
        row.harness.skills.loader.tool,
      ].filter((name) => !before.has(name));
      for (const name of fresh) {
        checked++;
        expect(vocabularyPart(name, 2), name).toBe(summary.vocabulary.bench.part);
        const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        expect(new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`).test(trained), name).toBe(false);
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(nameDimensions).toEqual(['skill-ids', 'tools']);
  });

  it('pools several seeds on the itops domain, whose items file names every trajectory', async () => {
    const out = join(folder, 'itops');
    const run = runCli(
      [
        'demo',
        '--domain',
        'itops',
        '--seeds',
        '1,2',
        '--out',
        out,
        '--no-ablation',
        '--train-tasks',
        '20',
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
    expect(run.stdout).toMatch(/pooled over 2 seeds/);
    const pooled: DemoPooledSummary = JSON.parse(await readFile(join(out, 'pooled.json'), 'utf8'));
    expect(pooled.seeds).toEqual(['1', '2']);
    const items = (await readFile(join(projectRoot, 'fixtures/itops/bench/items.jsonl'), 'utf8'))
      .trim()
      .split('\n');
    const trajectories = (await readFile(join(projectRoot, 'fixtures/itops/trajectories.jsonl'), 'utf8'))
      .trim()
      .split('\n');
    expect(items.length).toBe(trajectories.length);
    let units = 0;
    for (const seed of pooled.seeds) {
      const perSeed: DemoSummary = JSON.parse(
        await readFile(join(out, `seed-${seed}`, 'summary.json'), 'utf8'),
      );
      expect(perSeed.bench.items).toBe(6);
      units += perSeed.paired.names?.units ?? 0;
      const trained = (await readFile(join(out, `seed-${seed}`, 'inputs/train.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id as string);
      expect(trained.length).toBe(20);
      const held = new Set(perSeed.units.names?.map((unit) => unit.item.replace(/^item-/, '')));
      expect(trained.filter((id) => held.has(id))).toEqual([]);
    }
    expect(pooled.paired.names?.units).toBe(units);
    expect(pooled.paired.names?.strata).toBe(2);
  }, 300_000);

  it('refuses --seeds with fewer than two distinct seeds', () => {
    const run = runCli(['demo', '--seeds', '3,3', '--out', join(folder, 'y')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--seeds/);
  });

  it('refuses an unknown domain with a usage error', () => {
    const run = runCli(['demo', '--domain', 'nowhere', '--out', join(folder, 'x')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--domain/);
  });
});
