// Refuses an output path that names one of the command's inputs (after links): writing it would destroy
// the input it is read from, before or while it is read.
import { realpath } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { HarnessAugmentError } from '../harness/issues.js';
import { outputTarget } from '../harness/output-target.js';

async function realPath(file: string): Promise<string> {
  return realpath(file).catch(async () =>
    resolve(await realpath(dirname(file)).catch(() => resolve(dirname(file))), basename(file)),
  );
}

/**
 * Throws a `usage` error (exit 2) when `output` is the same file as any input, naming the option of each.
 *
 * @example
 * await refuseOutputOverInputs(['-o', options.out], { '<rows>': rows, '--harness': options.harness });
 */
export async function refuseOutputOverInputs(
  [option, output]: readonly [string, string],
  inputs: Record<string, string | undefined>,
): Promise<void> {
  const target = await outputTarget(output);
  // A device or a pipe (/dev/null, /dev/stdout) is written in place and never replaces an input file.
  if (target.mode === 'in-place') return;
  const written = await realPath(target.path);
  for (const [name, input] of Object.entries(inputs)) {
    if (input === undefined) continue;
    if ((await realPath(input)) === written)
      throw new HarnessAugmentError(`${option} ${output} is the input ${name}: name another output file`, {
        kind: 'usage',
      });
  }
}
