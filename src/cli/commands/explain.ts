import type { Command } from 'commander';
import { diffJson, formatChanges, type JsonChange } from '../../augment/json-diff.js';
import { hashHarness } from '../../harness/hash.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { Harness } from '../../harness/schema.js';
import type { RelabelStep } from '../../trajectory/relabel.js';
import { harnessWithChecks, withHookChecksOption } from '../episode-options.js';
import { nonNegativeInteger } from '../io.js';
import { outputMode, printResult } from '../output.js';
import { readRows, sidecarOptionText } from '../rows.js';

export function registerExplain(program: Command): void {
  withHookChecksOption(program.command('explain'))
    .description('show the operator chain of augmented rows and, given the base harness, what changed')
    .argument('<rows>', 'rows JSONL written by hsa augment')
    .option('--id <id>', 'only the row with this id (exampleId/variantIndex) or variantId')
    .option('--harness <file>', 'the base harness, for a diff of each variant against it')
    .option('--limit <n>', 'at most this many rows when no --id is given', '20')
    .option('--sidecar <files...>', sidecarOptionText)
    .action(
      async (
        file: string,
        options: { id?: string; harness?: string; limit: string; sidecar?: string[]; hookChecks?: string },
      ) => {
        const base: Harness | undefined = options.harness
          ? (await harnessWithChecks(options.harness, options.hookChecks)).harness
          : undefined;
        const baseHash = base ? hashHarness(base).harness : undefined;
        const limit = nonNegativeInteger('--limit', options.limit);
        const explained: unknown[] = [];
        let shown = 0;
        for await (const row of readRows(file, options.id, options.sidecar)) {
          if (options.id === undefined && shown >= limit) {
            if (!outputMode().json) printResult(undefined, '… more rows; use --id or --limit');
            break;
          }
          shown++;
          const lines = [`${row.id}  ${row.variantId}  seed ${row.provenance.variantSeed}`];
          if (row.provenance.ops.length === 0) lines.push('  (no operator: the base harness)');
          for (const [index, record] of row.provenance.ops.entries()) {
            lines.push(
              `  ${index + 1}. ${record.name}@${record.version} severity ${record.severity} ${JSON.stringify(record.params)}`,
            );
          }
          for (const skip of row.provenance.skipped) lines.push(`  skipped ${skip.name}: ${skip.reason}`);
          for (const step of row.relabel.steps) lines.push(`  relabel ${describeStep(step)}`);
          let changes: JsonChange[] | undefined;
          if (base) {
            if (baseHash !== row.provenance.baseHash) {
              throw new HarnessAugmentError(
                `${options.harness} is not the base of ${row.id} (hash ${row.provenance.baseHash})`,
                { kind: 'usage' },
              );
            }
            // Items matched by id or name, so that a reorder reads as one `order` line, not as every field changed.
            changes = diffJson(base, row.harness, { matchItemsByKey: true });
            lines.push(`  ${changes.length} change(s) against the base:`);
            lines.push(...formatChanges(changes).map((line) => `    ${line}`));
          }
          if (outputMode().json)
            explained.push({
              id: row.id,
              variantId: row.variantId,
              provenance: row.provenance,
              relabel: row.relabel,
              ...(changes ? { changes } : {}),
            });
          else printResult(undefined, lines);
        }
        if (outputMode().json) printResult(explained, []);
      },
    );
}

/** One line per relabel step, naming what it acts on, so that steps of the same type read apart. */
function describeStep(step: RelabelStep): string {
  switch (step.type) {
    case 'rename_tools':
    case 'rename_skills':
      return `${step.type}: ${Object.entries(step.map)
        .map(([from, to]) => `${from} → ${to}`)
        .join(', ')}`;
    case 'rename_arguments':
      return `${step.type} ${step.tool}: ${step.renames.map((rename) => `${[...rename.path, rename.from].join('.')} → ${rename.to}`).join(', ')}`;
    case 'nest_arguments':
      return `${step.type} ${step.tool}: its arguments under ${step.under}`;
    case 'insert_messages':
      return `insert ${step.messages.length} message(s) at ${step.at}`;
    case 'merge_skills':
      return `${step.type}: ${step.sources.join(' + ')} → ${step.into}`;
  }
}
