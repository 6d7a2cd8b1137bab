// The bench's child processes: the CPU seconds the kernel counts for a command run to its end, and the
// augment bench child (scripts/bench/augment-child.ts) from source or bundled as the CLI runs.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
// @ts-expect-error: plain JavaScript (it runs before anything compiles TypeScript), no declarations.
import { bundledEntry } from '../start.mjs';

const run = promisify(execFile);

/** CPU seconds (user + system) of this process's children that have exited, from /proc/self/stat (Linux). */
export function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of stat(5) (cutime, cstime), counted from the state field (3): indexes 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/**
 * Runs a command to its end and returns the CPU seconds it and its children used, threads included. Run
 * one at a time: the count is of every child that exited meanwhile.
 */
export async function childCpu(
  file: string,
  args: string[],
): Promise<{ cpuSeconds: number; stdout: string }> {
  const before = childrenCpuSeconds();
  const { stdout } = await run(file, args, { maxBuffer: 64 << 20 });
  return { cpuSeconds: childrenCpuSeconds() - before, stdout };
}

/** The bench child from source, through tsx. */
export const childFromSource = ['--import', 'tsx', 'scripts/bench/augment-child.ts'];

/** Runs the augment bench child with `args` and returns the figures of its last output line. */
export async function augmentChild(
  args: string[],
  entry: string[] = childFromSource,
): Promise<Record<string, number>> {
  const { stdout } = await run(process.execPath, [...entry, ...args], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, number>;
}

/**
 * The bench child bundled as the CLI is built (one bundle on plain Node), with its worker thread's bundle
 * where the built pool looks for it (`workers/augment-worker.js` beside the bundle); rebuilt only when the
 * source changed. The child first: its build empties its folder.
 */
export async function bundledAugmentChild(): Promise<string[]> {
  return [await bundledWithWorkers('scripts/bench/augment-child.ts', 'bench-child')];
}

/**
 * A bench script bundled as the CLI is built into `out/<folder>` (one file on plain Node, rebuilt only when
 * its source changed), with the augment worker's bundle where the built pool looks for it
 * (`workers/augment-worker.js` beside it). The script first: its build empties its folder.
 */
export async function bundledWithWorkers(entry: string, folder: string): Promise<string> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const out = join(root, 'out', folder);
  const { file } = (await bundledEntry({ root, entry, folder: out })) as { file: string };
  await bundledEntry({
    root,
    entry: 'src/pipeline/parallel/augment-worker.ts',
    folder: join(out, 'workers'),
    extension: '.js',
  });
  return file;
}
