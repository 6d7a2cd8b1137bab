// Crash-safe output of the SFT stage. Work units finish in a fixed order; each one appends its example and
// reject lines, then the checkpoint (written atomically) records how many units are done and how long each
// file was at that moment. After a crash — even SIGKILL between the two writes — `--resume` cuts every file
// back to the recorded length and carries on with the next unit, so the output has no duplicate and no gap
// and equals an uninterrupted run byte for byte.
import { type FileHandle, mkdir, open, readFile, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { HarnessAugmentError } from '../harness/issues.js';
import { writeFileAtomic } from '../harness/write-file-atomic.js';

export const runFiles = {
  examples: 'examples.jsonl',
  rejects: 'rejects.jsonl',
  checkpoint: 'checkpoint.json',
  manifest: 'manifest.json',
} as const;

/** Counts that the checkpoint carries across a resume. */
export interface RunCounts {
  tasks: number;
  units: number;
  examples: number;
  rejected: number;
  byReason: Record<string, number>;
  collapsed: number;
  fullTraces: number;
  teachers: Record<string, number>;
}

export interface Checkpoint {
  version: 1;
  /** Hash of the configuration and inputs the run was started with. */
  runHash: string;
  /** Units finished, in order. */
  units: number;
  /** Byte lengths of the output files after the last finished unit. */
  bytes: { examples: number; rejects: number };
  counts: RunCounts;
  /** True once every unit is done. */
  complete: boolean;
}

export const emptyCounts = (): RunCounts => ({
  tasks: 0,
  units: 0,
  examples: 0,
  rejected: 0,
  byReason: {},
  collapsed: 0,
  fullTraces: 0,
  teachers: {},
});

export interface RunFiles {
  /** Units already done (to skip). */
  readonly done: number;
  readonly counts: RunCounts;
  /** Appends one finished unit's lines and records it. */
  commitUnit(lines: { examples: string[]; rejects: string[] }, counts: RunCounts): Promise<void>;
  /** Marks the stage complete and closes the files. */
  complete(counts: RunCounts): Promise<void>;
  close(): Promise<void>;
}

async function readCheckpoint(dir: string): Promise<Checkpoint | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, runFiles.checkpoint), 'utf8')) as Checkpoint;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HarnessAugmentError(
      `${join(dir, runFiles.checkpoint)} is unreadable: ${(error as Error).message}`,
      {
        kind: 'usage',
      },
    );
  }
}

/**
 * Opens the run's output files: fresh (everything the pipeline wrote before is removed) or resumed from the
 * checkpoint.
 *
 * @example
 * const files = await openRunFiles('out/pipeline', { resume: true, runHash });
 */
export async function openRunFiles(
  dir: string,
  options: { resume: boolean; runHash: string },
): Promise<RunFiles> {
  await mkdir(dir, { recursive: true });
  const examplesPath = join(dir, runFiles.examples);
  const rejectsPath = join(dir, runFiles.rejects);
  let checkpoint = options.resume ? await readCheckpoint(dir) : undefined;
  if (options.resume && checkpoint && checkpoint.runHash !== options.runHash)
    throw new HarnessAugmentError(
      `${dir} holds a run of another configuration or input (its checkpoint does not match); run without --resume to start over`,
      { kind: 'usage' },
    );
  if (checkpoint) {
    const recorded: Array<[string, number]> = [
      [examplesPath, checkpoint.bytes.examples],
      [rejectsPath, checkpoint.bytes.rejects],
    ];
    for (const [path, bytes] of recorded) {
      // Shorter than the checkpoint says: the file was lost or cut, and truncate would pad it with zeros.
      const size = await stat(path).then(
        (info) => info.size,
        () => -1,
      );
      if (size < bytes)
        throw new HarnessAugmentError(
          `${path} holds ${size < 0 ? 'nothing' : `${size} bytes`}, less than the ${bytes} its checkpoint records; run without --resume to start over`,
          { kind: 'usage' },
        );
      await truncate(path, bytes);
    }
  } else {
    for (const name of [runFiles.examples, runFiles.rejects, runFiles.checkpoint, runFiles.manifest])
      await rm(join(dir, name), { force: true });
    await rm(join(dir, 'exports'), { recursive: true, force: true });
    await rm(join(dir, 'bench'), { recursive: true, force: true });
    await rm(join(dir, 'export-rejects'), { recursive: true, force: true });
    checkpoint = {
      version: 1,
      runHash: options.runHash,
      units: 0,
      bytes: { examples: 0, rejects: 0 },
      counts: emptyCounts(),
      complete: false,
    };
  }
  const examples: FileHandle = await open(examplesPath, 'a');
  const rejects: FileHandle = await open(rejectsPath, 'a');
  const state = checkpoint;
  const save = () => writeFileAtomic(join(dir, runFiles.checkpoint), `${JSON.stringify(state, null, 2)}\n`);
  if (!options.resume || !(await readCheckpoint(dir))) await save();
  const close = async () => {
    await Promise.all([examples.close().catch(() => {}), rejects.close().catch(() => {})]);
  };
  return {
    done: state.complete ? Number.POSITIVE_INFINITY : state.units,
    counts: structuredClone(state.counts),
    async commitUnit(lines, counts) {
      const exampleText = lines.examples.join('');
      const rejectText = lines.rejects.join('');
      if (exampleText) await examples.appendFile(exampleText);
      if (rejectText) await rejects.appendFile(rejectText);
      state.units++;
      state.bytes.examples += Buffer.byteLength(exampleText);
      state.bytes.rejects += Buffer.byteLength(rejectText);
      state.counts = structuredClone(counts);
      await save();
    },
    async complete(counts) {
      await Promise.all([examples.sync(), rejects.sync()]);
      state.counts = structuredClone(counts);
      state.complete = true;
      await save();
      await close();
    },
    close,
  };
}
