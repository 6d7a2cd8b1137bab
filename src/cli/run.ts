// Runs `hsa` in process and turns every failure into one clear line and an exit code (tests call it too).
// The codes come from one rule (./exit-codes.ts): 0 done, 1 bad data, 2 usage or I/O, 3 a bug.
import { CommanderError } from 'commander';
import { HarnessAugmentError, type Issue, printableLine, truncateText } from '../harness/issues.js';
import { releaseInputs } from '../harness/output-guard.js';
import { errorExitCode, exitCodes, isFileSystemError } from './exit-codes.js';
import { withoutHelpAfterUnknownCommand } from './help-after-unknown-command.js';
import { describeFileError, errorDocument, outputMode, printIssues, setOutputMode } from './output.js';
import { createProgram } from './program.js';

/**
 * Runs `hsa` with the given argv (node and script first, as `process.argv`) and returns the exit code.
 * Every failure becomes one line on standard error (and a JSON document with `--json`), never a stack trace
 * for bad input.
 */
export async function runHsa(argv: string[]): Promise<number> {
  // Known before parsing, so that a usage error from the parser honours them too.
  setOutputMode({ json: argv.includes('--json'), quiet: argv.includes('--quiet') || argv.includes('-q') });
  process.exitCode = undefined;
  try {
    const program = await createProgram(argv);
    await program.parseAsync(withoutHelpAfterUnknownCommand(program, argv));
    const code = process.exitCode;
    process.exitCode = undefined;
    return typeof code === 'number' ? code : exitCodes.ok;
  } catch (error) {
    return report(error);
  } finally {
    // The command's inputs are protected while it runs, not after (../harness/output-guard.ts).
    releaseInputs();
  }
}

function report(error: unknown): number {
  const verdict = errorExitCode(error);
  // Help and version are successes; commander has already printed them.
  if (verdict === undefined) return exitCodes.ok;
  if (error instanceof CommanderError)
    // Commander has already printed the message.
    return fail(verdict.code, verdict.kind, error.message.replace(/^error: /, ''), [], false);
  if (HarnessAugmentError.isInstance(error))
    return fail(verdict.code, verdict.kind, error.message, error.issues);
  if (isFileSystemError(error)) {
    const where = error.path ?? '';
    return fail(
      verdict.code,
      verdict.kind,
      `${where ? `${where}: ` : ''}cannot ${error.syscall}: ${describeFileError(error)}`,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = fail(verdict.code, verdict.kind, `internal error: ${message}`);
  if (process.env.HSA_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
  else process.stderr.write('hsa: set HSA_DEBUG=1 for the stack trace, and please report it\n');
  return code;
}

function fail(
  code: number,
  kind: string,
  message: string,
  issues: readonly Issue[] = [],
  printLine = true,
): number {
  const line = printableLine(truncateText(message.split('\n')[0] ?? ''));
  if (printLine) process.stderr.write(`hsa: ${line}\n`);
  if (outputMode().json) process.stdout.write(`${JSON.stringify(errorDocument(code, kind, line, issues))}\n`);
  else if (kind === 'invalid') printIssues(issues);
  return code;
}
