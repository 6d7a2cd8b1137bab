// `hsa demo --seeds a,b,c`: one demo run per seed (each seed draws its own items, tasks, bench variants and
// training order), and the paired comparison pooled over all of them: units are the held-out trajectories of every seed,
// resampled within their seed. Every seed's own result is kept and reported next to the pooled one.
import { join } from 'node:path';
import { writeFileAtomic } from '../harness/write-file-atomic.js';
import { type PairedReport, type PairedUnit, pairedComparison } from './paired.js';
import { estimateText, pairedExplanation, pairedHeader, pairedRows } from './report.js';
import { type DemoOptions, type DemoSizes, runDemo } from './run-demo.js';
import type { DemoSummary } from './summary.js';
import { type DemoVerdict, demoVerdict } from './verdict.js';

export interface DemoPooledSummary {
  format: 'hsa-demo-pooled/2';
  seeds: string[];
  sizes: DemoSizes;
  /** What the pooled comparison decides (units: every seed's held-out trajectories). */
  verdict: DemoVerdict;
  /** Each seed's own headline numbers (dimensions that change names) and original scores. */
  perSeed: Array<{
    seed: string;
    items: number;
    nameRows: number;
    renamedSeenRows: number;
    original: { fixed: number | null; hsa: number | null; uniform: number | null };
    names: Pick<PairedReport, 'gap' | 'gapDifference' | 'variantDifference' | 'originalDifference'>;
  }>;
  paired: Record<string, PairedReport>;
}

/**
 * Pools the paired comparison of several seeds' summaries.
 *
 * @example
 * const pooled = poolSummaries([summary42, summary7]);
 */
export function poolSummaries(summaries: readonly DemoSummary[]): DemoPooledSummary {
  const first = summaries[0];
  if (!first) throw new RangeError('poolSummaries needs at least one summary');
  const groups = Object.keys(first.units);
  const paired: Record<string, PairedReport> = {};
  for (const group of groups) {
    const units: PairedUnit[] = summaries.flatMap((summary) => summary.units[group] ?? []);
    paired[group] = pairedComparison(units, {
      a: 'fixed',
      b: 'hsa',
      ceiling: 'memoriser',
      seed: `${summaries.map((summary) => summary.seed).join(',')}/demo/pooled/${group}`,
      resamples: 2000,
    });
  }
  const original = (summary: DemoSummary, name: string) =>
    [...summary.learners, summary.baseline].find((learner) => learner.name === name)?.groups.all?.criteria
      .names.original.mean ?? null;
  return {
    format: 'hsa-demo-pooled/2',
    seeds: summaries.map((summary) => summary.seed),
    sizes: first.sizes,
    verdict: demoVerdict(paired.names, {
      trajectories: first.data.trajectories,
      heldOut: first.data.heldOut,
      items: first.data.items,
      seeds: summaries.length,
    }),
    perSeed: summaries.map((summary) => {
      const names = summary.paired.names as PairedReport;
      return {
        seed: summary.seed,
        items: summary.bench.items,
        nameRows: summary.bench.nameRows,
        renamedSeenRows: summary.bench.renamedSeenRows,
        original: {
          fixed: original(summary, 'fixed'),
          hsa: original(summary, 'hsa'),
          uniform: original(summary, 'uniform'),
        },
        names: {
          gap: names.gap,
          gapDifference: names.gapDifference,
          variantDifference: names.variantDifference,
          originalDifference: names.originalDifference,
        },
      };
    }),
    paired,
  };
}

const table = (header: string[], rows: string[][]) => [
  `| ${header.join(' | ')} |`,
  `|${header.map((_, index) => (index === 0 ? '---' : '---:')).join('|')}|`,
  ...rows.map((row) => `| ${row.join(' | ')} |`),
];

const pct = (value: number | null) => (value === null ? '-' : (100 * value).toFixed(1));

/**
 * The pooled report in Markdown.
 *
 * @example
 * process.stdout.write(renderPooledMarkdown(pooled));
 */
export function renderPooledMarkdown(pooled: DemoPooledSummary): string {
  const lines = [
    `# hsa demo: fixed vs hsa, pooled over ${pooled.seeds.length} seeds (${pooled.seeds.join(', ')})`,
    '',
    `Each seed draws its own bench items, training tasks, bench variants and training order; sizes per seed: ${pooled.sizes.trainTasks} training tasks, ${pooled.sizes.steps} Adam steps, ${pooled.sizes.benchItems} bench items, ${pooled.sizes.benchVariants} variants per item and dimension. Units: the held-out trajectories of every seed, resampled within their seed.`,
    '',
    '## Verdict',
    '',
    ...pooled.verdict.text.flatMap((sentence) => [sentence, '']),
    pairedExplanation,
    '',
    ...table(['group', ...pairedHeader], pairedRows(pooled.paired)),
    '',
    '## Every seed (dimensions that change names)',
    '',
    ...table(
      [
        'seed',
        'items',
        'variant rows',
        'renamed, new name seen in training',
        'original: fixed',
        'original: hsa',
        'original: uniform',
        'fixed gap',
        'hsa gap',
        'fixed gap − hsa gap',
        'hsa − fixed: variants',
        'hsa − fixed: original',
      ],
      pooled.perSeed.map((seed) => [
        seed.seed,
        String(seed.items),
        String(seed.nameRows),
        String(seed.renamedSeenRows),
        pct(seed.original.fixed),
        pct(seed.original.hsa),
        pct(seed.original.uniform),
        estimateText(seed.names.gap.a),
        estimateText(seed.names.gap.b),
        estimateText(seed.names.gapDifference),
        estimateText(seed.names.variantDifference),
        estimateText(seed.names.originalDifference),
      ]),
    ),
    '',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Runs the demo once per seed into `<out>/seed-<seed>` and writes the pooled comparison to
 * `<out>/pooled.json` and `<out>/pooled.md`.
 *
 * @example
 * const { pooled } = await runDemoSeeds({ ...options, out: 'out/demo' }, ['1', '2', '3', '4', '5']);
 */
export async function runDemoSeeds(
  options: Omit<DemoOptions, 'seed'>,
  seeds: readonly string[],
): Promise<{
  pooled: DemoPooledSummary;
  summaries: DemoSummary[];
  files: { json: string; markdown: string };
}> {
  const summaries: DemoSummary[] = [];
  for (const seed of seeds) {
    (options.onProgress ?? (() => {}))(`seed ${seed}`);
    const result = await runDemo({ ...options, seed, out: join(options.out, `seed-${seed}`) });
    summaries.push(result.summary);
  }
  const pooled = poolSummaries(summaries);
  const files = { json: join(options.out, 'pooled.json'), markdown: join(options.out, 'pooled.md') };
  await writeFileAtomic(files.json, `${JSON.stringify(pooled, null, 2)}\n`);
  await writeFileAtomic(files.markdown, renderPooledMarkdown(pooled));
  return { pooled, summaries, files };
}
