// Runs the `hsa` CLI in a child process, as a user would, and captures what it prints. The CLI is the build
// of this test run (test/support/build-cli.ts builds it from the current source once per run).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The `hsa` entry point built for this test run: `spawn(process.execPath, [hsaCli(), ...args])`. */
export function hsaCli(): string {
  return inject('hsaCli');
}

const typescriptPath = /\.[cm]?ts$/;

/**
 * Node's arguments that run the built `hsa` with `args`. A TypeScript module among them (`--scenario x.ts`,
 * `--hook-checks x.ts`), or `typescript: true` where a configuration names one, loads through tsx, as a
 * TypeScript user runs `hsa`; the CLI itself is the build either way.
 */
export function hsaArgv(args: string[], typescript = args.some((arg) => typescriptPath.test(arg))): string[] {
  return [...(typescript ? ['--import', 'tsx'] : []), hsaCli(), ...args];
}

export function runCli(
  args: string[],
  options: { cwd?: string; input?: string; timeout?: number; typescript?: boolean } = {},
): CliRun {
  const result = spawnSync(process.execPath, hsaArgv(args, options.typescript), {
    cwd: options.cwd ?? root,
    encoding: 'utf8',
    input: options.input,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: options.timeout ?? 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export const projectRoot = root;
