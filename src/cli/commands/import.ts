import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { locateIssues, type ParsedDocument, readDocument } from '../../harness/documents.js';
import {
  importMcpTools,
  importOpenAITools,
  loadSkillsFolder,
  skeletonHarness,
} from '../../harness/importers/index.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { parseHarness } from '../../harness/parse-harness.js';
import { serialize } from '../io.js';
import { outOption, writeProduct } from '../output.js';

interface ImportOptions {
  out?: string;
  id?: string;
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
    await writeProduct('harness', harness, serialize(harness, options.out), options.out);
  };
  command
    .command('mcp')
    .description('tools from an MCP tools/list result (the JSON-RPC response or its result)')
    .argument('<file>', 'JSON file')
    .addOption(outOption('file', 'harness file to write (.yaml or .json); standard output when absent'))
    .option('--id <id>', 'harness id (default: the file name)')
    .action(async (file: string, options: ImportOptions) => {
      const tools = located(await readDocument(file), importMcpTools);
      await finish(skeletonHarness({ id: options.id ?? idFrom(file, 'mcp'), tools }), options);
    });
  command
    .command('openai-tools')
    .description('tools from an OpenAI `tools` array (Chat Completions or Responses form)')
    .argument('<file>', 'JSON file')
    .addOption(outOption('file', 'harness file to write (.yaml or .json); standard output when absent'))
    .option('--id <id>', 'harness id (default: the file name)')
    .action(async (file: string, options: ImportOptions) => {
      const tools = located(await readDocument(file), importOpenAITools);
      await finish(skeletonHarness({ id: options.id ?? idFrom(file, 'openai-tools'), tools }), options);
    });
  command
    .command('skills')
    .description('skills from a folder of Agent Skills (<name>/SKILL.md)')
    .argument('<folder>', 'folder holding one sub-folder per skill')
    .addOption(outOption('file', 'harness file to write (.yaml or .json); standard output when absent'))
    .option('--id <id>', 'harness id (default: the folder name)')
    .action(async (folder: string, options: ImportOptions) => {
      const skills = await loadSkillsFolder(folder);
      await finish(skeletonHarness({ id: options.id ?? idFrom(folder, 'skills'), skills }), options);
    });
}
