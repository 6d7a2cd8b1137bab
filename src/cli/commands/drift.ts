// `hsa drift`: a harness's real versions (a git history or files) → DIR/drift.json and DIR/drift.html, and a
// table on stdout: each consecutive edit described, task-preserving or not, covered by the policy or not.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { driftReport } from '../../drift/drift.js';
import { type HarnessVersion, readGitHistory, readHarnessFiles } from '../../drift/history.js';
import { renderDriftHtml, renderDriftTable } from '../../drift/report.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { readJsonl } from '../../trajectory/read-jsonl.js';
import { type Trajectory, TrajectorySchema } from '../../trajectory/schema.js';
import { finishCommand } from '../exit-codes.js';
import { policyFromOptions } from '../operators-registry.js';
import { outOption, prepareOutputFolder, printResult } from '../output.js';

interface DriftOptions {
  repo?: string;
  path?: string;
  harness?: string[];
  policy?: string;
  severity?: string;
  seed: string;
  samples: string;
  trajectories?: string;
  out: string;
}

async function readExamples(file: string): Promise<Trajectory[]> {
  const examples: Trajectory[] = [];
  for await (const record of readJsonl(file)) {
    if ('issue' in record)
      throw new HarnessAugmentError(`${file}:${record.line}: ${record.issue.message}`, { kind: 'usage' });
    const parsed = TrajectorySchema.safeParse(record.value);
    if (!parsed.success)
      throw new HarnessAugmentError(
        `${file}:${record.line}: not a trajectory: ${parsed.error.issues[0]?.message}`,
        {
          kind: 'usage',
        },
      );
    examples.push(parsed.data);
  }
  return examples;
}

export function registerDrift(program: Command): void {
  program
    .command('drift')
    .description(
      "describe each real edit of a harness's history and whether a policy's variants cover it (drift.json, drift.html)",
    )
    .option('--repo <dir>', 'git repository holding the harness')
    .option('--path <file>', 'path of the harness file inside --repo (its history, oldest first)')
    .option('--harness <files...>', 'harness versions as files, oldest first (instead of --repo and --path)')
    .option('--policy <name|file>', 'policy preset or file (default hat)')
    .option('--severity <level>', "override the policy's severity")
    .option('--seed <seed>', 'seed of the sampled variants', 'drift')
    .option('--samples <n>', 'variants sampled per older version', '32')
    .option(
      '--trajectories <file>',
      'gold trajectories JSONL: operators that need an example (hook budgets) run on them',
    )
    .addOption(outOption('folder', 'directory for drift.json and drift.html', { required: true }))
    .action(async (options: DriftOptions) => {
      const samples = Number(options.samples);
      if (!Number.isInteger(samples) || samples < 1 || samples > 4096)
        throw new HarnessAugmentError(`--samples must be an integer from 1 to 4096, got ${options.samples}`, {
          kind: 'usage',
        });
      let versions: HarnessVersion[];
      if (options.harness) {
        if (options.repo || options.path)
          throw new HarnessAugmentError('give --harness files, or --repo and --path, not both', {
            kind: 'usage',
          });
        versions = await readHarnessFiles(options.harness);
      } else {
        if (!options.repo || !options.path)
          throw new HarnessAugmentError('give --repo and --path, or --harness files', { kind: 'usage' });
        versions = readGitHistory(options.repo, options.path);
      }
      const { plan, severity, policy } = await policyFromOptions(options.policy, undefined, options.severity);
      const examples = options.trajectories ? await readExamples(options.trajectories) : undefined;
      await prepareOutputFolder(options.out, { writes: ['drift.json', 'drift.html'] });
      const document = await driftReport(versions, {
        policy,
        plan,
        severity,
        seed: options.seed,
        samples,
        ...(examples ? { examples } : {}),
      });
      await writeFile(join(options.out, 'drift.json'), `${JSON.stringify(document, null, 2)}\n`);
      await writeFile(join(options.out, 'drift.html'), renderDriftHtml(document));
      const invalid = document.versions.filter((version) => !version.valid);
      for (const version of invalid)
        process.stderr.write(`${version.source}: invalid harness: ${version.issues?.[0] ?? 'invalid'}\n`);
      printResult(document, renderDriftTable(document));
      finishCommand({ invalid: invalid.length });
    });
}
