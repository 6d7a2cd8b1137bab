// The CLI's output conventions, in one place: `--json` for results and errors, `--quiet`, `-o, --out`,
// output paths checked before any work, and error lines that are one line each.
//
// Recipe for a command (three lines):
//   program.command('x').addOption(outOption('file', 'rows JSONL', { required: true }))   // -o, --out
//   const out = await prepareOutputFile(options.out);     // fails now, exit 2, when it cannot be written
//   printResult({ rows, out }, [`rows: ${rows}`]);         // JSON with --json, nothing with --quiet
//   printWarning(`warning: …`);                              // standard error, nothing with --quiet
// `--json` and `--quiet` are global (defined once on the program); progress comes from `createProgress`
// in ./progress.ts, which is silent unless standard error is a terminal.
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { formatIssue, HarnessAugmentError, type Issue, printableLine } from '../harness/issues.js';
import {
  assertMayClear,
  assertNotAnInput,
  assertOutputAllowed,
  guardOutputFolder,
  type NamedInput,
  protectInputs,
} from '../harness/output-guard.js';
import { outputTarget } from '../harness/output-target.js';
import { makeFolder, writeFileAtomic } from '../harness/write-file-atomic.js';

/** The global output switches, read by every command through this module. */
export interface OutputMode {
  json: boolean;
  quiet: boolean;
}

const mode: OutputMode = { json: false, quiet: false };

/** The switches in force for this run. */
export function outputMode(): Readonly<OutputMode> {
  return mode;
}

/** Sets the switches; `hsa` does it from argv before parsing, so that parse errors honour `--json` too. */
export function setOutputMode(next: Partial<OutputMode>): void {
  if (next.json !== undefined) mode.json = next.json;
  if (next.quiet !== undefined) mode.quiet = next.quiet;
}

/** Adds `--json` and `--quiet` to the program; every subcommand accepts them, before or after its name. */
export function addGlobalOutputOptions(program: Command): Command {
  return program
    .option('--json', 'print the result, or the error, as one JSON document on standard output')
    .option('-q, --quiet', 'print no progress and no summary (errors are still printed)')
    .hook('preAction', async (_root, action) => {
      const options = action.optsWithGlobals() as { json?: boolean; quiet?: boolean };
      setOutputMode({ json: options.json === true, quiet: options.quiet === true });
      // Before the command runs: its inputs are what no output of it may replace (../harness/output-guard.ts).
      await protectInputs(commandInputs(action));
      // and an output option that names one of them is refused before the command reads anything.
      for (const option of action.options)
        if (outputOptions.has(option)) {
          const value = action.getOptionValue(option.attributeName());
          if (typeof value === 'string') await assertNotAnInput(value);
        }
    });
}

/** The options that name something a command writes; every other argument or option naming a file is an input. */
const outputOptions = new WeakSet<Option>();

/**
 * The paths a command reads, from how it was called: every argument, and every option but its outputs
 * (`outOption`, `outputFileOption`), whose value names an existing file or folder.
 *
 * @example
 * commandInputs(action) // [{ label: '--trajectories', path: 't.jsonl' }, { label: '<harness>', path: 'h.yaml' }]
 */
export function commandInputs(command: Command): NamedInput[] {
  const inputs: NamedInput[] = [];
  const add = (label: string, value: unknown) => {
    for (const path of Array.isArray(value) ? value : [value])
      if (typeof path === 'string' && path.length > 0) inputs.push({ label, path });
  };
  command.registeredArguments.forEach((argument, index) => {
    add(`<${argument.name()}>`, command.processedArgs[index]);
  });
  for (const option of command.options) {
    if (outputOptions.has(option) || option.negate || !(option.required || option.optional)) continue;
    add(option.long ?? option.short ?? option.name(), command.getOptionValue(option.attributeName()));
  }
  return inputs;
}

/**
 * An option that names a file a command writes besides `-o` (`--rejects`, `--sidecar`, `--report`): it is
 * checked as an output, never protected as an input.
 *
 * @example
 * command.addOption(outputFileOption('--rejects <file>', 'rejects JSONL'))
 */
export function outputFileOption(flags: string, description: string): Option {
  const option = new Option(flags, description);
  outputOptions.add(option);
  return option;
}

/**
 * The `-o, --out` option, one spelling for every command that writes a file or a folder.
 *
 * @example
 * command.addOption(outOption('file', 'rows JSONL', { required: true }))
 */
export function outOption(
  kind: 'file' | 'folder',
  description: string,
  options: { required?: boolean } = {},
) {
  const option = new Option(`-o, --out <${kind}>`, description);
  outputOptions.add(option);
  return options.required ? option.makeOptionMandatory() : option;
}

/**
 * Prints a warning (something the run goes on past: an operator that cannot apply, a stale lock taken over)
 * on standard error, unless `--quiet`. Errors and rejected input are not warnings: they are always printed.
 *
 * @example
 * printWarning(`warning: ${operator} cannot apply to this harness: ${reason}`)
 */
export function printWarning(line: string): void {
  if (mode.quiet) return;
  process.stderr.write(line.endsWith('\n') ? line : `${line}\n`);
}

/**
 * Prints a command's result: the JSON value with `--json`, nothing with `--quiet`, else the lines.
 *
 * @example
 * printResult({ rows: 3 }, ['rows: 3'])
 */
export function printResult(json: unknown, lines: readonly string[] | string): void {
  if (mode.json) {
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  if (mode.quiet) return;
  const text = typeof lines === 'string' ? lines : lines.join('\n');
  if (text.length > 0) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * Prints a command's product (a prompt, a schema, a harness) that goes to standard output when no file is
 * named: with `--json` it is wrapped as `{ [key]: value }`, else printed as is; `--quiet` does not hide it.
 */
export function printProduct(key: string, value: unknown, text: string): void {
  if (mode.json) process.stdout.write(`${JSON.stringify({ [key]: value }, null, 2)}\n`);
  else process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Prints issues as `location: message` lines. */
export function printIssues(issues: readonly Issue[], stream: NodeJS.WritableStream = process.stdout): void {
  for (const issue of issues) stream.write(`${printableLine(formatIssue(issue))}\n`);
}

/** The JSON document printed for an error under `--json`. */
export function errorDocument(
  exitCode: number,
  kind: string,
  message: string,
  issues: readonly Issue[] = [],
) {
  return { error: { exitCode, kind, message, issues } };
}

/**
 * Checks that a file can be written before any work is done: not a folder, no file in the way of its
 * folder, the folder creatable and writable. Throws a `usage` error (exit 2) naming the path.
 *
 * @example
 * await prepareOutputFile('out/rows.jsonl')
 */
export async function prepareOutputFile(file: string): Promise<string> {
  const target = await outputTarget(file);
  if (target.mode === 'replace') await prepareFolder(dirname(resolve(target.path)), file);
  return file;
}

/**
 * Checks every output file of a command before any work: each as `prepareOutputFile` does, then that no two
 * name the same file (after links), which would mix two outputs in one file or lose one. Throws a `usage`
 * error naming both options.
 *
 * @example
 * await prepareOutputFiles({ '--out': 'rows.jsonl', '--sidecar': 'rows.variants.jsonl' })
 */
export async function prepareOutputFiles(files: Record<string, string | undefined>): Promise<void> {
  const seen = new Map<string, string>();
  for (const [option, file] of Object.entries(files)) {
    if (file === undefined) continue;
    await prepareOutputFile(file);
    const target = await outputTarget(file);
    // In-place targets (/dev/null) may be shared: nothing is renamed over them.
    if (target.mode === 'in-place') continue;
    const key = resolve(await realFolder(dirname(target.path)), basename(target.path));
    const other = seen.get(key);
    if (other !== undefined)
      throw new HarnessAugmentError(`${other} and ${option} name the same file ${file}; give each its own`, {
        kind: 'usage',
      });
    seen.set(key, option);
  }
}

async function realFolder(folder: string): Promise<string> {
  return realpath(folder).catch(() => resolve(folder));
}

/**
 * Checks that a folder exists or can be created, and is writable, that it is not an input, and that none
 * of the entries the command clears (`clears`) or writes (`writes`: names inside it) is or holds an input
 * or lies through a link. Throws a
 * `usage` error (exit 2). From then on nothing below it is written through a symbolic link.
 *
 * @example
 * await prepareOutputFolder('out/run-1')
 */
export async function prepareOutputFolder(
  folder: string,
  options: { clears?: readonly string[]; writes?: readonly string[] } = {},
): Promise<string> {
  const existing = await stat(folder).catch(() => undefined);
  if (existing && !existing.isDirectory()) throw cannotWrite(folder, 'it is a file, not a folder');
  // Nothing below it is written through a link; what the command clears or writes in it is no input.
  await guardOutputFolder(folder);
  for (const entry of options.clears ?? []) await assertMayClear(join(folder, entry));
  for (const entry of options.writes ?? []) await assertOutputAllowed(join(folder, entry));
  await prepareFolder(resolve(folder), folder);
  return folder;
}

async function prepareFolder(folder: string, named: string): Promise<void> {
  try {
    await makeFolder(folder);
    await access(folder, constants.W_OK);
  } catch (error) {
    throw cannotWrite(named, describeFileError(error));
  }
}

function cannotWrite(path: string, reason: string): HarnessAugmentError {
  return new HarnessAugmentError(`${path}: cannot write: ${reason}`, { kind: 'usage' });
}

/**
 * A short reason for a file-system error, for a one-line message.
 *
 * @example
 * describeFileError(Object.assign(new Error('x'), { code: 'ENOTDIR' })) // 'a part of the path is a file, not a folder'
 */
export function describeFileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a part of the path is a file, not a folder';
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return (error as Error | undefined)?.message ?? String(error);
  }
}

// Kept importable from here: the file-system error test lives with the exit-code rule.
export { isFileSystemError } from './exit-codes.js';

/**
 * Writes a command's product to `file` (checked first, written atomically) or, when none is named, prints
 * it (wrapped as `{ [key]: value }` with `--json`). With `--json` and a file, prints `{ out: file }`. A
 * text ends with a newline, unless `exact`: then the file or pipe gets its bytes unchanged (a prompt that
 * must equal a trajectory's system message).
 *
 * @example
 * await writeProduct('prompt', prompt, prompt, options.out, { exact: true })
 */
export async function writeProduct(
  key: string,
  value: unknown,
  text: string,
  file?: string,
  options: { exact?: boolean } = {},
): Promise<void> {
  if (file === undefined) {
    // Exact: the bytes as they are, to a file or a pipe; a newline only to end a terminal's line.
    if (options.exact && !mode.json)
      process.stdout.write(process.stdout.isTTY && !text.endsWith('\n') ? `${text}\n` : text);
    else printProduct(key, value, text);
    return;
  }
  await prepareOutputFile(file);
  await writeFileAtomic(file, options.exact || text.endsWith('\n') ? text : `${text}\n`);
  if (mode.json) process.stdout.write(`${JSON.stringify({ out: file }, null, 2)}\n`);
}

/**
 * A list as a note shows it: the first three, then how many more.
 *
 * @example
 * firstFew(['a', 'b', 'c', 'd', 'e']) // 'a, b, c and 2 more'
 */
export function firstFew(items: readonly string[]): string {
  return items.length <= 3
    ? items.join(', ')
    : `${items.slice(0, 3).join(', ')} and ${items.length - 3} more`;
}
