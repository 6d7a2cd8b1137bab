// `hsa demo`: trains a fixed-harness learner and a harness-augmented one on a harness and its gold
// trajectories (the user's, or a bundled fixture's) through the real pipeline, scores both on a held-out
// variant benchmark and writes the report. Wiring only: a bundled domain is just its files.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { buildPipelineDependencies } from '../../adapters/pipeline-dependencies.js';
import { dimensions } from '../../augment/operator.js';
import { renderPooledMarkdown, runDemoSeeds } from '../../demo/pool-seeds.js';
import { renderDemoMarkdown } from '../../demo/report.js';
import { type DemoSizes, defaultDemoSizes, runDemo } from '../../demo/run-demo.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { addProtectedInputs } from '../../harness/output-guard.js';
import { parsePipelineConfig } from '../../pipeline/config.js';
import { nonNegativeInteger } from '../io.js';
import { builtinRegistry } from '../operators-registry.js';
import { outOption, outputMode, prepareOutputFolder, printResult } from '../output.js';

interface DemoCliOptions {
  domain?: string;
  harness?: string;
  trajectories?: string;
  items?: string;
  seed: string;
  seeds?: string;
  out: string;
  ablation: boolean;
  trainTasks?: string;
  steps?: string;
  benchItems?: string;
  benchVariants?: string;
}

/**
 * A bundled domain's inputs: its harness, its demo trajectories (`demo/trajectories.jsonl` when the fixture
 * keeps a larger set for the demo, else `trajectories.jsonl`) and its bench items when it has an items file.
 */
function domainFiles(folder: string): { harness: string; trajectories: string; items?: string } {
  const larger = join(folder, 'demo', 'trajectories.jsonl');
  const items = join(folder, 'bench', 'items.jsonl');
  return {
    harness: join(folder, 'harness.yaml'),
    trajectories: existsSync(larger) ? larger : join(folder, 'trajectories.jsonl'),
    ...(existsSync(items) ? { items } : {}),
  };
}

/** The bundled fixtures folder: the first `fixtures/` above this file (source and build trees differ). */
function fixturesFolder(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    if (existsSync(join(folder, 'fixtures'))) return join(folder, 'fixtures');
    folder = dirname(folder);
  }
  return resolve('fixtures');
}

function domainFolder(domain: string): string {
  const folder = join(fixturesFolder(), domain);
  if (
    !/^[a-z0-9-]+$/.test(domain) ||
    !existsSync(join(folder, 'harness.yaml')) ||
    !existsSync(join(folder, 'trajectories.jsonl'))
  )
    throw new HarnessAugmentError(
      `--domain: no bundled fixture "${domain}" with harness.yaml and trajectories.jsonl (try livestream, helpdesk or itops)`,
      { kind: 'usage' },
    );
  return folder;
}

/** The input files: `--harness` and `--trajectories` (and `--items`), or a bundled `--domain` (default livestream). */
function inputFiles(options: DemoCliOptions): { harness: string; trajectories: string; items?: string } {
  if (options.harness === undefined) {
    if (options.trajectories !== undefined || options.items !== undefined)
      throw new HarnessAugmentError('--trajectories and --items go with --harness', { kind: 'usage' });
    return domainFiles(domainFolder(options.domain ?? 'livestream'));
  }
  if (options.domain !== undefined)
    throw new HarnessAugmentError('--domain and --harness exclude each other: give one', { kind: 'usage' });
  if (options.trajectories === undefined)
    throw new HarnessAugmentError('--harness needs --trajectories (the gold trajectories, JSONL)', {
      kind: 'usage',
    });
  const files = { harness: resolve(options.harness), trajectories: resolve(options.trajectories) };
  for (const [flag, file] of [
    ['--harness', files.harness],
    ['--trajectories', files.trajectories],
    ...(options.items === undefined ? [] : [['--items', resolve(options.items)]]),
  ] as const)
    if (!existsSync(file)) throw new HarnessAugmentError(`${flag}: no file ${file}`, { kind: 'usage' });
  return { ...files, ...(options.items === undefined ? {} : { items: resolve(options.items) }) };
}

/** What a run writes in its output folder: the folders (each checked to hold no input) and the files. */
function demoOutputs(seeds: readonly string[] | undefined): { clears: string[]; writes: string[] } {
  const run = [
    'inputs',
    'bench',
    'uniform',
    'memoriser',
    'fixed',
    'hsa',
    ...dimensions.map((d) => `hsa-${d}`),
  ];
  const files = ['report.md', 'report.html', 'summary.json'];
  if (!seeds) return { clears: run, writes: files };
  return { clears: seeds.map((seed) => `seed-${seed}`), writes: ['pooled.json', 'pooled.md'] };
}

/** `--seeds 1,2,3`: distinct, non-empty seeds, at least two. */
function seedList(value: string): string[] {
  const seeds = value.split(',').map((seed) => seed.trim());
  if (seeds.length < 2 || seeds.some((seed) => seed === '') || new Set(seeds).size !== seeds.length)
    throw new HarnessAugmentError(
      '--seeds must list at least two distinct seeds, comma-separated (1,2,3,4,5)',
      {
        kind: 'usage',
      },
    );
  return seeds;
}

function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = nonNegativeInteger(name, value);
  if (number === 0) throw new HarnessAugmentError(`${name} must be a positive integer`, { kind: 'usage' });
  return number;
}

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(
      'train a fixed-harness and a harness-augmented learner on a harness and its gold trajectories (yours, or a bundled fixture), score both on held-out harness variants, write the report',
    )
    .option('--domain <name>', 'bundled fixture: livestream (default), helpdesk or itops')
    .option('--harness <file>', 'your harness file (instead of --domain)')
    .option('--trajectories <file>', 'gold trajectories under --harness (JSONL)')
    .option(
      '--items <file>',
      'bench items (JSONL); without it items come from the scorable turns of held-out trajectories',
    )
    .option('--seed <seed>', 'global seed', '42')
    .option('--seeds <list>', 'run once per seed (comma-separated) and pool the paired comparison over all')
    .addOption(outOption('folder', 'output folder').default('out/demo'))
    .option('--no-ablation', 'skip the one-dimension ablation (five more learners)')
    .option('--train-tasks <n>', `base tasks per learner (default ${defaultDemoSizes.trainTasks})`)
    .option('--steps <n>', `Adam steps per learner (default ${defaultDemoSizes.steps})`)
    .option('--bench-items <n>', `held-out bench items (default ${defaultDemoSizes.benchItems})`)
    .option(
      '--bench-variants <n>',
      `bench variants per item and dimension (default ${defaultDemoSizes.benchVariants})`,
    )
    .action(async (options: DemoCliOptions) => {
      const started = Date.now();
      const seeds = options.seeds === undefined ? undefined : seedList(options.seeds);
      const files = inputFiles(options);
      const registry = await builtinRegistry();
      const dependencies = buildPipelineDependencies(
        parsePipelineConfig({ harness: files.harness, inputs: { trajectories: files.trajectories } }),
        { registry },
      );
      const sizes: Partial<DemoSizes> = { ablation: options.ablation };
      const trainTasks = positive('--train-tasks', options.trainTasks);
      const steps = positive('--steps', options.steps);
      const benchItems = positive('--bench-items', options.benchItems);
      if (trainTasks !== undefined) sizes.trainTasks = trainTasks;
      if (steps !== undefined) sizes.steps = steps;
      if (benchItems !== undefined) sizes.benchItems = benchItems;
      const benchVariants = positive('--bench-variants', options.benchVariants);
      if (benchVariants !== undefined) sizes.benchVariants = benchVariants;
      const out = resolve(options.out);
      // A bundled domain's files are inputs too (yours are, as options); no folder the demo writes in may
      // hold an input.
      if (options.harness === undefined)
        await addProtectedInputs(
          Object.entries(files).map(([key, path]) => ({
            label: `--domain ${options.domain ?? 'livestream'} (${key})`,
            path,
          })),
        );
      await prepareOutputFolder(out, demoOutputs(seeds));
      const common = {
        ...files,
        out,
        dependencies,
        sizes,
        onProgress: (message: string) => {
          if (!outputMode().quiet) process.stderr.write(`demo: ${message}\n`);
        },
      };
      if (seeds) {
        const pooled = await runDemoSeeds(common, seeds);
        const perSeed = seeds.map((seed) => join(out, `seed-${seed}`, 'report.md'));
        printResult(
          { out, files: { ...pooled.files, perSeed }, pooled: pooled.pooled },
          `${renderPooledMarkdown(pooled.pooled)}\npooled: ${pooled.files.json}\nper seed: ${perSeed.join(', ')}\n(${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
        );
        return;
      }
      const result = await runDemo({ ...common, seed: options.seed });
      printResult(
        { out, files: result.files, summary: result.summary },
        `${renderDemoMarkdown(result.summary)}\nreport: ${result.files.report}\nsummary: ${result.files.summary}\nbench rows: ${result.files.bench} (score any learner's predictions with \`hsa bench score\`)\n(${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
      );
    });
}
