// One run per output folder: a pipeline run holds `<out>/run.lock` (created with O_EXCL, so exactly one
// start wins) while it writes. The file names its holder — pid, host, start time — so that a second start
// can say who holds the folder. A lock whose holder is gone (same host, no such process: a SIGKILLed run)
// is stale and is taken over; a lock from another host cannot be checked and is refused. No lock library
// is installed here; the file and its O_EXCL creation are the whole mechanism (as proper-lockfile's is a
// mkdir), with a rename for the takeover so that two starts cannot both take one stale lock.
import { readFileSync, unlinkSync } from 'node:fs';
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { HarnessAugmentError } from '../harness/issues.js';
import { temporaryPath } from '../harness/write-file-atomic.js';

export const runLockFile = 'run.lock';

/** Who holds a folder's lock, as its lock file records. */
export interface RunLockHolder {
  pid: number;
  host: string;
  /** ISO 8601 time the holder started. */
  started: string;
}

export interface RunLock {
  readonly file: string;
  readonly holder: RunLockHolder;
  /** Removes the lock file if it is still this lock's (idempotent). */
  release(): Promise<void>;
}

export interface LockRunFolderOptions {
  /** Told when a stale lock (its holder gone) is taken over. */
  onStale?: (stale: RunLockHolder, file: string) => void;
}

/** Locks held by this process, released at its exit and by `releaseRunLocksOnSignals`. */
// Process state, not a cache: the run locks this process holds until it exits.
const held = new Map<string, string>();
let exitHook = false;
let signalHook = false;

function releaseHeldSync(): void {
  for (const [file, content] of held) {
    try {
      if (readFileSync(file, 'utf8') === content) unlinkSync(file);
    } catch {
      // Already gone.
    }
  }
  held.clear();
}

const describeHolder = (holder: RunLockHolder) =>
  `pid ${holder.pid} on ${holder.host}, started ${holder.started}`;

function parseHolder(text: string): RunLockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<RunLockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.started === 'string')
      return { pid: value.pid, host: value.host, started: value.started };
  } catch {
    // Not a lock this tool wrote.
  }
  return undefined;
}

/** Whether a process with this pid runs on this host (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const isStale = (holder: RunLockHolder) => holder.host === hostname() && !alive(holder.pid);

async function createExclusive(file: string, content: string): Promise<boolean> {
  // Written whole beside the lock, then linked into place (a link fails where the lock exists): another start
  // never reads a lock file half written, which would name no holder.
  const temporary = temporaryPath(file);
  try {
    await writeFile(temporary, content);
    await link(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * Takes the run lock of an output folder (which must exist), or throws a usage error naming its holder.
 *
 * @example
 * const lock = await lockRunFolder('out/run-1'); try { … } finally { await lock.release(); }
 */
export async function lockRunFolder(folder: string, options: LockRunFolderOptions = {}): Promise<RunLock> {
  const file = join(folder, runLockFile);
  const holder: RunLockHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const content = `${JSON.stringify(holder)}\n`;
  // A few rounds: each lost race (another start took the stale lock first) reads the new holder again.
  for (let round = 0; round < 5; round++) {
    if (await createExclusive(file, content)) {
      held.set(file, content);
      if (!exitHook) {
        exitHook = true;
        process.once('exit', releaseHeldSync);
      }
      return {
        file,
        holder,
        async release() {
          if (held.get(file) !== content) return;
          held.delete(file);
          const now = await readFile(file, 'utf8').catch(() => undefined);
          if (now === content) await rm(file, { force: true });
        },
      };
    }
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const current = parseHolder(text);
    if (!current)
      throw new HarnessAugmentError(
        `${file}: the output folder is locked by a file that names no holder; remove it if no run writes to ${folder}`,
        { kind: 'usage' },
      );
    if (!isStale(current))
      throw new HarnessAugmentError(
        `${folder}: another run writes to this output folder (${describeHolder(current)}; lock ${file}). Wait for it, or use another --out${current.host === hostname() ? '' : `; if that run is gone, remove ${file}`}`,
        { kind: 'usage' },
      );
    // Moved aside before it is removed: of two starts that found the same stale lock, one moves it.
    const aside = `${file}.${process.pid}.stale`;
    try {
      await rename(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const moved = await readFile(aside, 'utf8').catch(() => undefined);
    if (moved !== text) {
      // Another start took the stale lock between the read and the rename: that lock goes back.
      await link(aside, file).catch(() => {});
      await rm(aside, { force: true });
      continue;
    }
    await rm(aside, { force: true });
    options.onStale?.(current, file);
  }
  throw new HarnessAugmentError(
    `${file}: could not take the output folder's lock (other starts kept taking it)`,
    {
      kind: 'usage',
    },
  );
}

/**
 * Releases this process's run locks on SIGINT and SIGTERM, then ends the process by the same signal (as
 * it would have ended without a handler). For a CLI command; a library caller releases through `release`.
 *
 * @example
 * releaseRunLocksOnSignals();
 */
export function releaseRunLocksOnSignals(): void {
  if (signalHook) return;
  signalHook = true;
  const onSignal = (signal: NodeJS.Signals) => {
    releaseHeldSync();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    signalHook = false;
    process.kill(process.pid, signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
