import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Command } from 'commander';
import { type AugmentReject, augment } from '../../augment/augment.js';
import { dimensions } from '../../augment/operator.js';
import { compilePolicy, severityValue } from '../../augment/policy.js';
import { contentHash, hashHarness } from '../../harness/hash.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { loadHarnessFile } from '../../harness/parse-harness.js';
import { openCheckpointedLines } from '../../pipeline/checkpoint.js';
import { readJsonl } from '../../trajectory/read-jsonl.js';
import { nonNegativeInteger } from '../io.js';
import { builtinRegistry, resolvePolicy } from '../operators-registry.js';
import { outOption, prepareOutputFile, printResult } from '../output.js';
import { countLines, createProgress } from '../progress.js';
import { parseShard } from '../shard.js';

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
  resume?: boolean;
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
    .addOption(outOption('file', 'output rows JSONL', { required: true }))
    .option(
      '--rejects <file>',
      'rejects JSONL (default: <out without .jsonl>.rejects.jsonl, written when anything is rejected)',
    )
    .option('--shard <i/n>', 'only the examples whose position modulo n is i')
    .option(
      '--resume',
      'continue an interrupted run from <out>.checkpoint.json (the output equals an uninterrupted run)',
    )
    .action(async (options: AugmentCliOptions) => {
      const started = Date.now();
      const variants = nonNegativeInteger('--variants', options.variants, maxVariants);
      const shard = parseShard(options.shard);
      const harness = await loadHarnessFile(options.harness);
      const policy = await resolvePolicy(options.policy, options.policyFile);
      const severity =
        options.severity === undefined
          ? severityValue(policy.severity)
          : /^(slight|medium|heavy)$/.test(options.severity)
            ? severityValue(options.severity as 'slight')
            : Number(options.severity);
      if (!(severity >= 0 && severity <= 1))
        throw new HarnessAugmentError(`--severity must be slight, medium, heavy or within [0, 1]`, {
          kind: 'usage',
        });
      const plan = compilePolicy(policy, await builtinRegistry());

      const rejectsFile = options.rejects ?? `${options.out.replace(/\.jsonl$/i, '')}.rejects.jsonl`;
      await prepareOutputFile(options.out);
      await prepareOutputFile(rejectsFile);
      // The run's identity: a checkpoint of other inputs or options is never resumed.
      const runHash = contentHash({
        harness: hashHarness(harness).harness,
        trajectories: await fileHash(options.trajectories),
        policy,
        severity,
        variants,
        seed: options.seed,
        shard: shard ?? null,
        rejects: rejectsFile,
      });
      const files = await openCheckpointedLines<AugmentState>({
        files: { rows: options.out, rejects: rejectsFile },
        checkpoint: `${options.out}.checkpoint.json`,
        runHash,
        resume: options.resume === true,
      });
      const state: AugmentState = files.state ?? {
        counts: { examples: 0, rows: 0, rejectedExamples: 0, uncertified: 0 },
        byReason: {},
        coverage: Object.fromEntries(dimensions.map((dimension) => [dimension, { planned: 0, changed: 0 }])),
      };
      const { counts, byReason, coverage } = state;
      const lines = await countLines(options.trajectories);
      const total =
        lines === undefined ? undefined : shard ? Math.ceil((lines - shard.index) / shard.count) : lines;
      const progress = createProgress('augment', {
        ...(total === undefined ? {} : { total }),
        unit: 'examples',
      });
      // One unit per example: its rows and rejects are appended together, then the checkpoint.
      let unit = { rows: '', rejects: '' };
      const finished: Array<{ rows: string; rejects: string; state: AugmentState }> = [];
      let open = false;
      const flush = async () => {
        for (const done of finished.splice(0))
          await files.commitUnit({ rows: done.rows, rejects: done.rejects }, done.state);
      };
      const onReject = (reject: AugmentReject) => {
        byReason[reject.reason] = (byReason[reject.reason] ?? 0) + 1;
        if (reject.reason === 'uncertified') counts.uncertified++;
        else counts.rejectedExamples++;
        unit.rejects += `${JSON.stringify(reject)}\n`;
      };
      try {
        for await (const row of augment(harness, readJsonl(options.trajectories), {
          plan,
          variants,
          seed: options.seed,
          severity,
          ...(shard ? { shard } : {}),
          skipExamples: files.done,
          onReject,
          onExample: () => {
            if (open) finished.push({ ...unit, state: structuredClone(state) });
            unit = { rows: '', rejects: '' };
            open = true;
            counts.examples++;
            progress.update(counts.examples, `${counts.rows} rows`);
          },
        })) {
          await flush();
          counts.rows++;
          for (const dimension of row.provenance.planned)
            (coverage[dimension] as { planned: number }).planned++;
          for (const dimension of row.provenance.changed)
            (coverage[dimension] as { changed: number }).changed++;
          unit.rows += `${JSON.stringify(row)}\n`;
        }
        if (open) finished.push({ ...unit, state: structuredClone(state) });
        await flush();
      } catch (error) {
        progress.done();
        // The checkpoint stays: --resume continues from the last finished example.
        await files.close();
        throw error;
      }
      progress.done();
      await files.complete();
      const rejected = counts.rejectedExamples + counts.uncertified;
      if (rejected === 0 && options.rejects === undefined) await rm(rejectsFile, { force: true });

      const augmented = counts.examples - counts.rejectedExamples;
      const seconds = (Date.now() - started) / 1000;
      const summary = [
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
        `out: ${options.out}${rejected > 0 || options.rejects ? `  rejects: ${rejectsFile}` : ''}  (${seconds.toFixed(1)} s)`,
      ];
      printResult(
        {
          out: options.out,
          ...(rejected > 0 || options.rejects ? { rejects: rejectsFile } : {}),
          read: counts.examples,
          augmented,
          rejectedExamples: counts.rejectedExamples,
          rows: counts.rows,
          uncertified: counts.uncertified,
          variants,
          byReason,
          coverage,
          seconds,
        },
        summary,
      );
      // Rows were written, but part of the input could not be: say so in the exit code too.
      if (rejected > 0) process.exitCode = 1;
    });
}

/** The most variants per trajectory `--variants` accepts. */
export const maxVariants = 10_000;

interface AugmentState {
  counts: { examples: number; rows: number; rejectedExamples: number; uncertified: number };
  byReason: Record<string, number>;
  coverage: Record<string, { planned: number; changed: number }>;
}

async function fileHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch {
    // Unreadable: reading it fails below with a clear message.
  }
  return hash.digest('hex');
}
