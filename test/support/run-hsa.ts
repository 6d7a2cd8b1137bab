// Runs `hsa` in this process (no child process, no tsx start-up) and captures what it prints; for the many
// small cases of the hostile-input and fuzz tests. Use ./run-cli.ts where a real process matters (signals).
import { runHsa } from '../../src/cli/run.js';

export interface HsaRun {
  status: number;
  stdout: string;
  stderr: string;
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs `hsa args…` in process; calls are serialised because they share process.stdout and stderr. */
export function hsa(args: string[]): Promise<HsaRun> {
  const run = queue.then(async () => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const writeOut = process.stdout.write;
    const writeErr = process.stderr.write;
    process.stdout.write = ((chunk: string | Uint8Array) => {
      stdout.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const status = await runHsa(['node', 'hsa', ...args]);
      return { status, stdout: stdout.join(''), stderr: stderr.join('') };
    } finally {
      process.stdout.write = writeOut;
      process.stderr.write = writeErr;
    }
  });
  queue = run.catch(() => {});
  return run;
}
