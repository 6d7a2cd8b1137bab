// `hsa bench next-version`: the items of harness v carried to the real next version v+1 (src/bench/next-version.ts):
// rows under v and v+1 for `hsa bench predict` and `hsa bench score`, the carried items under v+1, and the
// items the edit changed the task of, for a teacher to regenerate, each with its reasons.
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import type { BenchReject } from '../../bench/generate.js';
import { readBenchItems } from '../../bench/items.js';
import { describeNextVersion, type NextVersionOutcome, nextVersionBench } from '../../bench/next-version.js';
import { jsonLines } from '../../harness/json-lines.js';
import { loadHarnessFile } from '../../harness/parse-harness.js';
import { hookCheckOptions } from '../../harness/run-context.js';
import { harnessWithChecks, withHookChecksOption } from '../episode-options.js';
import { finishCommand, openAtomicLines, writeFileAtomic } from '../io.js';
import { outOption, prepareOutputFolder, printResult, printWarning } from '../output.js';

interface BenchNextVersionOptions {
  harness: string;
  next: string;
  items: string;
  out: string;
  seed: string;
  unrelated?: string[];
  hookChecks?: string;
}

/** The files the command writes in its folder. */
const outputs = {
  rows: 'rows.jsonl',
  items: 'items.jsonl',
  regenerate: 'regenerate.jsonl',
  summary: 'next-version.json',
  rejects: 'rejects.jsonl',
} as const;

export function registerBenchNextVersion(bench: Command): void {
  withHookChecksOption(bench.command('next-version'))
    .description(
      "carry benchmark items of a harness to its real next version: answer keys relabeled exactly where the edit preserves the item's task, the others marked for regeneration with the reason",
    )
    .requiredOption('--harness <file>', 'the harness version the items are for (v)')
    .requiredOption('--next <file>', 'the real next version of that harness (v+1)')
    .requiredOption('--items <file>', 'benchmark items JSONL under --harness')
    .addOption(
      outOption('folder', 'folder for rows.jsonl, items.jsonl, regenerate.jsonl and next-version.json', {
        required: true,
      }),
    )
    .option('--seed <seed>', 'the seed recorded in the rows (the same as `hsa bench generate --seed`)', '0')
    .option(
      '--unrelated <names...>',
      'added or redescribed tools and skills you vouch that no item needs: their change touches no item that does not use them',
    )
    .action(async (options: BenchNextVersionOptions) => {
      const before = await harnessWithChecks(options.harness, options.hookChecks);
      // The next version is read in the same run, under the same hook checks.
      const after = { harness: await loadHarnessFile(options.next, hookCheckOptions(before.run)) };
      await prepareOutputFolder(options.out, { writes: Object.values(outputs) });
      const labels = { from: basename(options.harness), to: basename(options.next) };
      const edit = describeNextVersion(before.harness, after.harness, labels);
      // A vouched name the edit does not add or redescribe vouches for nothing: say so (a typo, or the wrong pair).
      const vouchable = new Set(
        edit.changes
          .filter((change) => !change.taskPreserving)
          .flatMap((change) => change.subjects.map((subject) => subject.split('.')[0] as string)),
      );
      for (const name of options.unrelated ?? [])
        if (!vouchable.has(name))
          printWarning(
            `hsa: --unrelated ${name}: the edit changes no task through a tool or skill of that name`,
          );
      const files = {
        rows: await openAtomicLines(join(options.out, outputs.rows)),
        items: await openAtomicLines(join(options.out, outputs.items)),
        regenerate: await openAtomicLines(join(options.out, outputs.regenerate)),
        rejects: await openAtomicLines(join(options.out, outputs.rejects)),
      };
      const rejects: BenchReject[] = [];
      const decisions: Array<Record<string, unknown>> = [];
      const counts = { read: 0, carried: 0, keyMoved: 0, regenerate: 0, rejected: 0 };
      try {
        for await (const outcome of nextVersionBench(
          before.harness,
          after.harness,
          readBenchItems(options.items),
          {
            seed: options.seed,
            labels,
            ...(options.unrelated ? { unrelated: options.unrelated } : {}),
            run: before.run,
            onItem: () => {
              counts.read++;
            },
            onReject: (reject) => {
              counts.rejected++;
              rejects.push(reject);
            },
          },
        )) {
          decisions.push(decisionOf(outcome));
          if (outcome.decision === 'carried') {
            counts.carried++;
            if (outcome.keyMoved) counts.keyMoved++;
            await files.rows.write(jsonLines(outcome.rows));
            await files.items.write(jsonLines([outcome.item]));
          } else {
            counts.regenerate++;
            await files.regenerate.write(
              jsonLines([
                { itemId: outcome.itemId, for: edit.to, reasons: outcome.reasons, item: outcome.item },
              ]),
            );
          }
        }
        await files.rejects.write(jsonLines(rejects));
      } catch (error) {
        for (const file of Object.values(files)) await file.abort();
        throw error;
      }
      await files.rows.commit();
      await files.items.commit();
      await files.regenerate.commit();
      if (rejects.length > 0) await files.rejects.commit();
      else await files.rejects.abort();
      const summary = {
        format: 'hsa-bench-next-version/1',
        from: edit.from,
        to: edit.to,
        taskPreserving: edit.taskPreserving,
        changes: edit.changes,
        counts,
        items: decisions,
        rejects: rejects.map((reject) => ({ ...reject })),
      };
      await writeFileAtomic(join(options.out, outputs.summary), `${JSON.stringify(summary, null, 2)}\n`);
      const changes = edit.changes.map(
        (change) => `${change.dimension}/${change.kind} ${change.count}/${change.total}`,
      );
      printResult(
        { out: options.out, from: edit.from, to: edit.to, taskPreserving: edit.taskPreserving, counts },
        [
          `edit ${edit.from.label} → ${edit.to.label}: ${edit.taskPreserving ? 'task-preserving' : 'changes the task'}${changes.length > 0 ? ` (${changes.join(', ')})` : ' (no change)'}`,
          `read ${counts.read} items: ${counts.carried} carried (${counts.keyMoved} with a moved answer key) + ${counts.regenerate} to regenerate + ${counts.rejected} rejected`,
          ...decisions
            .filter((decision) => decision.decision === 'regenerate')
            .slice(0, 10)
            .map((decision) => `  regenerate ${decision.itemId}: ${(decision.reasons as string[])[0]}`),
          ...(counts.regenerate > 10 ? [`  … ${counts.regenerate - 10} more in ${outputs.regenerate}`] : []),
          `out: ${options.out} (${outputs.rows}: ${2 * counts.carried} rows, ${outputs.items}, ${outputs.regenerate}, ${outputs.summary}${rejects.length > 0 ? `, ${outputs.rejects}` : ''})`,
        ],
      );
      finishCommand({ invalid: counts.rejected });
    });
}

function decisionOf(outcome: NextVersionOutcome): Record<string, unknown> {
  return outcome.decision === 'carried'
    ? { itemId: outcome.itemId, decision: 'carried', keyMoved: outcome.keyMoved, notes: outcome.notes }
    : { itemId: outcome.itemId, decision: 'regenerate', reasons: outcome.reasons };
}
