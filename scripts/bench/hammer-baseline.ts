// The baseline of the tools-only figure: Hammer's own function masking (scripts/bench/hammer-masking.py
// drives the vendored scripts/bench/vendor/hammer/train/data_processing.py) on the inputs the augment child
// reads, the same number of copies per input.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { childCpu } from './child-processes.js';
import { cycledLines } from './cycled-inputs.js';

export interface HammerFigure {
  inputs: number;
  rows: number;
  bytes: number;
  /** The masking loop's CPU seconds (read, mask, format, write), as the runner measures them in process. */
  cpuSeconds: number;
  /** The whole Python process as the kernel counts it: start-up, loading Hammer's code, adapting the rows. */
  processCpuSeconds: number;
  rowsPerCpuSecond: number;
  commit: string;
  python: string;
  importsLeftOut: string[];
}

/** Runs Hammer's masking on `inputs` fixture lines cycled (as the augment child reads them) × `variants`. */
export async function hammerMasking(options: {
  fixture: string;
  inputs: number;
  variants: number;
  folder: string;
  python: string;
}): Promise<HammerFigure> {
  const lines = (await readFile(options.fixture, 'utf8')).split('\n').filter(Boolean);
  await mkdir(options.folder, { recursive: true });
  const source = join(options.folder, 'hammer-input.jsonl');
  await writeFile(source, `${cycledLines(lines, options.inputs).join('\n')}\n`);
  const measured = await childCpu(options.python, [
    'scripts/bench/hammer-masking.py',
    '--trajectories',
    source,
    '--variants',
    String(options.variants),
    '--out',
    join(options.folder, 'hammer-output.jsonl'),
  ]).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    throw new Error(`${options.python} not found: Hammer's masking runs on Python 3 (set BENCH_PYTHON)`);
  });
  const figure = JSON.parse(measured.stdout.trim()) as Omit<
    HammerFigure,
    'processCpuSeconds' | 'rowsPerCpuSecond'
  >;
  return {
    ...figure,
    processCpuSeconds: measured.cpuSeconds,
    rowsPerCpuSecond: figure.rows / figure.cpuSeconds,
  };
}
