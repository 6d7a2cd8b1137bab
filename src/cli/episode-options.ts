// The options every command that reads a harness or runs episodes shares, defined once: `--hook-checks
// <module>` (the custom hook checks the harness names, loaded by `loadHookChecks`) and `--max-steps <n>`
// (the step limit of a user turn). A command adds them with these functions and reads them with
// `harnessWithChecks` and `parseMaxSteps`, so that every command accepts the same harnesses.

import { loadHookChecks } from '../harness/hook-check-module.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { loadHarnessFile } from '../harness/parse-harness.js';
import { createRunContext, type RunContext } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { nonNegativeInteger } from './io.js';

/** The shared options as commander parses them. */
export interface EpisodeCliOptions {
  hookChecks?: string;
  maxSteps?: string;
}

// Defined with the other shared options, light to import for a command's definition.
export { withHookChecksOption, withMaxStepsOption } from './command-options.js';

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
 * Loads `--hook-checks` (when given) and the harness file under them, and starts the command's run (the
 * hook checks, and what the command derives), passed to everything the command does.
 *
 * @example
 * const { harness, run } = await harnessWithChecks(options.harness, options.hookChecks);
 */
export async function harnessWithChecks(
  file: string,
  module: string | undefined,
): Promise<{ harness: Harness; run: RunContext }> {
  const hookChecks = await loadHookChecks(module);
  const harness = await loadHarnessFile(file, { hookChecks });
  return { harness, run: createRunContext({ hookChecks }) };
}
