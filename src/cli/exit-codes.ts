// The exit code of `hsa`, decided in one place (docs/cli.md, "Exit codes"): 0 done; 1 bad data (an
// invalid harness, row or export, or any input rejected, even when the rest was written); 2 usage or
// I/O; 3 only a bug. A command that ran to the end reports its outcome through `finishCommand`; a
// command that throws gets its code from `errorExitCode` (./run.ts).
import { CommanderError } from 'commander';
import { HarnessAugmentError } from '../harness/issues.js';

export const exitCodes = { ok: 0, invalid: 1, usage: 2, internal: 3 } as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** What a command that ran to the end found wrong with its data; every field defaults to none. */
export interface CommandOutcome {
  /**
   * Inputs found bad: rejected rows, invalid trajectories or episodes, failed export rows, skills left out,
   * rows missing a prediction. Any one gives exit 1: the output was written, but not all of the input made it.
   */
  invalid?: number;
  /**
   * A stage that filters by design (the pipeline, whose judge and certificates drop units as part of the
   * job): dropped units are not bad data unless nothing was kept, which gives exit 1.
   */
  filtered?: { dropped: number; kept: number };
}

/**
 * The exit code of a command that ran to the end, by the one rule.
 *
 * @example
 * outcomeExitCode({ invalid: 2 }) // 1
 * outcomeExitCode({ filtered: { dropped: 3, kept: 10 } }) // 0
 */
export function outcomeExitCode(outcome: CommandOutcome): ExitCode {
  if ((outcome.invalid ?? 0) > 0) return exitCodes.invalid;
  const filtered = outcome.filtered;
  if (filtered && filtered.dropped > 0 && filtered.kept === 0) return exitCodes.invalid;
  return exitCodes.ok;
}

/**
 * Sets the exit code of a command that ran to the end from its outcome; every command ends through it.
 *
 * @example
 * finishCommand({ invalid: counts.rejected });
 */
export function finishCommand(outcome: CommandOutcome): void {
  const code = outcomeExitCode(outcome);
  if (code !== exitCodes.ok) process.exitCode = code;
}

/** How a thrown error is reported: its exit code and the `kind` of the `--json` error document. */
export interface ErrorVerdict {
  code: ExitCode;
  kind: 'usage' | 'invalid' | 'internal';
}

/**
 * The exit code of a command that threw: a usage or file-system error is 2, bad content 1, anything else
 * a bug (3). A parser error is 2; help and version (commander's exit 0) are `undefined`, a success.
 *
 * @example
 * errorExitCode(new HarnessAugmentError('bad row', { kind: 'invalid' })) // { code: 1, kind: 'invalid' }
 */
export function errorExitCode(error: unknown): ErrorVerdict | undefined {
  if (error instanceof CommanderError)
    return error.exitCode === 0 ? undefined : { code: exitCodes.usage, kind: 'usage' };
  if (HarnessAugmentError.isInstance(error))
    return error.kind === 'usage'
      ? { code: exitCodes.usage, kind: 'usage' }
      : { code: exitCodes.invalid, kind: 'invalid' };
  if (isFileSystemError(error)) return { code: exitCodes.usage, kind: 'usage' };
  return { code: exitCodes.internal, kind: 'internal' };
}

/** Whether an error is a Node file-system error (it carries an errno code and a system call). */
export function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  const candidate = error as NodeJS.ErrnoException | undefined;
  return (
    candidate instanceof Error &&
    typeof candidate.code === 'string' &&
    /^E[A-Z]+$/.test(candidate.code) &&
    typeof candidate.syscall === 'string'
  );
}
