// The options several commands share, defined without importing what they configure, so that a command's
// definition (and `hsa <command> --help`) stays light; what the options load is in ./operators-registry.ts
// and ./episode-options.ts.
import type { Command } from 'commander';
import { DEFAULT_MAX_STEPS_PER_TURN } from '../runtime/step-limit.js';

/**
 * Adds `--operators <module>` (repeatable) to a command that takes a policy or operator names.
 *
 * @example
 * withOperatorsOption(program.command('augment'));
 */
export function withOperatorsOption(command: Command): Command {
  return command.option(
    '--operators <module>',
    'a module exporting third-party operators (`operators`: defineOperator(...) from harness-augment/kit, or an array); repeatable',
    (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
  );
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
