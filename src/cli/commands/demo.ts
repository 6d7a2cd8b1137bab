// `hsa demo`: trains a fixed-harness learner and a harness-augmented one on a bundled fixture through the
// real pipeline, scores both on a held-out variant benchmark and writes the report. Wiring only.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { buildPipelineDependencies } from '../../adapters/pipeline-dependencies.js';
import { renderPooledMarkdown, runDemoSeeds } from '../../demo/pool-seeds.js';
import { renderDemoMarkdown } from '../../demo/report.js';
import { type DemoSizes, defaultDemoSizes, runDemo } from '../../demo/run-demo.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { parsePipelineConfig } from '../../pipeline/config.js';
import { nonNegativeInteger } from '../io.js';
import { builtinRegistry } from '../operators-registry.js';
import { outOption, outputMode, prepareOutputFolder, printResult } from '../output.js';

interface DemoCliOptions {
  domain: string;
  seed: string;
  seeds?: string;
  out: string;
  ablation: boolean;
  trainTasks?: string;
  steps?: string;
  benchItems?: string;
  benchVariants?: string;
}

const domainFiles = (folder: string) => ({
  harness: join(folder, 'harness.yaml'),
  trajectories: join(folder, 'trajectories.jsonl'),
  items: join(folder, 'bench', 'items.jsonl'),
});

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
  const files = domainFiles(folder);
  if (!/^[a-z0-9-]+$/.test(domain) || !existsSync(files.harness) || !existsSync(files.trajectories))
    throw new HarnessAugmentError(
      `--domain: no bundled fixture "${domain}" with harness.yaml and trajectories.jsonl (try livestream, helpdesk or itops)`,
      { kind: 'usage' },
    );
  return folder;
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
      'train a fixed-harness and a harness-augmented learner on a bundled fixture, score both on held-out harness variants, write the report',
    )
    .option('--domain <name>', 'bundled fixture: livestream, helpdesk or itops', 'livestream')
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
      const { items, ...files } = domainFiles(domainFolder(options.domain));
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
      await prepareOutputFolder(out);
      const common = {
        ...files,
        // A fixture without bench items gets them derived from held-out gold trajectories.
        ...(existsSync(items) ? { items } : {}),
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
