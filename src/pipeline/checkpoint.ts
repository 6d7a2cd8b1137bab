// Crash-safe output of the SFT stage. Work units finish in a fixed order; their example and reject lines are
// appended a batch of units at a time, then the checkpoint (written atomically) records how many units are
// done and how long each file was at that moment. After a crash — even SIGKILL between the two writes —
// `--resume` cuts every file back to the recorded length and carries on with the next unit, so the output has
// no duplicate and no gap and equals an uninterrupted run byte for byte.
import { type FileHandle, open, readFile, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { HarnessAugmentError } from '../harness/issues.js';
import { jsonLine } from '../harness/json-lines.js';
import { type OutputTarget, outputTarget, releasePipe } from '../harness/output-target.js';
import { atomicFileRewriter, makeFolder, removeAtomicTemporaries } from '../harness/write-file-atomic.js';

export const runFiles = {
  examples: 'examples.jsonl',
  rejects: 'rejects.jsonl',
  /** The harnesses the examples name by hash (see example-sidecar.ts). */
  variants: 'variants.jsonl',
  checkpoint: 'checkpoint.json',
  manifest: 'manifest.json',
  /** Where exports are written before they move into `exports/`. */
  staging: '.staging',
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
  bytes: { examples: number; rejects: number; variants?: number };
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
  commitUnit(
    lines: { examples: string[]; rejects: string[]; variants?: string[] },
    counts: RunCounts,
  ): Promise<void>;
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
  options: { resume: boolean; runHash: string; sidecar?: boolean },
): Promise<RunFiles> {
  await makeFolder(dir);
  for (const name of [runFiles.checkpoint, runFiles.manifest]) await removeAtomicTemporaries(join(dir, name));
  const examplesPath = join(dir, runFiles.examples);
  const rejectsPath = join(dir, runFiles.rejects);
  const variantsPath = join(dir, runFiles.variants);
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
      ...(options.sidecar ? [[variantsPath, checkpoint.bytes.variants ?? 0] as [string, number]] : []),
    ];
    for (const [path, bytes] of recorded) {
      // Shorter than the checkpoint says: the file was lost or cut, and truncate would pad it with zeros.
      const size = await stat(path).then(
        (info) => info.size,
        () => -1,
      );
      // A sidecar a unit has not written to yet may not exist (an older checkpoint has none).
      if (size < 0 && bytes === 0 && path === variantsPath) continue;
      if (size < bytes)
        throw new HarnessAugmentError(
          `${path} holds ${size < 0 ? 'nothing' : `${size} bytes`}, less than the ${bytes} its checkpoint records; run without --resume to start over`,
          { kind: 'usage' },
        );
      await truncate(path, bytes);
    }
  } else {
    for (const name of [
      runFiles.examples,
      runFiles.rejects,
      runFiles.variants,
      runFiles.checkpoint,
      runFiles.manifest,
    ])
      await rm(join(dir, name), { force: true });
    await rm(join(dir, 'exports'), { recursive: true, force: true });
    await rm(join(dir, 'bench'), { recursive: true, force: true });
    await rm(join(dir, 'export-rejects'), { recursive: true, force: true });
    await rm(join(dir, runFiles.staging), { recursive: true, force: true });
    checkpoint = {
      version: 1,
      runHash: options.runHash,
      units: 0,
      bytes: { examples: 0, rejects: 0, ...(options.sidecar ? { variants: 0 } : {}) },
      counts: emptyCounts(),
      complete: false,
    };
  }
  const examples: FileHandle = await open(examplesPath, 'a');
  const rejects: FileHandle = await open(rejectsPath, 'a');
  const variants: FileHandle | undefined = options.sidecar ? await open(variantsPath, 'a') : undefined;
  const state = checkpoint;
  const rewrite = atomicFileRewriter(join(dir, runFiles.checkpoint));
  const save = () => rewrite(`${JSON.stringify(state, null, 2)}\n`);
  if (!options.resume || !(await readCheckpoint(dir))) await save();
  const close = async () => {
    await Promise.all([examples, rejects, variants].map((handle) => handle?.close().catch(() => {})));
  };
  // Finished units are gathered and appended with their checkpoint a batch at a time (every
  // `commitEveryMs`, or `commitEveryUnits` units): a checkpoint write per unit cost more than the unit's
  // lines on a fast run (a temporary written and renamed, three appends, each a round trip to the I/O
  // threads). A crash loses at most the batch, which a resume makes again: the output is the same.
  const pending = { units: 0, examples: [] as string[], rejects: [] as string[], variants: [] as string[] };
  let pendingCounts: RunCounts | undefined;
  const batch = batchClock();
  const commitPending = async () => {
    if (pending.units === 0) return;
    const exampleText = pending.examples.join('');
    const rejectText = pending.rejects.join('');
    const variantText = pending.variants.join('');
    const units = pending.units;
    pending.units = 0;
    pending.examples = [];
    pending.rejects = [];
    pending.variants = [];
    if (exampleText) await examples.appendFile(exampleText);
    if (rejectText) await rejects.appendFile(rejectText);
    if (variantText && variants) await variants.appendFile(variantText);
    state.units += units;
    state.bytes.examples += Buffer.byteLength(exampleText);
    state.bytes.rejects += Buffer.byteLength(rejectText);
    if (variants) state.bytes.variants = (state.bytes.variants ?? 0) + Buffer.byteLength(variantText);
    state.counts = pendingCounts as RunCounts;
    await save();
    batch.committed();
  };
  return {
    done: state.complete ? Number.POSITIVE_INFINITY : state.units,
    counts: structuredClone(state.counts),
    async commitUnit(lines, counts) {
      pending.units++;
      pending.examples.push(...lines.examples);
      pending.rejects.push(...lines.rejects);
      if (variants) pending.variants.push(...(lines.variants ?? []));
      pendingCounts = structuredClone(counts);
      if (batch.due(pending.units)) await commitPending();
    },
    async complete(counts) {
      await commitPending();
      await Promise.all([examples.sync(), rejects.sync(), variants?.sync()]);
      state.counts = structuredClone(counts);
      state.complete = true;
      await save();
      await close();
    },
    // The finished units are committed first; a failure there leaves them out, as a crash would (a resume
    // makes them again).
    async close() {
      await commitPending().catch(() => {});
      await close();
    },
  };
}

/** How often finished units are appended with their checkpoint: at most this long apart… */
const commitEveryMs = 100;
/** …or once this many units are waiting. */
const commitEveryUnits = 256;

/** The one rule for when gathered units are committed (`commitEveryMs`, `commitEveryUnits`). */
function batchClock() {
  let last = performance.now();
  return {
    due: (units: number) => units >= commitEveryUnits || performance.now() - last >= commitEveryMs,
    committed: () => {
      last = performance.now();
    },
  };
}

/** The checkpoint of `openCheckpointedLines`: units done, each file's length then, and the caller's state. */
export interface LinesCheckpoint<State> {
  version: 1;
  runHash: string;
  units: number;
  bytes: Record<string, number>;
  state: State;
}

/** Line files appended a batch of finished units at a time, each batch with its checkpoint (see the file header). */
export interface CheckpointedLines<State> {
  /** Units already done by an earlier run (0 on a fresh start). */
  readonly done: number;
  /** The state recorded with the last finished unit, or undefined on a fresh start. */
  readonly state: State | undefined;
  /** Records one finished unit: its text for each named file, appended with `state` in the next batch. */
  commitUnit(text: Partial<Record<string, string>>, state: State): Promise<void>;
  /** Syncs and closes the files and removes the checkpoint: the run is complete. */
  complete(): Promise<void>;
  /** Commits the finished units and closes the files; the checkpoint stays, for a resume. */
  close(): Promise<void>;
}

/**
 * The crash-safe append contract of the pipeline, for any set of line files: fresh (the files and the
 * checkpoint are removed) or resumed (each file is cut back to the length its checkpoint records). The
 * checkpoint is removed on `complete`, so a resumed complete run starts over.
 *
 * @example
 * const files = await openCheckpointedLines({ files: { rows: 'out.jsonl' }, checkpoint: 'out.jsonl.checkpoint.json', runHash, resume: true });
 */
export async function openCheckpointedLines<State>(options: {
  files: Record<string, string>;
  checkpoint: string;
  runHash: string;
  resume: boolean;
}): Promise<CheckpointedLines<State>> {
  const names = Object.keys(options.files).sort();
  // Through the output guard: a link is followed (the file it names is cut and appended, the link stays), a
  // device is appended in place, and other special files are refused.
  const targets = new Map<string, OutputTarget>();
  for (const name of names) targets.set(name, await outputTarget(options.files[name] as string));
  const pathOf = (name: string) => (targets.get(name) as OutputTarget).path;
  const inPlace = (name: string) => (targets.get(name) as OutputTarget).mode === 'in-place';
  await removeAtomicTemporaries(options.checkpoint);
  let recorded: LinesCheckpoint<State> | undefined;
  if (options.resume) {
    try {
      recorded = JSON.parse(await readFile(options.checkpoint, 'utf8')) as LinesCheckpoint<State>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new HarnessAugmentError(`${options.checkpoint} is unreadable: ${(error as Error).message}`, {
          kind: 'usage',
        });
    }
  }
  if (recorded && recorded.runHash !== options.runHash)
    throw new HarnessAugmentError(
      `${options.checkpoint} belongs to a run of other options or input; run without --resume to start over`,
      { kind: 'usage' },
    );
  if (recorded) {
    for (const name of names) {
      if (inPlace(name)) continue;
      const path = pathOf(name);
      const bytes = recorded.bytes[name] ?? 0;
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
    for (const name of names) if (!inPlace(name)) await rm(pathOf(name), { force: true });
    await rm(options.checkpoint, { force: true });
  }
  const handles = new Map<string, FileHandle>();
  for (const name of names) {
    handles.set(name, await open(pathOf(name), 'a'));
    if (inPlace(name)) await releasePipe(pathOf(name));
  }
  const checkpoint: LinesCheckpoint<State> = recorded ?? {
    version: 1,
    runHash: options.runHash,
    units: 0,
    bytes: Object.fromEntries(names.map((name) => [name, 0])),
    state: undefined as State,
  };
  const close = async () => {
    await Promise.all([...handles.values()].map((handle) => handle.close().catch(() => {})));
  };
  const saveCheckpoint = atomicFileRewriter(options.checkpoint);
  // As `openRunFiles`: finished units are committed a batch at a time, except where a file is written in
  // place (a pipe, a device), whose reader sees each unit as it finishes.
  const everyUnit = names.some(inPlace);
  let pending: { text: Record<string, string[]>; units: number; state: State } | undefined;
  const batch = batchClock();
  const commitPending = async () => {
    if (!pending) return;
    const { text, units, state } = pending;
    pending = undefined;
    for (const name of names) {
      const chunk = (text[name] ?? []).join('');
      if (!chunk) continue;
      await (handles.get(name) as FileHandle).appendFile(chunk);
      checkpoint.bytes[name] = (checkpoint.bytes[name] ?? 0) + Buffer.byteLength(chunk);
    }
    checkpoint.units += units;
    checkpoint.state = state;
    await saveCheckpoint(jsonLine(checkpoint));
    batch.committed();
  };
  return {
    done: checkpoint.units,
    state: recorded?.state,
    async commitUnit(text, state) {
      pending ??= { text: {}, units: 0, state };
      for (const name of names) {
        const chunk = text[name];
        if (!chunk) continue;
        const chunks = pending.text[name] ?? [];
        chunks.push(chunk);
        pending.text[name] = chunks;
      }
      pending.units++;
      pending.state = state;
      if (everyUnit || batch.due(pending.units)) await commitPending();
    },
    async complete() {
      await commitPending();
      await Promise.all(names.filter((name) => !inPlace(name)).map((name) => handles.get(name)?.sync()));
      await close();
      await rm(options.checkpoint, { force: true });
    },
    async close() {
      await commitPending().catch(() => {});
      await close();
    },
  };
}
