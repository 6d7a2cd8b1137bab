// Runs the `hsa` CLI from source in a child process, as a user would, and captures what it prints.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { cwd?: string; input?: string; timeout?: number } = {},
): CliRun {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `${root}src/cli/main.ts`, ...args], {
    cwd: options.cwd ?? root,
    encoding: 'utf8',
    input: options.input,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: options.timeout ?? 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export const projectRoot = root;
