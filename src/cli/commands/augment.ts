import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { type AugmentReject, augment } from '../../augment/augment.js';
import { dimensions } from '../../augment/operator.js';
import { loadHarnessFile } from '../../harness/parse-harness.js';
import { readJsonl } from '../../trajectory/read-jsonl.js';
import { loadHookChecks } from '../hook-checks-loader.js';
import { nonNegativeInteger, openRowOutputs } from '../io.js';
import { policyFromOptions } from '../operators-registry.js';
import { createProgress } from '../progress.js';
import { parseShard } from '../shard.js';
import { type AugmentPool, createAugmentPool } from '../workers/augment-pool.js';

interface AugmentCliOptions {
  harness: string;
  trajectories: string;
  variants: string;
  seed: string;
  policy?: string;
  policyFile?: string;
  out: string;
  rejects?: string;
  shard?: string;
  severity?: string;
  hookChecks?: string;
  workers?: string;
}

export function registerAugment(program: Command): void {
  program
    .command('augment')
    .description(
      'turn a harness and trajectories into certified (variant harness, rewritten trajectory) rows',
    )
    .requiredOption('--harness <file>', 'base harness file')
    .requiredOption('--trajectories <file>', 'trajectories JSONL under the base harness')
    .option('--variants <n>', 'variants per trajectory', '8')
    .option('--seed <seed>', 'global seed', '0')
    .option(
      '--policy <name>',
      'a preset: identity, hat, tools-only, rotbench-slight|medium|heavy|union (default hat)',
    )
    .option('--policy-file <file>', 'a policy in YAML or JSON')
    .option(
      '--severity <level>',
      'default severity: slight, medium, heavy or a number in [0, 1] (overrides the policy)',
    )
    .requiredOption('--out <file>', 'output rows JSONL')
    .option(
      '--rejects <file>',
      'rejects JSONL (default: <out without .jsonl>.rejects.jsonl, written when anything is rejected)',
    )
    .option('--shard <i/n>', 'only the examples whose position modulo n is i')
    .option('--hook-checks <module>', 'a module exporting the custom hook checks the harness names')
    .option(
      '--workers <n>',
      'worker threads (default: available cores); rows are the same bytes for any count',
    )
    .action(async (options: AugmentCliOptions) => {
      const started = Date.now();
      const variants = nonNegativeInteger('--variants', options.variants);
      const shard = parseShard(options.shard);
      const hookChecks = await loadHookChecks(options.hookChecks);
      const harness = await loadHarnessFile(options.harness, hookChecks ? { hookChecks } : {});
      const { plan, severity } = await policyFromOptions(
        options.policy,
        options.policyFile,
        options.severity,
      );

      const workers =
        options.workers === undefined
          ? availableParallelism()
          : Math.max(1, nonNegativeInteger('--workers', options.workers));
      const pool: AugmentPool | undefined =
        workers > 1
          ? createAugmentPool(
              {
                harnessFile: options.harness,
                seed: options.seed,
                variants,
                ...(options.policy !== undefined ? { policy: options.policy } : {}),
                ...(options.policyFile !== undefined ? { policyFile: options.policyFile } : {}),
                ...(options.severity !== undefined ? { severity: options.severity } : {}),
                ...(options.hookChecks !== undefined ? { hookChecks: options.hookChecks } : {}),
              },
              workers,
            )
          : undefined;

      const rejectsFile = options.rejects ?? `${options.out.replace(/\.jsonl$/i, '')}.rejects.jsonl`;
      const outputs = await openRowOutputs(options.out, rejectsFile);
      const progress = createProgress('augment');
      const counts = { examples: 0, rows: 0, rejectedExamples: 0, uncertified: 0 };
      const byReason: Record<string, number> = {};
      const coverage = Object.fromEntries(
        dimensions.map((dimension) => [dimension, { planned: 0, changed: 0 }]),
      );
      const onReject = (reject: AugmentReject) => {
        byReason[reject.reason] = (byReason[reject.reason] ?? 0) + 1;
        if (reject.reason === 'uncertified') counts.uncertified++;
        else counts.rejectedExamples++;
        outputs.reject(reject);
      };
      try {
        for await (const row of augment(harness, readJsonl(options.trajectories), {
          plan,
          variants,
          seed: options.seed,
          severity,
          ...(shard ? { shard } : {}),
          ...(hookChecks ? { hookChecks } : {}),
          ...(pool ? { parallel: pool } : {}),
          onReject,
          onExample: () => {
            counts.examples++;
            progress.update(`${counts.examples} examples, ${counts.rows} rows`);
          },
        })) {
          counts.rows++;
          for (const dimension of row.provenance.planned)
            (coverage[dimension] as { planned: number }).planned++;
          for (const dimension of row.provenance.changed)
            (coverage[dimension] as { changed: number }).changed++;
          await outputs.row(row);
        }
      } catch (error) {
        progress.done();
        await outputs.abort();
        throw error;
      } finally {
        await pool?.close();
      }
      progress.done();
      await outputs.finish(options.rejects !== undefined);
      const rejected = counts.rejectedExamples + counts.uncertified;

      const augmented = counts.examples - counts.rejectedExamples;
      const lines = [
        `read ${counts.examples} trajectories: ${augmented} augmented + ${counts.rejectedExamples} rejected`,
        `rows: ${counts.rows} written + ${counts.uncertified} uncertified = ${augmented} × ${variants} variants`,
        `rejected by reason: ${
          Object.keys(byReason).length === 0
            ? 'none'
            : Object.entries(byReason)
                .map(([reason, count]) => `${reason} ${count}`)
                .join(', ')
        }`,
        'dimension coverage (changed / chosen by the policy):',
        ...dimensions.map((dimension) => {
          const { planned, changed } = coverage[dimension] as { planned: number; changed: number };
          const share = planned === 0 ? '-' : `${((100 * changed) / planned).toFixed(1)}%`;
          return `  ${dimension.padEnd(14)} ${String(changed).padStart(6)} / ${String(planned).padEnd(6)} ${share}`;
        }),
        `out: ${options.out}${rejected > 0 || options.rejects ? `  rejects: ${rejectsFile}` : ''}  (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      // Rows were written, but part of the input could not be: say so in the exit code too.
      if (rejected > 0) process.exitCode = 1;
    });
}
