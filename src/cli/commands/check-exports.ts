// `hsa check-exports <folder> [--template file…]`: the trainers' own rules over written exports, and every
// row rendered through the given chat templates; a report per format and template.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { type ChatTemplateSource, checkExports } from '../../adapters/trainer/check-exports.js';
import { cannotRead } from '../../harness/documents.js';
import { exitCodes } from '../io.js';
import { printResult } from '../output.js';

export function registerCheckExports(program: Command): void {
  program
    .command('check-exports')
    .description(
      'check trainer exports as their consumers read them: tools decoding, role alternation, and every row rendered through chat templates',
    )
    .argument('<folder>', 'a pipeline output folder, its exports/ folder, or one format’s folder')
    .option(
      '--template <file...>',
      'chat template(s) (Jinja, e.g. your model’s chat_template.jinja) to render every trl and axolotl row through',
    )
    .action(async (folder: string, options: { template?: string[] }) => {
      const templates: ChatTemplateSource[] = [];
      for (const file of options.template ?? []) {
        const source = await readFile(file, 'utf8').catch((error: unknown) => {
          throw cannotRead(file, error);
        });
        templates.push({ name: basename(file).replace(/\.jinja2?$/, ''), source });
      }
      const results = await checkExports(folder, { templates });
      const lines = results.flatMap((result) => [
        `${result.format.padEnd(8)} ${result.check.padEnd(12)} ${result.rows - result.failed}/${result.rows} rows pass${result.longestRendered ? `  (longest rendered row ${result.longestRendered} characters)` : ''}`,
        ...result.reasons.map((reason) => `    ${reason.rows} × ${reason.reason}`),
      ]);
      printResult({ folder, results }, lines);
      if (results.some((result) => result.failed > 0)) process.exitCode = exitCodes.invalid;
    });
}
