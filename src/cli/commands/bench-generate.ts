// `hsa bench generate`: benchmark items × harness variants → certified bench rows, expectations rewritten
// into each variant's vocabulary. Output is written atomically; rejects go to their own file.
import type { Command } from 'commander';
import { type Dimension, dimensions } from '../../augment/operator.js';
import { loadOperatorModules } from '../../augment/operator-modules.js';
import { compileDimensionPlans } from '../../augment/policy.js';
import { leftOutNote, runnablePlan } from '../../augment/runnable-plan.js';
import type { PoolProvenance } from '../../augment/variant-pool.js';
import { createSidecarWriter, type RowWithVariant, sidecarPathOf } from '../../augment/variant-sidecar.js';
import { type BenchReject, generateBench, type Holdout } from '../../bench/generate.js';
import { readBenchItems } from '../../bench/items.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { harnessWithChecks, withHookChecksOption } from '../episode-options.js';
import { finishCommand, nonNegativeInteger, openAtomicLines, openRowOutputs } from '../io.js';
import { builtinRegistry, policyFromOptions, withOperatorsOption } from '../operators-registry.js';
import { outOption, outputFileOption, printResult } from '../output.js';
import { createProgress } from '../progress.js';

interface BenchGenerateOptions {
  items: string;
  harness: string;
  variants: string;
  seed: string;
  out: string;
  policy?: string;
  policyFile?: string;
  holdoutDimension?: string;
  holdoutOperator?: string;
  rejects?: string;
  attribution?: string;
  inlineHarness?: boolean;
  sidecar?: string;
  variantPool?: string;
  hookChecks?: string;
  operators?: string[];
}

export function registerBenchGenerate(bench: Command): void {
  withOperatorsOption(withHookChecksOption(bench.command('generate')))
    .description('turn benchmark items into certified rows under the base harness and N harness variants')
    .requiredOption('--items <file>', 'benchmark items JSONL under the base harness')
    .requiredOption('--harness <file>', 'base harness file')
    .option(
      '--variants <n>',
      'perturbed variants per item (variant 0, the base harness, is always added)',
      '5',
    )
    .option('--seed <seed>', 'global seed (the same seeds as `hsa augment`)', '0')
    .addOption(outOption('file', 'output bench rows JSONL', { required: true }))
    .option(
      '--policy <name>',
      'a preset: identity, hat, tools-only, rotbench-slight|medium|heavy|union (default hat)',
    )
    .option('--policy-file <file>', 'a policy in YAML or JSON')
    .option(
      '--holdout-dimension <dimension>',
      `rows perturbing this dimension are test, the rest train (${dimensions.join(', ')})`,
    )
    .option(
      '--holdout-operator <id>',
      'rows applying this operator (e.g. tools/rename) are test, the rest train',
    )
    .option(
      '--attribution <mode>',
      "mixed (default: each variant follows the whole policy) or one-dimension (variant v perturbs only the policy's ((v - 1) mod n)-th dimension, so per-dimension gaps are attributable)",
      'mixed',
    )
    .addOption(
      outputFileOption(
        '--rejects <file>',
        'rejects JSONL (default: <out without .jsonl>.rejects.jsonl, written when anything is rejected)',
      ),
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
      '--variant-pool <n>',
      "draw the variants from a pool of n shared harnesses (the bench's own, not `hsa augment`'s; default 0: every variant built for its item)",
    )
    .action(async (options: BenchGenerateOptions) => {
      const started = Date.now();
      const variants = nonNegativeInteger('--variants', options.variants, 10_000);
      const variantPool =
        options.variantPool === undefined ? 0 : nonNegativeInteger('--variant-pool', options.variantPool);
      const holdout: Holdout = {};
      if (options.holdoutDimension !== undefined) {
        if (!(dimensions as readonly string[]).includes(options.holdoutDimension))
          throw new HarnessAugmentError(
            `--holdout-dimension must be one of ${dimensions.join(', ')}, got "${options.holdoutDimension}"`,
            { kind: 'usage' },
          );
        holdout.dimension = options.holdoutDimension as Dimension;
      }
      const { harness, run } = await harnessWithChecks(options.harness, options.hookChecks);
      const registry = await builtinRegistry(await loadOperatorModules(options.operators));
      const { plan, policy } = await policyFromOptions(
        options.policy,
        options.policyFile,
        undefined,
        registry,
      );
      if (options.holdoutOperator !== undefined) {
        const known = registry.list().map((operator) => operator.id);
        if (!known.includes(options.holdoutOperator))
          throw new HarnessAugmentError(
            `--holdout-operator: unknown operator "${options.holdoutOperator}"; see \`hsa operators\``,
            { kind: 'usage' },
          );
        holdout.operator = options.holdoutOperator;
      }
      if (options.attribution !== 'mixed' && options.attribution !== 'one-dimension')
        throw new HarnessAugmentError(
          `--attribution must be mixed or one-dimension, got "${options.attribution}"`,
          { kind: 'usage' },
        );
      const attribution = options.attribution;
      const dimensionPlans = attribution === 'one-dimension' ? compileDimensionPlans(policy, registry) : [];
      if (attribution === 'one-dimension' && dimensionPlans.length === 0)
        throw new HarnessAugmentError(`--attribution one-dimension: the policy perturbs no dimension`, {
          kind: 'usage',
        });

      const rejectsFile = options.rejects ?? `${options.out.replace(/\.jsonl$/i, '')}.rejects.jsonl`;
      const outputs = await openRowOutputs(options.out, rejectsFile);
      // By reference (the default), each variant harness and relabel is written once, to the sidecar.
      const sidecarFile = options.inlineHarness ? undefined : (options.sidecar ?? sidecarPathOf(options.out));
      const sidecar = sidecarFile ? await openAtomicLines(sidecarFile) : undefined;
      const writer = sidecar ? createSidecarWriter() : undefined;
      const progress = await createProgress('bench generate', { unit: 'items' });
      const counts = { items: 0, rows: 0, rejectedItems: 0, uncertified: 0 };
      const splits = { train: 0, test: 0 };
      const pool: PoolTally = { entries: new Set(), drawn: 0, perItem: 0, alone: 0 };
      const byReason: Record<string, number> = {};
      const onReject = (reject: BenchReject) => {
        byReason[reject.reason] = (byReason[reject.reason] ?? 0) + 1;
        if (reject.variantIndex === undefined) counts.rejectedItems++;
        else counts.uncertified++;
        outputs.reject(reject);
      };
      try {
        for await (const row of generateBench(harness, readBenchItems(options.items), {
          plan,
          attribution,
          dimensionPlans,
          variants,
          seed: options.seed,
          ...(variantPool > 0 ? { pool: { size: variantPool } } : {}),
          run,
          ...(holdout.dimension || holdout.operator ? { holdout } : {}),
          onReject,
          onItem: () => {
            counts.items++;
            progress.update(counts.items, `${counts.rows} rows`);
          },
        })) {
          counts.rows++;
          splits[row.split]++;
          if (variantPool > 0)
            tallyPool(pool, row.variantIndex, row.provenance.pool as PoolProvenance | undefined);
          const lines = writer?.reference(row as unknown as RowWithVariant);
          await outputs.row(lines ? lines.row : row);
          if (lines?.sidecar) await sidecar?.write(lines.sidecar);
        }
      } catch (error) {
        progress.done();
        await outputs.abort();
        await sidecar?.abort();
        throw error;
      }
      progress.done();
      await outputs.finish(options.rejects !== undefined);
      await sidecar?.commit();
      const rejected = counts.rejectedItems + counts.uncertified;

      const accepted = counts.items - counts.rejectedItems;
      const planned = accepted * (variants + 1);
      const share = planned === 0 ? '-' : `${((100 * counts.rows) / planned).toFixed(1)}%`;
      const held = holdout.dimension ?? holdout.operator;
      const { leftOut } = runnablePlan(plan);
      const lines = [
        `read ${counts.items} items: ${accepted} accepted + ${counts.rejectedItems} rejected`,
        `rows: ${counts.rows} written + ${counts.uncertified} rejected = ${accepted} × ${variants + 1} variants (base + ${variants}); certified ${share}`,
        `split: test ${splits.test}, train ${splits.train}${held ? ` (held out: ${held}; variant 0 is always test)` : ' (no holdout: all test)'}`,
        ...(variantPool > 0
          ? [
              `variant pool: ${pool.entries.size} of ${variantPool} entries drawn; ${pool.drawn} rows from the pool (${pool.perItem} with steps of their own item), ${pool.alone} built for their item alone`,
            ]
          : []),
        leftOutNote(leftOut),
        `rejected by reason: ${
          Object.keys(byReason).length === 0
            ? 'none'
            : Object.entries(byReason)
                .map(([reason, count]) => `${reason} ${count}`)
                .join(', ')
        }`,
        `out: ${options.out}${sidecarFile ? `  sidecar: ${sidecarFile}` : ''}${rejected > 0 || options.rejects ? `  rejects: ${rejectsFile}` : ''}  (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      ];
      printResult(
        {
          out: options.out,
          ...(sidecarFile ? { sidecar: sidecarFile } : {}),
          ...(rejected > 0 || options.rejects ? { rejects: rejectsFile } : {}),
          ...counts,
          splits,
          leftOut,
          ...(variantPool > 0
            ? {
                pool: {
                  size: variantPool,
                  entriesDrawn: pool.entries.size,
                  rowsFromPool: pool.drawn,
                  rowsWithItemSteps: pool.perItem,
                  rowsBuiltAlone: pool.alone,
                },
              }
            : {}),
          byReason,
        },
        lines,
      );
      // Rows were written, but part of the input could not be: say so in the exit code too.
      finishCommand({ invalid: rejected });
    });
}

/** Where the perturbed rows' variants came from: pool entries drawn, rows from them (with steps of their own item), rows built alone. */
interface PoolTally {
  entries: Set<number>;
  drawn: number;
  perItem: number;
  alone: number;
}

/** Counts one row in the tally, from its provenance. */
function tallyPool(tally: PoolTally, variantIndex: number, pool: PoolProvenance | undefined) {
  if (variantIndex === 0) return;
  if (!pool) {
    tally.alone++;
    return;
  }
  tally.drawn++;
  tally.entries.add(pool.index);
  if (pool.perExample > 0) tally.perItem++;
}
