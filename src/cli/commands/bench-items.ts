// `hsa bench items`: bench items from gold trajectories, one per scorable user turn (the rule is in
// src/bench/derive-items.ts), for `hsa bench generate --items` and a pipeline's `bench.items`.
import type { Command } from 'commander';
import { itemsFromTrajectory } from '../../bench/derive-items.js';
import { readJsonl } from '../../trajectory/read-jsonl.js';
import { validateTrajectory } from '../../trajectory/validate-trajectory.js';
import { harnessWithChecks, withHookChecksOption } from '../episode-options.js';
import { finishCommand, openRowOutputs } from '../io.js';
import { outOption, printResult } from '../output.js';

interface BenchItemsOptions {
  harness: string;
  trajectories: string;
  out: string;
  rejects?: string;
  hookChecks?: string;
}

export function registerBenchItems(bench: Command): void {
  withHookChecksOption(bench.command('items'))
    .description(
      'derive benchmark items from gold trajectories: one per user turn that ends in a plain reply, its gold calls, loaded skills and the reply hooks’ banned terms as the answer key',
    )
    .requiredOption('--harness <file>', 'base harness file')
    .requiredOption('--trajectories <file>', 'gold trajectories JSONL under the base harness')
    .addOption(outOption('file', 'output benchmark items JSONL', { required: true }))
    .option(
      '--rejects <file>',
      'rejected trajectories and skipped turns, with their reasons (default: <out without .jsonl>.rejects.jsonl, written when anything is)',
    )
    .action(async (options: BenchItemsOptions) => {
      const { harness, run } = await harnessWithChecks(options.harness, options.hookChecks);
      const rejectsFile = options.rejects ?? `${options.out.replace(/\.jsonl$/i, '')}.rejects.jsonl`;
      const outputs = await openRowOutputs(options.out, rejectsFile);
      const counts = { trajectories: 0, rejected: 0, turns: 0, items: 0, skippedTurns: 0 };
      const byReason: Record<string, number> = {};
      const reject = (value: { reason: string } & Record<string, unknown>) => {
        byReason[value.reason] = (byReason[value.reason] ?? 0) + 1;
        outputs.reject({ file: options.trajectories, ...value });
      };
      const seen = new Set<string>();
      try {
        for await (const record of readJsonl(options.trajectories)) {
          counts.trajectories++;
          if ('issue' in record) {
            counts.rejected++;
            reject({
              scope: 'trajectory',
              reason: 'invalid_json',
              line: record.line,
              issues: [record.issue],
            });
            continue;
          }
          const validation = validateTrajectory(record.value, harness, { hookChecks: run.hookChecks });
          const gold = validation.trajectory;
          if (!validation.valid || !gold) {
            counts.rejected++;
            reject({
              scope: 'trajectory',
              reason: 'invalid_trajectory',
              line: record.line,
              issues: validation.issues.map((issue) => ({ ...issue, line: record.line })),
            });
            continue;
          }
          if (seen.has(gold.id)) {
            counts.rejected++;
            reject({ scope: 'trajectory', reason: 'duplicate_id', line: record.line, id: gold.id });
            continue;
          }
          seen.add(gold.id);
          const { items, skipped } = itemsFromTrajectory(harness, gold);
          counts.turns += items.length + skipped.length;
          for (const item of items) {
            counts.items++;
            await outputs.row(item);
          }
          for (const turn of skipped) {
            counts.skippedTurns++;
            reject({
              scope: 'turn',
              reason: turn.reason,
              line: record.line,
              id: gold.id,
              turn: turn.turn,
              message: 'the turn does not end in a plain assistant reply, or a hook blocked it or fell back',
            });
          }
        }
      } catch (error) {
        await outputs.abort();
        throw error;
      }
      await outputs.finish(options.rejects !== undefined);
      const written = counts.rejected + counts.skippedTurns > 0 || options.rejects !== undefined;
      const reasons = Object.entries(byReason)
        .sort((a, b) => a[0].localeCompare(b[0]))
        .map(([reason, count]) => `${reason} ${count}`)
        .join(', ');
      printResult({ out: options.out, ...(written ? { rejects: rejectsFile } : {}), ...counts, byReason }, [
        `read ${counts.trajectories} trajectories: ${counts.trajectories - counts.rejected} valid + ${counts.rejected} rejected`,
        `turns: ${counts.turns} = ${counts.items} items written + ${counts.skippedTurns} skipped`,
        `rejected or skipped by reason: ${reasons || 'none'}`,
        `out: ${options.out}${written ? `  rejects: ${rejectsFile}` : ''}`,
      ]);
      // Skipped turns are the rule, not bad data; a rejected trajectory is.
      finishCommand({ invalid: counts.rejected });
    });
}
