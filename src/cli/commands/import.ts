import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  createLineLocator,
  locateIssues,
  type ParsedDocument,
  readDocument,
} from '../../harness/documents.js';
import {
  importMcpTools,
  readOpenAITools,
  readSkillsFolder,
  skeletonHarness,
} from '../../harness/importers/index.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { fromZodIssues, parseHarness } from '../../harness/parse-harness.js';
import { type ImportLogOptions, importLogRecord, LogAliasesSchema } from '../../trajectory/import-logs.js';
import { readJsonl } from '../../trajectory/read-jsonl.js';
import { harnessWithChecks, withHookChecksOption } from '../episode-options.js';
import { finishCommand, openRowOutputs, printIssues, serialize } from '../io.js';
import { openAIToolsNotes } from '../openai-tools-notes.js';
import { outOption, outputFileOption, printResult, printWarning, writeProduct } from '../output.js';
import { skillsFolderNotes } from '../skills-folder-notes.js';

interface ImportOptions {
  out?: string;
  id?: string;
  skipInvalid?: boolean;
}

interface ImportTrajectoriesOptions {
  harness: string;
  out: string;
  rejects?: string;
  aliases?: string;
  system: string;
  hookTurns: string;
  hookChecks?: string;
}

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new HarnessAugmentError(`${option} must be ${allowed.join(' or ')}, got "${value}"`, {
    kind: 'usage',
  });
}

async function loadAliases(file: string) {
  const document = await readDocument(file);
  const parsed = LogAliasesSchema.safeParse(document.value);
  if (parsed.success) return parsed.data;
  const issues = locateIssues(fromZodIssues(parsed.error.issues), document);
  throw new HarnessAugmentError(`${file}: not an alias map ({ tools: { old: new }, skills: { old: new } })`, {
    issues,
  });
}

/** `hsa import trajectories`: logs in, trajectories that validate out, rejects with line and reason. */
async function importTrajectories(logs: string, options: ImportTrajectoriesOptions) {
  const { harness, run } = await harnessWithChecks(options.harness, options.hookChecks);
  const settings: ImportLogOptions = {
    run,
    system: oneOf('--system', options.system, ['keep', 'render'] as const),
    hookTurns: oneOf('--hook-turns', options.hookTurns, ['strict', 'loose'] as const),
    ...(options.aliases ? { aliases: await loadAliases(options.aliases) } : {}),
  };
  const rejectsFile = options.rejects ?? `${options.out.replace(/\.jsonl$/i, '')}.rejects.jsonl`;
  const outputs = await openRowOutputs(options.out, rejectsFile);
  const counts = { read: 0, written: 0, rejected: 0 };
  const totals = {
    aliasedTools: 0,
    aliasedSkills: 0,
    skillBodies: 0,
    hookMarkers: 0,
    systemRendered: 0,
    droppedTurns: 0,
  };
  const byReason: Record<string, number> = {};
  try {
    for await (const record of readJsonl(logs)) {
      counts.read++;
      const result =
        'issue' in record
          ? ({
              ok: false,
              reject: { line: record.line, reason: 'invalid_json', message: record.issue.message },
            } as const)
          : importLogRecord(record.value, harness, settings, record.line);
      if (result.ok) {
        counts.written++;
        const { repairs } = result;
        totals.aliasedTools += repairs.aliasedTools;
        totals.aliasedSkills += repairs.aliasedSkills;
        totals.skillBodies += repairs.skillBodies;
        totals.hookMarkers += repairs.hookMarkers;
        totals.droppedTurns += repairs.droppedTurns;
        if (repairs.systemRendered) totals.systemRendered++;
        await outputs.row(result.trajectory);
      } else {
        counts.rejected++;
        byReason[result.reject.reason] = (byReason[result.reject.reason] ?? 0) + 1;
        outputs.reject({ file: logs, ...result.reject });
      }
    }
  } catch (error) {
    await outputs.abort();
    throw error;
  }
  await outputs.finish(options.rejects !== undefined);
  const reasons = Object.entries(byReason)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ');
  const lines = [
    `read ${counts.read} log lines: ${counts.written} written + ${counts.rejected} rejected`,
    `rejected by reason: ${reasons || 'none'}`,
    `reconciled: ${totals.systemRendered} system prompts rendered, ${totals.aliasedTools} tool names and ${totals.aliasedSkills} skill ids aliased, ${totals.skillBodies} skill bodies filled, ${totals.hookMarkers} hook decisions marked`,
    ...(totals.droppedTurns > 0
      ? [
          `dropped ${totals.droppedTurns} user turns that answer a reply a hook kept from the user (meta.import.dropped)`,
        ]
      : []),
    `out: ${options.out}${counts.rejected > 0 || options.rejects ? `  rejects: ${rejectsFile}` : ''}`,
  ];
  printResult({ ...counts, byReason, reconciled: totals, out: options.out, rejects: rejectsFile }, lines);
  // The trajectories were written, but part of the log could not be: say so in the exit code too.
  finishCommand({ invalid: counts.rejected });
}

const idFrom = (source: string, fallback: string) =>
  basename(resolve(source))
    .replace(/\.(jsonl?|ya?ml)$/i, '')
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
    .description(
      'build a harness from tools or skills in another format, or bring logged conversations under a harness',
    );
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
    .description(
      'tools from an OpenAI `tools` array (Chat Completions or Responses form, or the legacy `functions` form of BFCL, one a line or in an array)',
    )
    .argument('<file>', 'JSON or JSON Lines file')
    .addOption(outOption('file', 'harness file to write (.yaml or .json); standard output when absent'))
    .option('--id <id>', 'harness id (default: the file name)')
    .action(async (file: string, options: ImportOptions) => {
      const document = await readDocument(file, { jsonLines: true });
      const read = located(document, readOpenAITools);
      await finish(
        skeletonHarness({ id: options.id ?? idFrom(file, 'openai-tools'), tools: read.tools }),
        options,
      );
      for (const note of openAIToolsNotes(file, read, createLineLocator(document))) printWarning(note);
    });
  command
    .command('skills')
    .description(
      'skills from a folder of Agent Skills (<name>/SKILL.md) or of rule files (<name>.md with front matter)',
    )
    .argument('<folder>', 'folder holding one sub-folder or rule file per skill')
    .addOption(outOption('file', 'harness file to write (.yaml or .json); standard output when absent'))
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
      for (const note of skillsFolderNotes(folder, read)) printWarning(note);
      if (read.skipped.length > 0) {
        printIssues(read.issues, process.stderr);
        process.stderr.write(
          `imported ${read.skills.length} skills, left out ${read.skipped.length}: ${read.skipped.join(', ')}\n`,
        );
      }
      finishCommand({ invalid: read.skipped.length });
    });
  withHookChecksOption(command.command('trajectories'))
    .description(
      'logged conversations (JSONL) as trajectories that validate under a harness; what cannot be reconciled goes to a rejects file',
    )
    .argument('<logs>', 'log JSONL file: one conversation per line with `messages` (and `context`)')
    .requiredOption('--harness <file>', 'the harness the trajectories must validate under')
    .addOption(outOption('file', 'trajectories JSONL to write', { required: true }))
    .addOption(
      outputFileOption(
        '--rejects <file>',
        'rejects JSONL with line and reason (default: <out without .jsonl>.rejects.jsonl, written when anything is rejected)',
      ),
    )
    .option(
      '--aliases <file>',
      'YAML or JSON map of legacy names: { tools: { old: new }, skills: { old: new } }',
    )
    .option(
      '--system <mode>',
      'render: the harness renders the system prompt from the context; keep: the logged one stays',
      'render',
    )
    .option(
      '--hook-turns <mode>',
      "strict: a logged feedback or fallback turn must carry the harness's text; loose: any turn in that place is re-rendered",
      'strict',
    )
    .action(importTrajectories);
}
