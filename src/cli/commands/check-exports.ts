// `hsa check-exports <folder> [--template file…]`: the trainers' own rules over written exports, and every
// row rendered through the given chat templates; a report per format and template.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { type ChatTemplateSource, checkExports } from '../../adapters/trainer/check-exports.js';
import { cannotRead } from '../../harness/documents.js';
import { finishCommand } from '../io.js';
import { printResult } from '../output.js';

export function registerCheckExports(program: Command): void {
  program
    .command('check-exports')
    .description(
      'check trainer exports as their consumers read them: tools decoding, role alternation, and every row rendered through chat templates',
    )
    .argument('<folder...>', 'pipeline output folders, their exports/ folders, or single exports’ folders')
    .option(
      '--template <file...>',
      'chat template(s) (Jinja, e.g. your model’s chat_template.jinja) to render every trl and axolotl row through',
    )
    .option(
      '--format <format>',
      'the format of a single export whose folder is not named after it (trl, axolotl, openai)',
    )
    .action(async (folders: string[], options: { template?: string[]; format?: string }) => {
      const templates: ChatTemplateSource[] = [];
      for (const file of options.template ?? []) {
        const source = await readFile(file, 'utf8').catch((error: unknown) => {
          throw cannotRead(file, error);
        });
        templates.push({ name: basename(file).replace(/\.jinja2?$/, ''), source });
      }
      const results = [];
      for (const folder of folders)
        results.push(
          ...(await checkExports(folder, {
            templates,
            ...(options.format !== undefined ? { format: options.format } : {}),
          })),
        );
      const width = Math.max(8, ...results.map((result) => result.export.length));
      const lines = results.flatMap((result) => [
        `${result.export.padEnd(width)} ${result.check.padEnd(12)} ${result.rows - result.failed}/${result.rows} rows pass${result.longestRendered ? `  (longest rendered row ${result.longestRendered} characters)` : ''}`,
        ...result.reasons.map(
          (reason) => `    ${reason.rows} × ${reason.reason}${reason.at ? `  (first at ${reason.at})` : ''}`,
        ),
      ]);
      printResult({ folders, results }, lines);
      finishCommand({ invalid: results.filter((result) => result.failed > 0).length });
    });
}
