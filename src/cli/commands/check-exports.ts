// `hsa check-exports <folder> [--template file…] [--template-dir folder]`: the trainers' own rules over
// written exports, and every row rendered through the given chat templates or the ones each folder names;
// a report per folder of its rows, rules and templates.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import {
  type ChatTemplateSource,
  checkExports,
  type ExportCheckResult,
} from '../../adapters/trainer/check-exports.js';
import { cannotRead } from '../../harness/documents.js';
import { finishCommand } from '../io.js';
import { printResult } from '../output.js';

export function registerCheckExports(program: Command): void {
  program
    .command('check-exports')
    .description(
      "check trainer exports as their consumers read them (trl, axolotl, llama-factory, verl, openai, and the RL stage's openrlhf prompts): each trainer's rules, and every row rendered through the chat templates given or the ones the folder names",
    )
    .argument('<folder...>', 'pipeline output folders, their exports/ folders, or single exports’ folders')
    .option(
      '--template <file...>',
      'chat template(s) (Jinja, e.g. your model’s chat_template.jinja) to render every row through, instead of the ones each folder names',
    )
    .option(
      '--template-dir <folder>',
      'where the templates each folder names (manifest entry or README `templates:` line) are found as <name>.jinja: TRL’s trl/chat_templates',
    )
    .option(
      '--format <format>',
      'the format of a single export whose folder is not named after it (trl, axolotl, llama-factory, verl, openai, openrlhf)',
    )
    .action(
      async (folders: string[], options: { template?: string[]; templateDir?: string; format?: string }) => {
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
              ...(options.templateDir !== undefined ? { templateDir: options.templateDir } : {}),
              ...(options.format !== undefined ? { format: options.format } : {}),
            })),
          );
        printResult({ folders, results }, reportLines(results));
        finishCommand({ invalid: results.filter((result) => result.failed > 0).length });
      },
    );
}

/** The report, per folder: what it is, its rows and rules, then each template (or why none) and the failures. */
function reportLines(results: readonly ExportCheckResult[]): string[] {
  const width = Math.max(12, ...results.map((result) => result.check.length));
  const lines: string[] = [];
  for (const result of results) {
    if (result.check === 'structure') {
      lines.push(
        `${result.folder ?? result.export} (${result.format}): ${result.rows} rows, ${result.rows - result.failed} pass the trainer's rules`,
        `    rules: ${(result.rules ?? []).join('; ')}`,
      );
    } else if (result.check === 'skipped') {
      lines.push(`${result.folder ?? result.export}: ${result.note ?? ''}`);
      continue;
    } else if (result.check === 'templates') {
      lines.push(`    templates: ${result.note ?? ''}`);
      continue;
    } else {
      lines.push(
        `    ${result.check.padEnd(width)} ${result.rows - result.failed}/${result.rows} rows render${result.longestRendered ? `  (longest rendered row ${result.longestRendered} characters)` : ''}`,
      );
    }
    lines.push(
      ...result.reasons.map(
        (reason) => `      ${reason.rows} × ${reason.reason}${reason.at ? `  (first at ${reason.at})` : ''}`,
      ),
    );
  }
  return lines;
}
