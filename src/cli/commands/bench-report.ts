// `hsa bench report`: a scores JSON → DIR/report.md and DIR/report.html (self-contained, offline).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { writeReport } from '../../bench/report.js';
import type { ScoresDocument } from '../../bench/score.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { outOption, prepareOutputFolder, printResult } from '../output.js';

interface BenchReportOptions {
  scores: string;
  out: string;
}

async function readScores(file: string): Promise<ScoresDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new HarnessAugmentError(`${file}: cannot read: ${reason}`, { kind: 'usage', cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HarnessAugmentError(`${file}: not JSON: ${(error as Error).message}`, { cause: error });
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    (value as { format?: unknown }).format !== 'hsa-bench-scores/1'
  ) {
    throw new HarnessAugmentError(
      `${file}: not a scores file from "hsa bench score" (format hsa-bench-scores/1)`,
    );
  }
  return value as ScoresDocument;
}

export function registerBenchReport(bench: Command): void {
  bench
    .command('report')
    .description('write report.md and a self-contained report.html from a scores file')
    .requiredOption('--scores <file>', 'scores JSON (from hsa bench score)')
    .addOption(outOption('folder', 'directory for report.md and report.html', { required: true }))
    .action(async (options: BenchReportOptions) => {
      await prepareOutputFolder(options.out, { writes: ['report.md', 'report.html'] });
      const scores = await readScores(options.scores);
      const written = await writeReport(scores, options.out);
      printResult(written, `wrote ${written.markdown} and ${written.html}`);
    });
}
