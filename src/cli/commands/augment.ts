import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { AugmentReject } from '../../augment/augment.js';
import { defaultVariantPoolSize } from '../../augment/variant-pool-size.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { AugmentPool } from '../../pipeline/parallel/augment-pool.js';
import { applicabilityWarnings } from '../applicability-warnings.js';
import { withHookChecksOption, withOperatorsOption } from '../command-options.js';
import { finishCommand } from '../exit-codes.js';
import { nonNegativeInteger, optionBounds, positiveInteger } from '../numeric-options.js';
import { outOption, outputFileOption, prepareOutputFiles, printResult, printWarning } from '../output.js';
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
  requireChange?: boolean;
  hookChecks?: string;
  operators?: string[];
  workers?: string;
  variantPool?: string;
  resume?: boolean;
  inlineHarness?: boolean;
  sidecar?: string;
  judge?: string;
}

export function registerAugment(program: Command): void {
  withOperatorsOption(withHookChecksOption(program.command('augment')))
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
    .addOption(
      outputFileOption(
        '--rejects <file>',
        'rejects JSONL (default: <out without .jsonl>.rejects.jsonl, written when anything is rejected)',
      ),
    )
    .option('--shard <i/n>', 'only the examples whose position modulo n is i')
    .option(
      '--require-change',
      'exit 1 when the policy cannot change this harness (before writing), or when any row is an unchanged copy',
    )
    .option(
      '--inline-harness',
      'write the whole variant harness and relabel into every row (default: rows name them by hash in the sidecar)',
    )
    .addOption(
      outputFileOption(
        '--sidecar <file>',
        'the variants sidecar (default: <out without .jsonl>.variants.jsonl)',
      ),
    )
    .option(
      '--workers <n>',
      'workers, at most 64: the main thread and N - 1 worker threads (N threads with --variant-pool 0); default the available cores but one, at most one per 64 input lines; rows are the same bytes for any count',
    )
    .option(
      '--variant-pool <n>',
      `shared variants built once and drawn by each example (default ${defaultVariantPoolSize}; 0: every variant built for its example)`,
    )
    .option(
      '--judge <file>',
      'a meaning judge (YAML or JSON: { endpoint: { baseURL, model, apiKeyEnv? }, concurrency? }) asked once per changed text whether it requires what the base text requires; a row it refuses goes to the rejects file, its verdicts to <out without .jsonl>.judge.jsonl',
    )
    .option(
      '--resume',
      'continue an interrupted run from <out>.checkpoint.json (the output equals an uninterrupted run)',
    )
    .action(async (options: AugmentCliOptions) => {
      const started = Date.now();
      // The library is loaded when the command runs, not for its help.
      const {
        augment,
        builtinRegistry,
        contentHash,
        createSidecarWriter,
        dimensions,
        fileHash,
        firstTrajectories,
        createAugmentRun,
        hashHarness,
        jsonLine,
        loadedOperatorIds,
        loadHarnessFile,
        loadHookChecks,
        loadOperatorModules,
        openCheckpointedLines,
        planApplicability,
        policyFromOptions,
        readJsonl,
        readSidecarHashes,
        sidecarPathOf,
        variantPoolFor,
      } = await import('./augment-library.js');
      const variants = nonNegativeInteger('--variants', options.variants, maxVariants);
      const shard = parseShard(options.shard);
      const requestedWorkers =
        options.workers === undefined
          ? undefined
          : positiveInteger('--workers', options.workers, optionBounds.workers);
      const variantPool =
        options.variantPool === undefined
          ? defaultVariantPoolSize
          : nonNegativeInteger('--variant-pool', options.variantPool);
      const hookChecks = await loadHookChecks(options.hookChecks);
      const harness = await loadHarnessFile(options.harness, { hookChecks });
      // The run: its hook checks and the facts its variants and rows derive, shared by the pool and augment.
      const run = createAugmentRun(harness, { hookChecks });
      const loadedOperators = await loadOperatorModules(options.operators);
      const { plan, severity, policy } = await policyFromOptions(
        options.policy,
        options.policyFile,
        options.severity,
        await builtinRegistry(loadedOperators),
      );

      const rejectsFile = options.rejects ?? `${options.out.replace(/\.jsonl$/i, '')}.rejects.jsonl`;
      // By reference (the default), each variant harness and relabel is written once, to the sidecar.
      const sidecarFile = options.inlineHarness ? undefined : (options.sidecar ?? sidecarPathOf(options.out));
      // The meaning judge is wired here (an adapter); the run only sees its spec through the filter.
      const judgeLibrary =
        options.judge === undefined ? undefined : await import('./augment-judge-library.js');
      const judge =
        options.judge === undefined || !judgeLibrary
          ? undefined
          : judgeLibrary.meaningJudgeFromConfig(
              await judgeLibrary.loadMeaningJudgeConfig(options.judge),
              process.env,
            ).judge;
      const verdictsFile =
        judge && judgeLibrary ? judgeLibrary.meaningVerdictsPathOf(options.out) : undefined;
      await prepareOutputFiles({
        '--out': options.out,
        '--rejects': rejectsFile,
        '--sidecar': sidecarFile,
        'the judge verdicts file': verdictsFile,
      });
      // Say up front what cannot apply here, rather than writing unchanged copies in silence.
      const applicability = await planApplicability(
        plan,
        harness,
        await firstTrajectories(options.trajectories, harness, { hookChecks }),
      );
      for (const line of applicabilityWarnings(applicability.operators, harness)) printWarning(line);
      if (!applicability.canChange) {
        const message = `policy ${policy.name ?? '(file)'} cannot change this harness: every variant would be an unchanged copy`;
        if (options.requireChange) throw new HarnessAugmentError(message, { issues: [] });
        printWarning(`warning: ${message}`);
      }

      // The run's identity: a checkpoint of other inputs or options is never resumed.
      const runHash = contentHash({
        harness: hashHarness(harness).harness,
        // Unreadable: reading it fails below with a clear message.
        trajectories: await fileHash(options.trajectories).catch(() => 'unreadable'),
        policy,
        severity,
        variants,
        seed: options.seed,
        variantPool,
        shard: shard ?? null,
        rejects: rejectsFile,
        sidecar: sidecarFile ?? null,
        // Only with --operators, so that the identity of runs without it stays as it was.
        ...(loadedOperators.length > 0 ? { operators: loadedOperatorIds(loadedOperators) } : {}),
        ...(judge ? { judge: judge.id } : {}),
      });
      const files = await openCheckpointedLines<AugmentState>({
        files: {
          rows: options.out,
          rejects: rejectsFile,
          ...(sidecarFile ? { variants: sidecarFile } : {}),
          ...(verdictsFile ? { judge: verdictsFile } : {}),
        },
        checkpoint: `${options.out}.checkpoint.json`,
        runHash,
        resume: options.resume === true,
      });
      const state: AugmentState = files.state ?? {
        counts: { examples: 0, rows: 0, rejectedExamples: 0, uncertified: 0, judgeRefused: 0, unchanged: 0 },
        byReason: {},
        coverage: Object.fromEntries(dimensions.map((dimension) => [dimension, { planned: 0, changed: 0 }])),
      };
      const { counts, byReason, coverage } = state;
      // A checkpoint written before --judge existed has no such count.
      counts.judgeRefused ??= 0;
      // A resumed writer knows what the sidecar already holds (cut back to the checkpoint).
      const writer = sidecarFile
        ? createSidecarWriter({ known: files.done > 0 ? await readSidecarHashes(sidecarFile) : [] })
        : undefined;
      // A resumed run reads the verdicts its checkpoint kept (the file was cut back with the rows).
      const meaning =
        judge && judgeLibrary
          ? judgeLibrary.createMeaningFilter({
              judge,
              known:
                files.done > 0 && verdictsFile ? await judgeLibrary.readMeaningVerdicts(verdictsFile) : [],
            })
          : undefined;
      const lines = await countLines(options.trajectories);
      const total =
        lines === undefined ? undefined : shard ? Math.ceil((lines - shard.index) / shard.count) : lines;
      // A worker thread costs a start-up (loading the library and the harness) and cold caches: small
      // inputs stay on one. One core is left to V8's own threads (garbage collection, compilation), which
      // one busy thread already keeps ~0.4 of a core busy with: on 2 cores a second worker is slower.
      const workers =
        requestedWorkers ??
        Math.max(
          1,
          Math.min(availableParallelism() - 1, Math.floor((total ?? minLinesPerWorker) / minLinesPerWorker)),
        );
      const progress = await createProgress('augment', {
        ...(total === undefined ? {} : { total }),
        unit: 'examples',
      });
      // One unit per example: its rows and rejects are appended together, then the checkpoint.
      let unit = { rows: '', rejects: '', variants: '', judge: '' };
      const finished: Array<{
        rows: string;
        rejects: string;
        variants: string;
        judge: string;
        state: AugmentState;
      }> = [];
      let open = false;
      const flush = async () => {
        for (const done of finished.splice(0))
          await files.commitUnit(
            { rows: done.rows, rejects: done.rejects, variants: done.variants, judge: done.judge },
            done.state,
          );
      };
      const onReject = (reject: AugmentReject) => {
        byReason[reject.reason] = (byReason[reject.reason] ?? 0) + 1;
        if (reject.reason === 'uncertified') counts.uncertified++;
        else counts.rejectedExamples++;
        unit.rejects += jsonLine(reject);
      };
      const pool: AugmentPool | undefined =
        workers > 1
          ? // Worker threads (piscina) are loaded only when asked for.
            (await import('../../pipeline/parallel/augment-pool.js')).createAugmentPool(
              {
                harnessFile: options.harness,
                seed: options.seed,
                variants,
                variantPool,
                // Both at once is refused above (policyFromOptions).
                policy: options.policyFile ?? options.policy ?? 'hat',
                ...(options.severity !== undefined ? { severity: options.severity } : {}),
                ...(options.hookChecks !== undefined ? { hookChecks: options.hookChecks } : {}),
                ...(options.operators !== undefined
                  ? { operators: options.operators.map((module) => resolve(module)) }
                  : {}),
              },
              workers,
              // The main thread's copy of the run's pool: it builds the entries a thread asks for.
              variantPoolFor(harness, {
                plan,
                seed: options.seed,
                severity,
                run,
                pool: { size: variantPool },
              }),
              { mainThreadWorks: true },
            )
          : undefined;
      try {
        for await (const row of augment(harness, readJsonl(options.trajectories), {
          plan,
          variants,
          seed: options.seed,
          severity,
          ...(shard ? { shard } : {}),
          run,
          ...(pool ? { parallel: pool } : {}),
          pool: { size: variantPool },
          skipExamples: files.done,
          onReject,
          onExample: () => {
            if (open) finished.push({ ...unit, state: structuredClone(state) });
            unit = { rows: '', rejects: '', variants: '', judge: '' };
            open = true;
            counts.examples++;
            progress.update(counts.examples, `${counts.rows} rows`);
          },
        })) {
          await flush();
          if (meaning) {
            const check = await meaning.check(harness, row);
            for (const verdict of meaning.takeNewVerdicts()) unit.judge += jsonLine(verdict);
            if (!check.keep) {
              counts.judgeRefused++;
              byReason.judge_refused = (byReason.judge_refused ?? 0) + 1;
              unit.rejects += jsonLine({
                reason: 'judge_refused',
                exampleId: row.exampleId,
                variantIndex: row.variantIndex,
                issues: check.issues,
              } satisfies AugmentReject);
              continue;
            }
          }
          counts.rows++;
          if (row.provenance.changed.length === 0) counts.unchanged++;
          for (const dimension of row.provenance.planned)
            (coverage[dimension] as { planned: number }).planned++;
          for (const dimension of row.provenance.changed)
            (coverage[dimension] as { changed: number }).changed++;
          const written = writer ? writer.write(row) : { row: jsonLine(row), sidecar: '' };
          unit.rows += written.row;
          unit.variants += written.sidecar;
        }
        if (open) finished.push({ ...unit, state: structuredClone(state) });
        await flush();
      } catch (error) {
        progress.done();
        // The checkpoint stays: --resume continues from the last finished example.
        await files.close();
        throw error;
      } finally {
        await pool?.close();
      }
      progress.done();
      await files.complete();
      const rejected = counts.rejectedExamples + counts.uncertified + counts.judgeRefused;
      if (rejected === 0 && options.rejects === undefined) await rm(rejectsFile, { force: true });

      const augmented = counts.examples - counts.rejectedExamples;
      const seconds = (Date.now() - started) / 1000;
      const summary = [
        `read ${counts.examples} trajectories: ${augmented} augmented + ${counts.rejectedExamples} rejected`,
        `rows: ${counts.rows} written + ${counts.uncertified} uncertified${judge ? ` + ${counts.judgeRefused} refused by the judge` : ''} = ${augmented} × ${variants} variants`,
        // An unchanged copy is a certified row too (the base is one of the harness's states), but say how many.
        ...(counts.unchanged > 0
          ? [
              `  of which ${counts.unchanged} unchanged copies of the base (no operator of the policy applied; --require-change makes them an error)`,
            ]
          : []),
        ...(meaning
          ? [
              `judge: ${meaning.stats.pairs} changed texts judged: ${meaning.stats.asked} asked, ${meaning.stats.cached} from its verdicts${files.done > 0 ? ' (this session)' : ''}`,
            ]
          : []),
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
        `out: ${options.out}${sidecarFile ? `  sidecar: ${sidecarFile}` : ''}${verdictsFile ? `  verdicts: ${verdictsFile}` : ''}${rejected > 0 || options.rejects ? `  rejects: ${rejectsFile}` : ''}  (${seconds.toFixed(1)} s)`,
      ];
      printResult(
        {
          out: options.out,
          ...(sidecarFile ? { sidecar: sidecarFile } : {}),
          ...(rejected > 0 || options.rejects ? { rejects: rejectsFile } : {}),
          read: counts.examples,
          augmented,
          rejectedExamples: counts.rejectedExamples,
          rows: counts.rows,
          uncertified: counts.uncertified,
          ...(meaning
            ? {
                judgeRefused: counts.judgeRefused,
                judge: { id: judge?.id, verdicts: verdictsFile, ...meaning.stats },
              }
            : {}),
          variants,
          byReason,
          coverage,
          unchanged: counts.unchanged,
          seconds,
        },
        summary,
      );
      if (counts.unchanged > 0 && options.requireChange)
        process.stderr.write(
          `${counts.unchanged} of ${counts.rows} rows are unchanged copies of the base (--require-change)\n`,
        );
      // Rows were written, but part of the input could not be (or, with --require-change, some rows are
      // unchanged copies): say so in the exit code too.
      // A row the judge refuses is filtered by design, not bad input: exit 1 only when it kept none.
      finishCommand({
        invalid:
          counts.rejectedExamples + counts.uncertified + (options.requireChange ? counts.unchanged : 0),
        ...(judge ? { filtered: { dropped: counts.judgeRefused, kept: counts.rows } } : {}),
      });
    });
}

/** Input lines per worker below which the default `--workers` adds no worker. */
const minLinesPerWorker = 64;

/** The most variants per trajectory `--variants` accepts. */
export const maxVariants = 10_000;

interface AugmentState {
  counts: {
    examples: number;
    rows: number;
    rejectedExamples: number;
    uncertified: number;
    /** Certified rows the meaning judge refused (`--judge`). */
    judgeRefused: number;
    unchanged: number;
  };
  byReason: Record<string, number>;
  coverage: Record<string, { planned: number; changed: number }>;
}
