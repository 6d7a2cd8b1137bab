// The one rule for where a command may write, asked before anything is opened for writing:
// 1. a path about to be written, or an entry of an output folder about to be cleared, is not one of the
//    command's inputs and holds none. Inputs are compared by file identity (device + inode: a hard link, a
//    symbolic link or another spelling of the same path is the same input) and, for a name that does not
//    exist yet, by real path;
// 2. below an output folder the user named, nothing is written through a symbolic link: the folder itself
//    may be a link (it is followed, as asked), a link inside it that the command did not create is refused.
// The CLI names the inputs of the command that runs (`protectInputs`, from its arguments) before it runs,
// and the output folders as it prepares them (`guardOutputFolder`); `outputTarget`, which every writer
// calls first, and the folder clearers ask here. A library caller that names nothing is never refused.
import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { HarnessAugmentError } from './issues.js';

/** A file or folder a command reads, with how the user named it (`--trajectories`, `<harness>`). */
export interface NamedInput {
  label: string;
  path: string;
}

interface ProtectedInput extends NamedInput {
  real: string;
  device: number;
  inode: number;
  folder: boolean;
}

/**
 * The inputs of the command that runs: one process runs one command at a time (the CLI sets them before the
 * command and releases them after it, `releaseInputs`). Identity only, never content: this is no cache.
 */
let inputs: ProtectedInput[] = [];
/** The output folders of the command that runs, as named (absolute) and as real paths. */
let outputFolders: Array<{ named: string; absolute: string; real: string }> = [];

/**
 * Makes `entries` the protected inputs of this run (replacing those of an earlier run); entries that are
 * not an existing regular file or folder (a preset name, a URL, a device) are ignored.
 *
 * @example
 * await protectInputs([{ label: '--trajectories', path: 't.jsonl' }])
 */
export async function protectInputs(entries: readonly NamedInput[]): Promise<void> {
  inputs = [];
  outputFolders = [];
  await addProtectedInputs(entries);
}

/**
 * Ends the run's protection: its inputs and output folders are forgotten, so that nothing a later caller in
 * the same process writes (a library call after an in-process command, a test) is checked against them. A
 * deleted input's file identity may be reused by a new file; it must not outlive its command.
 *
 * @example
 * try { await program.parseAsync(argv); } finally { releaseInputs(); }
 */
export function releaseInputs(): void {
  inputs = [];
  outputFolders = [];
}

/**
 * Adds inputs found while a command runs (the files a pipeline config names) to the protected set.
 *
 * @example
 * await addProtectedInputs([{ label: 'config harness', path: config.harness }])
 */
export async function addProtectedInputs(entries: readonly NamedInput[]): Promise<void> {
  for (const entry of entries) {
    const info = await stat(entry.path).catch(() => undefined);
    if (!info || !(info.isFile() || info.isDirectory())) continue;
    if (inputs.some((input) => input.device === info.dev && input.inode === info.ino)) continue;
    inputs.push({
      ...entry,
      real: await realpath(entry.path).catch(() => resolve(entry.path)),
      device: info.dev,
      inode: info.ino,
      folder: info.isDirectory(),
    });
  }
}

/**
 * Registers `folder` as an output folder of the command that runs: nothing below it is written through a
 * symbolic link (see `assertOutputAllowed`). Throws when the folder is a protected input folder itself.
 *
 * @example
 * await guardOutputFolder('out/skills')
 */
export async function guardOutputFolder(folder: string): Promise<void> {
  const absolute = resolve(folder);
  const real = await realpath(absolute).catch(() => absolute);
  const info = await stat(absolute).catch(() => undefined);
  for (const input of inputs)
    if (info && info.dev === input.device && info.ino === input.inode) throw clash(folder, input, 'it is');
  outputFolders.push({ named: folder, absolute, real });
}

/**
 * The whole rule for one file about to be written: not a protected input, and not reached through a
 * symbolic link below an output folder. Throws a `usage` error (exit 2) naming the paths.
 *
 * @example
 * await assertOutputAllowed('out/skills/item-qa/SKILL.md')
 */
export async function assertOutputAllowed(file: string): Promise<void> {
  await assertNoLinkBelowOutputFolder(file);
  await assertNotAnInput(file);
}

/** Refuses a symbolic link between an output folder and `file` (the folder itself may be one). */
async function assertNoLinkBelowOutputFolder(file: string): Promise<void> {
  for (const folder of outputFolders) {
    await assertNoLinkBelow(folder.named, file);
    if (folder.real !== folder.absolute) await assertNoLinkBelow(folder.real, file, folder.named);
  }
}

/**
 * Throws a `usage` error (exit 2) when a symbolic link lies between `folder` (which may be one) and `file`,
 * a path below it; nothing when `file` is not below `folder`.
 *
 * @example
 * await assertNoLinkBelow('out/skills', 'out/skills/item-qa/SKILL.md')
 */
export async function assertNoLinkBelow(folder: string, file: string, named = folder): Promise<void> {
  const base = resolve(folder);
  const absolute = resolve(file);
  if (!isInside(absolute, base)) return;
  let current = base;
  for (const part of relative(base, absolute).split(sep)) {
    current = resolve(current, part);
    const info = await lstat(current).catch(() => undefined);
    if (!info) return;
    if (info.isSymbolicLink())
      throw new HarnessAugmentError(
        `${current}: cannot write through it: a symbolic link inside the output folder ${named} that this command did not create; remove it, or name the place it points to as the output`,
        { kind: 'usage' },
      );
  }
}

/**
 * Throws a `usage` error (exit 2) naming both paths when writing `output` would replace a protected input:
 * the same file (any link or spelling of it).
 *
 * @example
 * await assertNotAnInput('t.jsonl') // throws when t.jsonl is the --trajectories input
 */
export async function assertNotAnInput(output: string): Promise<void> {
  if (inputs.length === 0) return;
  const info = await stat(output).catch(() => undefined);
  const real = info ? await realpath(output).catch(() => undefined) : await realPathOfNew(output);
  for (const input of inputs) {
    const same = info
      ? info.dev === input.device && info.ino === input.inode
      : real !== undefined && real === input.real;
    if (same) throw clash(output, input, 'it is');
    // A file of an input folder is an input too (a new name beside them replaces nothing).
    if (info && input.folder && real !== undefined && isInside(real, input.real))
      throw clash(output, input, 'it is a file of');
  }
}

/**
 * Throws a `usage` error (exit 2) naming both paths when removing `path` (a file or a folder, with all it
 * holds) would remove a protected input or a folder that holds one.
 *
 * @example
 * await assertMayClear('out/exports') // throws when a --harness lives under out/exports
 */
export async function assertMayClear(path: string): Promise<void> {
  if (inputs.length === 0) return;
  const info = await stat(path).catch(() => undefined);
  if (!info) return;
  const real = await realpath(path).catch(() => resolve(path));
  for (const input of inputs) {
    if (info.dev === input.device && info.ino === input.inode) throw clash(path, input, 'it is');
    if (info.isDirectory() && isInside(input.real, real))
      throw clash(path, input, 'it would be cleared and holds');
  }
}

/** The real path a file that does not exist yet would have: its folder's real path and its name. */
async function realPathOfNew(file: string): Promise<string | undefined> {
  const folder = await realpath(dirname(resolve(file))).catch(() => undefined);
  return folder === undefined ? undefined : resolve(folder, basename(file));
}

function isInside(path: string, folder: string): boolean {
  const way = relative(folder, path);
  return way !== '' && way !== '..' && !way.startsWith(`..${sep}`) && !isAbsolute(way);
}

function clash(output: string, input: ProtectedInput, relation: string): HarnessAugmentError {
  const what = input.folder ? 'input folder' : 'input';
  return new HarnessAugmentError(
    `${output}: cannot write: ${relation} the ${what} ${input.label} ${input.path}; name another output`,
    { kind: 'usage' },
  );
}
