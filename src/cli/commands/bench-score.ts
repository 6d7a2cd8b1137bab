// `hsa bench score`: bench rows + predictions → a scores JSON (originals vs variants, per dimension and
// operator, with bootstrap intervals) and a short table.
import type { Command } from 'commander';
import type { z } from 'zod';
import { defaultSidecars, openSidecars } from '../../augment/variant-sidecar.js';
import { type ScoresWithNextVersion, scoreNextVersion } from '../../bench/next-version-scores.js';
import { BenchRowSchema, PredictionSchema } from '../../bench/schema.js';
import { scoreBench } from '../../bench/score.js';
import { HarnessAugmentError, type Issue } from '../../harness/issues.js';
import { readJsonl } from '../../trajectory/read-jsonl.js';
import { finishCommand, nonNegativeInteger, writeFileAtomic } from '../io.js';
import { outOption, prepareOutputFile, printResult, printWarning } from '../output.js';
import { sidecarOptionText } from '../rows.js';

interface BenchScoreOptions {
  bench: string;
  predictions: string;
  out: string;
  seed: string;
  resamples: string;
  sidecar?: string[];
  nextVersion?: string;
  nextPredictions?: string;
}

/**
 * Reads a JSONL file whose every line must match `schema`; the first bad line stops the run with an error
 * naming the file and line.
 */
export async function readJsonlAs<T extends z.ZodType>(
  file: string,
  schema: T,
  what: string,
  resolve?: (value: unknown, at: string) => Promise<unknown>,
): Promise<z.output<T>[]> {
  const values: z.output<T>[] = [];
  for await (const record of readJsonl(file)) {
    if ('issue' in record) {
      throw new HarnessAugmentError(`${file}:${record.line}: not a ${what}: ${record.issue.message}`, {
        issues: [record.issue],
      });
    }
    const value = resolve ? await resolve(record.value, `${file}:${record.line}`) : record.value;
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issues: Issue[] = parsed.error.issues.map((issue) => ({
        code: 'invalid_line',
        path: issue.path.filter((part): part is string | number => typeof part !== 'symbol'),
        message: issue.message,
        file,
        line: record.line,
      }));
      const first = parsed.error.issues[0];
      const where = first && first.path.length > 0 ? ` at ${first.path.join('.')}` : '';
      throw new HarnessAugmentError(
        `${file}:${record.line}: not a ${what}${where}: ${first?.message ?? 'invalid'}`,
        {
          issues,
        },
      );
    }
    values.push(parsed.data);
  }
  return values;
}

/** Bench rows, by reference (resolved through their sidecars) or inline, each checked against the schema. */
export async function readBenchRows(
  file: string,
  sidecarFiles?: readonly string[],
): Promise<z.output<typeof BenchRowSchema>[]> {
  const sidecars = await openSidecars(
    sidecarFiles && sidecarFiles.length > 0 ? sidecarFiles : await defaultSidecars(file),
  );
  try {
    return await readJsonlAs(file, BenchRowSchema, 'bench row', (value, at) =>
      sidecars.resolveRow(value, at),
    );
  } finally {
    await sidecars.close();
  }
}

function percent(value: number | null): string {
  return value === null ? '-' : `${(100 * value).toFixed(1)}`;
}

function interval(estimate: { mean: number | null; low: number | null; high: number | null }): string {
  if (estimate.mean === null) return '-';
  return `${percent(estimate.mean)} [${percent(estimate.low)}, ${percent(estimate.high)}]`;
}

/** The table `hsa bench score` prints: overall pass of originals, variants and the gap, then per dimension. */
export function scoresTable(scores: ScoresWithNextVersion): string {
  const { overall } = scores.overall.criteria;
  const lines = [
    `rows: ${scores.counts.rows} (${scores.counts.items} items: ${scores.counts.originals} originals + ${scores.counts.variants} variants), predictions: ${scores.counts.predictions}, missing: ${scores.counts.missing}`,
    `overall pass, % [95% CI]`,
    `  original  ${interval(overall.original)}`,
    `  variants  ${interval(overall.variants)}`,
    `  gap       ${interval(overall.gap)}`,
    `  pass^${scores.passK.k}    ${interval(scores.passK.estimate)}`,
    'per dimension (variant rows that changed it): rows  original  variants  gap [95% CI]',
    ...Object.entries(scores.byDimension).map(
      ([name, group]) =>
        `  ${name.padEnd(14)} ${String(group.rows).padStart(5)}  ${percent(group.criteria.overall.original.mean).padStart(8)}  ${percent(group.criteria.overall.variants.mean).padStart(8)}  ${interval(group.criteria.overall.gap)}`,
    ),
  ];
  const next = scores.nextVersion;
  if (next)
    lines.push(
      `real next version ${next.from.label} → ${next.to.label} (${next.changes.join(', ') || 'no change'}), ${next.counts.compared} items compared: rows  under v  changed  gap [95% CI]`,
      ...(
        [
          ['real', next.real],
          ['synthetic', next.synthetic],
          ['same dims', next.sameDimensions],
        ] as const
      ).map(
        ([name, group]) =>
          `  ${name.padEnd(14)} ${String(group.rows).padStart(5)}  ${percent(group.criteria.overall.original.mean).padStart(7)}  ${percent(group.criteria.overall.variants.mean).padStart(7)}  ${interval(group.criteria.overall.gap)}`,
      ),
      `  the synthetic gap lies ${next.verdict.syntheticInsideReal === null ? 'nowhere to compare' : next.verdict.syntheticInsideReal ? 'inside' : 'outside'} the real gap's interval`,
    );
  return `${lines.join('\n')}\n`;
}

export function registerBenchScore(bench: Command): void {
  bench
    .command('score')
    .description('score predictions on bench rows: originals vs variants, gap per dimension and operator')
    .requiredOption('--bench <file>', 'bench rows JSONL (from hsa bench generate)')
    .requiredOption(
      '--predictions <file>',
      'predictions JSONL: {"id": row id, "output": [assistant messages]}',
    )
    .addOption(outOption('file', 'scores JSON to write', { required: true }))
    .option('--seed <seed>', 'bootstrap seed', '0')
    .option('--resamples <n>', 'bootstrap resamples', '1000')
    .option('--sidecar <files...>', sidecarOptionText)
    .option(
      '--next-version <file>',
      'rows.jsonl of `hsa bench next-version` for the same items: the real gap beside the synthetic one',
    )
    .option(
      '--next-predictions <file>',
      'predictions for the --next-version rows (default: read from --predictions)',
    )
    .action(async (options: BenchScoreOptions) => {
      const resamples = nonNegativeInteger('--resamples', options.resamples, 1_000_000);
      await prepareOutputFile(options.out);
      const rows = await readBenchRows(options.bench, options.sidecar);
      const predictions = await readJsonlAs(options.predictions, PredictionSchema, 'prediction');
      if (options.nextPredictions && !options.nextVersion)
        throw new HarnessAugmentError('--next-predictions needs --next-version', { kind: 'usage' });
      const nextRows = options.nextVersion ? await readBenchRows(options.nextVersion) : [];
      const nextPredictions = options.nextPredictions
        ? await readJsonlAs(options.nextPredictions, PredictionSchema, 'prediction')
        : predictions;
      const ids = new Set([...rows, ...nextRows].map((row) => row.id));
      const unknown = [...predictions, ...(options.nextPredictions ? nextPredictions : [])]
        .filter((prediction) => !ids.has(prediction.id))
        .map((prediction) => prediction.id);
      const scores: ScoresWithNextVersion = scoreBench(rows, predictions, { seed: options.seed, resamples });
      if (options.nextVersion)
        scores.nextVersion = scoreNextVersion(scores, nextRows, nextPredictions, {
          seed: options.seed,
          resamples,
        });
      const missing = scores.missing.length + (scores.nextVersion?.missing.length ?? 0);
      await writeFileAtomic(options.out, `${JSON.stringify(scores, null, 2)}\n`);
      printResult(
        { out: options.out, missing, unknown: unknown.length },
        `${scoresTable(scores)}out: ${options.out}\n`,
      );
      if (unknown.length > 0)
        printWarning(
          `hsa: ${unknown.length} predictions name no bench row (ignored): ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''}`,
        );
      const missingIds = [...scores.missing, ...(scores.nextVersion?.missing ?? [])];
      if (missingIds.length > 0) {
        process.stderr.write(
          `hsa: ${missingIds.length} rows have no prediction (scored as failures, listed under "missing" in ${options.out}): ${missingIds.slice(0, 5).join(', ')}${missingIds.length > 5 ? ', …' : ''}\n`,
        );
      }
      finishCommand({ invalid: missing });
    });
}
