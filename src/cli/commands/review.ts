import { basename } from 'node:path';
import type { Command } from 'commander';
import { defaultSidecars, readAugmentedRows } from '../../augment/variant-sidecar.js';
import { hashHarness } from '../../harness/hash.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { addProtectedInputs } from '../../harness/output-guard.js';
import { renderReviewPage } from '../../review/review-page.js';
import { reviewRow } from '../../review/review-row.js';
import { sampleBySeed } from '../../review/sample-rows.js';
import { harnessWithChecks, withHookChecksOption } from '../episode-options.js';
import { writeFileAtomic } from '../io.js';
import { nonNegativeInteger } from '../numeric-options.js';
import { outOption, prepareOutputFile, printResult } from '../output.js';
import { sidecarOptionText } from '../rows.js';

interface ReviewCliOptions {
  harness: string;
  out: string;
  sample: string;
  seed: string;
  sidecar?: string[];
  hookChecks?: string;
}

export function registerReview(program: Command): void {
  withHookChecksOption(program.command('review'))
    .description(
      'write an offline HTML page that shows, for a seeded sample of rows, each changed text beside the base with the changed words marked',
    )
    .argument('<rows>', 'rows JSONL written by hsa augment')
    .requiredOption('--harness <file>', 'the base harness of the rows')
    .addOption(outOption('file', 'the HTML page to write', { required: true }))
    .option('--sample <n>', 'rows drawn (0: none; more than the file holds: all)', '20')
    .option('--seed <seed>', 'seed of the draw', '0')
    .option('--sidecar <files...>', sidecarOptionText)
    .action(async (rows: string, options: ReviewCliOptions) => {
      const size = nonNegativeInteger('--sample', options.sample);
      const sidecars = options.sidecar ?? (await defaultSidecars(rows));
      // The sidecars a row file reads unnamed are inputs too: the output guard protects them as well.
      await addProtectedInputs(
        sidecars.map((file, index) => ({ label: `--sidecar ${index + 1}`, path: file })),
      );
      await prepareOutputFile(options.out);
      const { harness: base, run } = await harnessWithChecks(options.harness, options.hookChecks);
      const baseHash = hashHarness(base).harness;
      let read = 0;
      const sample = await sampleBySeed(
        (async function* () {
          for await (const entry of readAugmentedRows(rows, { sidecars })) {
            read++;
            yield entry;
          }
        })(),
        { size, seed: options.seed, idOf: ({ row }) => String((row as { id?: unknown }).id) },
      );
      const checked = sample.map(({ item }) => {
        const where = `${rows}:${item.line}`;
        const row = reviewRow(item.row, where, { run });
        if (row.provenance.baseHash !== baseHash)
          throw new HarnessAugmentError(
            `${where}: ${options.harness} is not the base of row ${row.id} (its base hash is ${row.provenance.baseHash})`,
            { kind: 'usage' },
          );
        return { row, position: item.line };
      });
      const html = renderReviewPage({
        base,
        rows: checked,
        source: { rows: basename(rows), read, sample: size, seed: options.seed },
      });
      await writeFileAtomic(options.out, html);
      printResult({ out: options.out, read, shown: checked.length, seed: options.seed }, [
        `review of ${checked.length} of ${read} rows (seed ${options.seed}): ${options.out}`,
      ]);
    });
}
