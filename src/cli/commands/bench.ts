// `hsa bench …`: variant benchmark sets — generate, score, report. Each subcommand lives in its own file.
import type { Command } from 'commander';
import { registerBenchGenerate } from './bench-generate.js';
import { registerBenchItems } from './bench-items.js';
import { registerBenchNextVersion } from './bench-next-version.js';
import { registerBenchPredict } from './bench-predict.js';
import { registerBenchReport } from './bench-report.js';
import { registerBenchScore } from './bench-score.js';

export function registerBench(program: Command): void {
  const bench = program
    .command('bench')
    .description(
      'derive items, generate, carry to a real next version, predict, score and report variant benchmark sets',
    );
  registerBenchItems(bench);
  registerBenchGenerate(bench);
  registerBenchNextVersion(bench);
  registerBenchPredict(bench);
  registerBenchScore(bench);
  registerBenchReport(bench);
  for (const command of bench.commands) command.exitOverride();
}
