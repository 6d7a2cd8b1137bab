// The options every command that reads a harness or runs episodes shares, defined once: `--hook-checks
// <module>` (the custom hook checks the harness names, loaded by `loadHookChecks`) and `--max-steps <n>`
// (the step limit of a user turn). A command adds them with these functions and reads them with
// `harnessWithChecks` and `parseMaxSteps`, so that every command accepts the same harnesses.
import type { Command } from 'commander';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { loadHarnessFile } from '../harness/parse-harness.js';
import type { Harness } from '../harness/schema.js';
import { DEFAULT_MAX_STEPS_PER_TURN } from '../runtime/step-limit.js';
import { loadHookChecks } from './hook-checks-loader.js';
import { nonNegativeInteger } from './io.js';

/** The shared options as commander parses them. */
export interface EpisodeCliOptions {
  hookChecks?: string;
  maxSteps?: string;
}

/**
 * Adds `--hook-checks <module>`.
 *
 * @example
 * withHookChecksOption(program.command('validate'));
 */
export function withHookChecksOption(command: Command): Command {
  return command.option(
    '--hook-checks <module>',
    'a module exporting the custom hook checks the harness names (createHookCheckRegistry or a list)',
  );
}

/**
 * Adds `--max-steps <n>`: the step limit of one user turn.
 *
 * @example
 * withMaxStepsOption(program.command('run'));
 */
export function withMaxStepsOption(command: Command): Command {
  return command.option(
    '--max-steps <n>',
    `most assistant messages per user turn; a turn cut there is counted as truncated (default ${DEFAULT_MAX_STEPS_PER_TURN}, raised to the longest logged turn)`,
  );
}

/**
 * Reads `--max-steps`: undefined without it (the runtime's default applies), else an integer ≥ 1.
 *
 * @example
 * parseMaxSteps('30') // 30
 */
export function parseMaxSteps(text: string | undefined, name = '--max-steps'): number | undefined {
  if (text === undefined) return undefined;
  const value = nonNegativeInteger(name, text, 100_000);
  if (value < 1) throw new HarnessAugmentError(`${name} must be at least 1, got ${text}`, { kind: 'usage' });
  return value;
}

/**
 * Loads `--hook-checks` (when given) and the harness file under them.
 *
 * @example
 * const { harness, hookChecks } = await harnessWithChecks(options.harness, options.hookChecks);
 */
export async function harnessWithChecks(
  file: string,
  module: string | undefined,
): Promise<{ harness: Harness; hookChecks: HookCheckRegistry | undefined }> {
  const hookChecks = await loadHookChecks(module);
  const harness = await loadHarnessFile(file, hookChecks ? { hookChecks } : {});
  return { harness, hookChecks };
}
