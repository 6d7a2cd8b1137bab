import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { locateIssues, type ParsedDocument, readDocument } from '../../harness/documents.js';
import {
  importMcpTools,
  importOpenAITools,
  readSkillsFolder,
  skeletonHarness,
} from '../../harness/importers/index.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { parseHarness } from '../../harness/parse-harness.js';
import { emit, exitCodes, printIssues, serialize } from '../io.js';

interface ImportOptions {
  output?: string;
  id?: string;
  skipInvalid?: boolean;
}

const idFrom = (source: string, fallback: string) =>
  basename(resolve(source))
    .replace(/\.(json|ya?ml)$/i, '')
    .replace(/[^\w.-]+/g, '-') || fallback;

/** Runs an importer on a document; its issues get the document's file name and lines. */
function located<T>(document: ParsedDocument, run: (value: unknown) => T): T {
  try {
    return run(document.value);
  } catch (error) {
    if (!HarnessAugmentError.isInstance(error) || error.kind !== 'invalid') throw error;
    throw new HarnessAugmentError(`${document.file}: ${error.message}`, {
      issues: locateIssues(error.issues, document),
    });
  }
}

export function registerImport(program: Command): void {
  const command = program
    .command('import')
    .description('build a harness from tools or skills in another format');
  const finish = async (harnessInput: unknown, options: ImportOptions) => {
    const harness = parseHarness(harnessInput);
    await emit(serialize(harness, options.output), options.output);
  };
  command
    .command('mcp')
    .description('tools from an MCP tools/list result (the JSON-RPC response or its result)')
    .argument('<file>', 'JSON file')
    .option('-o, --output <file>', 'harness file to write (.yaml or .json); standard output when absent')
    .option('--id <id>', 'harness id (default: the file name)')
    .action(async (file: string, options: ImportOptions) => {
      const tools = located(await readDocument(file), importMcpTools);
      await finish(skeletonHarness({ id: options.id ?? idFrom(file, 'mcp'), tools }), options);
    });
  command
    .command('openai-tools')
    .description('tools from an OpenAI `tools` array (Chat Completions or Responses form)')
    .argument('<file>', 'JSON file')
    .option('-o, --output <file>', 'harness file to write (.yaml or .json); standard output when absent')
    .option('--id <id>', 'harness id (default: the file name)')
    .action(async (file: string, options: ImportOptions) => {
      const tools = located(await readDocument(file), importOpenAITools);
      await finish(skeletonHarness({ id: options.id ?? idFrom(file, 'openai-tools'), tools }), options);
    });
  command
    .command('skills')
    .description('skills from a folder of Agent Skills (<name>/SKILL.md)')
    .argument('<folder>', 'folder holding one sub-folder per skill')
    .option('-o, --output <file>', 'harness file to write (.yaml or .json); standard output when absent')
    .option('--id <id>', 'harness id (default: the folder name)')
    .option(
      '--skip-invalid',
      'leave out invalid skills, report each on standard error (file, line, reason), import the others; exits 1 when any was left out',
    )
    .action(async (folder: string, options: ImportOptions) => {
      const read = await readSkillsFolder(folder);
      if (read.issues.length > 0 && !options.skipInvalid)
        throw new HarnessAugmentError(`${folder}: invalid skills: ${read.issues.length} issue(s)`, {
          issues: read.issues,
        });
      await finish(
        skeletonHarness({ id: options.id ?? idFrom(folder, 'skills'), skills: read.skills }),
        options,
      );
      if (read.skipped.length > 0) {
        printIssues(read.issues, process.stderr);
        process.stderr.write(
          `imported ${read.skills.length} skills, left out ${read.skipped.length}: ${read.skipped.join(', ')}\n`,
        );
        process.exitCode = exitCodes.invalid;
      }
    });
}
