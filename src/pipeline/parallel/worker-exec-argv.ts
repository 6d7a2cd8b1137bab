// The Node options an augment worker thread starts with. A Worker given `execArgv` refuses V8 options and
// per-process options (`--heap-growing-percent`, `--max-semi-space-size`, `--title`, …) with
// ERR_WORKER_INVALID_EXEC_ARGV, so handing it `process.execArgv` crashed `node --heap-growing-percent=20
// hsa augment --workers 2`. Those options already hold for every thread of the process; a thread needs only
// the per-thread ones, which Node copies from its parent when `execArgv` is left out.
import { Worker } from 'node:worker_threads';

/**
 * The options of `parent` (a `process.execArgv`) grouped as written: a flag with its value when the value
 * is the next argument (`--import tsx`). Everything in an execArgv is a Node option, so an argument that
 * does not start with `-` is the value of the one before it.
 */
export function optionGroups(parent: readonly string[]): string[][] {
  const groups: string[][] = [];
  for (const argument of parent) {
    const last = groups[groups.length - 1];
    if (!argument.startsWith('-') && last && last.length === 1) last.push(argument);
    else groups.push([argument]);
  }
  return groups;
}

/** Whether a worker thread starts with these options (a refused one throws before the thread starts). */
function workerAccepts(execArgv: string[]): boolean {
  try {
    const probe = new Worker('', { eval: true, execArgv, stdout: true, stderr: true });
    probe.unref();
    void probe.terminate();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_WORKER_INVALID_EXEC_ARGV') return false;
    throw error;
  }
}

/**
 * `execArgv` for a worker thread that must also load `extra` (the TypeScript loader when running from
 * source): `undefined` when there is nothing to add (the thread inherits its parent's per-thread options,
 * which Node never refuses); else the parent's options a worker accepts (all of them when a probe thread
 * takes them all; else each tried in order, so that an option that needs an earlier one, `--cpu-prof-dir`
 * after `--cpu-prof`, is kept with it), then `extra`.
 *
 * @example
 * new Piscina({ filename, execArgv: workerExecArgv(process.execArgv, ['--import', 'tsx']) })
 */
export function workerExecArgv(
  parent: readonly string[],
  extra: readonly string[],
  accepts: (execArgv: string[]) => boolean = workerAccepts,
): string[] | undefined {
  if (extra.length === 0) return undefined;
  if (parent.length === 0 || accepts([...parent])) return [...parent, ...extra];
  const kept: string[] = [];
  for (const group of optionGroups(parent)) if (accepts([...kept, ...group])) kept.push(...group);
  return [...kept, ...extra];
}
