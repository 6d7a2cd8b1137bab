import type { Command } from 'commander';
import { loadHookChecks } from '../../harness/hook-check-module.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { loadHarnessFile } from '../../harness/parse-harness.js';
import { validateTrajectoriesFile } from '../../trajectory/validate-trajectories-file.js';
import { withHookChecksOption } from '../episode-options.js';
import { finishCommand, printIssues } from '../io.js';
import { outputMode } from '../output.js';

interface ValidateOptions {
  trajectories?: string;
  json?: boolean;
  systemCheck: boolean;
  hookChecks?: string;
}

export function registerValidate(program: Command): void {
  withHookChecksOption(program.command('validate'))
    .description('check a harness file, and optionally a trajectories JSONL file under it')
    .argument('<harness>', 'harness file (.yaml, .yml or .json)')
    .option('-t, --trajectories <file>', 'trajectories JSONL file to validate under the harness')
    .option('--no-system-check', 'do not compare system messages with the rendered prompt')
    .action(async (harnessFile: string, options: ValidateOptions) => {
      options.json = outputMode().json;
      const hookChecks = await loadHookChecks(options.hookChecks);
      const checks = { hookChecks };
      let harness: Awaited<ReturnType<typeof loadHarnessFile>>;
      try {
        harness = await loadHarnessFile(harnessFile, checks);
      } catch (error) {
        if (!options.json || !HarnessAugmentError.isInstance(error) || error.kind !== 'invalid') throw error;
        process.stdout.write(
          `${JSON.stringify({ harness: { file: harnessFile, valid: false, issues: error.issues } }, null, 2)}\n`,
        );
        finishCommand({ invalid: 1 });
        return;
      }
      const summary = {
        file: harnessFile,
        valid: true,
        id: harness.id,
        skills: harness.skills.items.length,
        hooks: harness.hooks.items.length,
        sections: harness.prompt.sections.length,
        tools: harness.tools.items.length,
      };
      const report = options.trajectories
        ? await validateTrajectoriesFile(options.trajectories, harness, {
            checkSystemPrompt: options.systemCheck,
            ...checks,
          })
        : undefined;
      if (options.json) {
        process.stdout.write(
          `${JSON.stringify({ harness: summary, ...(report ? { trajectories: { file: options.trajectories, ...report } } : {}) }, null, 2)}\n`,
        );
      } else if (!outputMode().quiet) {
        process.stdout.write(
          `${harnessFile}: valid harness "${harness.id}" (${summary.skills} skills, ${summary.hooks} hooks, ${summary.sections} prompt sections, ${summary.tools} tools)\n`,
        );
        if (report) {
          printIssues(report.issues);
          const { stats } = report;
          process.stdout.write(
            `${options.trajectories}: ${report.read} read, ${report.valid} valid, ${report.invalid} invalid` +
              ` (valid ones hold ${stats.turns} turns, ${stats.toolCalls} tool calls, ${stats.skillLoads} skill loads, ${stats.hookRejections} hook rejections)\n`,
          );
        }
      }
      finishCommand({ invalid: report?.invalid ?? 0 });
    });
}
