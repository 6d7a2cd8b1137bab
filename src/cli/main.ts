// Entry point of `hsa`: runs the program and turns every failure into one clear line and an exit code.
// 0 valid, 1 invalid input (issues listed), 2 usage or I/O error, 3 internal error.
import { CommanderError } from 'commander';
import { HarnessAugmentError } from '../harness/issues.js';
import { exitCodes, printIssues } from './io.js';
import { createProgram } from './program.js';

async function main(argv: string[]): Promise<number> {
  try {
    await createProgram().parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed the message; help and version are successes.
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    if (HarnessAugmentError.isInstance(error)) {
      if (error.kind === 'usage') {
        process.stderr.write(`hsa: ${error.message}\n`);
        return exitCodes.usage;
      }
      process.stderr.write(`hsa: ${error.message}\n`);
      printIssues(error.issues);
      return exitCodes.invalid;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`hsa: internal error: ${message}\n`);
    if (process.env.HSA_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    else process.stderr.write('hsa: set HSA_DEBUG=1 for the stack trace, and please report it\n');
    return exitCodes.internal;
  }
}

main(process.argv).then((code) => {
  process.exitCode = code;
});
