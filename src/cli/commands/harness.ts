// `hsa harness build`: one harness from many sources (MCP tool lists and live servers, OpenAI tool lists,
// Agent Skills folders, prompt and hook files). When the output exists, the build updates it: only what
// changed in the sources changes in the file, the user's own items and edits stay, and the command says what
// changed. The build record beside the file (../../harness/build/build-record.ts) is what tells a source's
// item from the user's.
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  type BuildListName,
  BuildRecordSchema,
  buildListNames,
  buildRecordPath,
  buildRecordText,
  type OwnedItems,
  ownedItems,
} from '../../harness/build/build-record.js';
import { newHarnessText, updatedHarnessText } from '../../harness/build/harness-text.js';
import { buildSourceLabel, type ListChanges, mergeHarness } from '../../harness/build/merge-harness.js';
import { decodeUtf8, formatOf, locateIssues, parseDocument, readFileBytes } from '../../harness/documents.js';
import { hashHarness } from '../../harness/hash.js';
import { loadHookChecks } from '../../harness/hook-check-module.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { safeParseHarness } from '../../harness/parse-harness.js';
import type { Harness } from '../../harness/schema.js';
import { writeFileAtomic } from '../../harness/write-file-atomic.js';
import { withHookChecksOption } from '../command-options.js';
import { type HarnessSourceOptions, readHarnessSources } from '../harness-sources.js';
import { boundedNumber } from '../io.js';
import { firstFew, outOption, prepareOutputFiles, printResult, printWarning } from '../output.js';

interface HarnessBuildOptions extends HarnessSourceOptions {
  out: string;
  id?: string;
  description?: string;
  timeout: string;
  hookChecks?: string;
  /** False with `--no-tool-list`. */
  toolList?: boolean;
}

const repeatable = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

const listWords: Record<BuildListName, [string, string]> = {
  tools: ['tool', 'tools'],
  skills: ['skill', 'skills'],
  sections: ['prompt section', 'prompt sections'],
  hooks: ['hook', 'hooks'],
};

const count = (name: BuildListName, n: number) => `${n} ${listWords[name][n === 1 ? 0 : 1]}`;

/** The file as it stands: its text and harness, or nothing when it does not exist yet. */
async function readExisting(
  file: string,
  checks: Parameters<typeof safeParseHarness>[1],
): Promise<{ text: string; harness: Harness } | undefined> {
  // A device or a pipe named as the output (`/dev/stdout`) is written to, never read.
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const text = decodeUtf8(await readFileBytes(file), file).replace(/^\uFEFF/, '');
  const document = parseDocument(text, { format: formatOf(file), file });
  const result = safeParseHarness(document.value, checks);
  if (!result.success)
    throw new HarnessAugmentError(
      `${file}: the harness to update is not valid (${result.issues.length} issue(s)); fix it, or name another -o`,
      { issues: locateIssues(result.issues, document) },
    );
  return { text, harness: result.data };
}

async function readRecord(file: string) {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const document = parseDocument(text, { format: 'json', file });
  const parsed = BuildRecordSchema.safeParse(document.value);
  if (!parsed.success)
    throw new HarnessAugmentError(
      `${file}: not a build record of hsa harness build; remove it, and the next build keeps every item no source gives as your own`,
      { kind: 'usage' },
    );
  return { text, record: parsed.data };
}

function changeLines(changes: Record<BuildListName, ListChanges>): string[] {
  const lines: string[] = [];
  for (const name of buildListNames) {
    const { added, removed, changed } = changes[name];
    const parts = [
      added.length > 0 ? `added ${added.join(', ')}` : '',
      removed.length > 0 ? `removed ${removed.join(', ')}` : '',
      changed.length > 0 ? `changed ${changed.join(', ')}` : '',
    ].filter(Boolean);
    if (parts.length > 0) lines.push(`${listWords[name][1]}: ${parts.join('; ')}`);
  }
  return lines;
}

const idFromFile = (file: string) =>
  basename(resolve(file))
    .replace(/\.(json|ya?ml)$/i, '')
    .replace(/[^\w.-]+/g, '-') || 'harness';

/**
 * The tools whose descriptions span several lines, where the build's own `tools` section lists them all
 * (`{{toolList}}` pastes each description whole under its item).
 */
function multiLineToolsListed(harness: Harness, owned: OwnedItems): string[] {
  if (owned.sections.get('tools')?.source !== buildSourceLabel) return [];
  if (!harness.prompt.sections.some((section) => section.id === 'tools')) return [];
  return harness.tools.items
    .filter((tool) => tool.description.trim().includes('\n'))
    .map((tool) => tool.name);
}

async function buildHarness(options: HarnessBuildOptions): Promise<void> {
  const started = Date.now();
  const recordFile = buildRecordPath(options.out);
  const target = await stat(options.out).catch(() => undefined);
  if (target && !target.isFile())
    throw new HarnessAugmentError(`${options.out}: -o must name a file, which the next build updates`, {
      kind: 'usage',
    });
  await prepareOutputFiles({ '--out': options.out, 'the build record': recordFile });
  const timeoutMs = boundedNumber('--timeout', options.timeout, { min: 1, max: 3600 }) * 1000;
  const hookChecks = await loadHookChecks(options.hookChecks);
  const checks = { hookChecks };
  const sources = await readHarnessSources(options, timeoutMs, printWarning);
  if (sources.length === 0)
    throw new HarnessAugmentError(
      'name at least one source: --mcp, --mcp-command, --mcp-url, --openai-tools, --skills, --prompt or --hooks',
      { kind: 'usage' },
    );
  const existing = await readExisting(options.out, checks);
  const previous = existing ? await readRecord(recordFile) : undefined;
  const merged = mergeHarness({
    sources,
    ...(existing ? { existing: existing.harness } : {}),
    owned: ownedItems(previous?.record),
    id: options.id ?? (existing ? undefined : idFromFile(options.out)),
    ...(options.description === undefined ? {} : { description: options.description }),
    checks,
    toolList: options.toolList !== false,
  });
  const format = formatOf(options.out);
  const written = existing
    ? updatedHarnessText(existing.text, format, merged)
    : { text: newHarnessText(merged.harness, format), layoutKept: true };
  const harnessChanged = written.text !== existing?.text;
  if (harnessChanged) await writeFileAtomic(options.out, written.text);
  const recordText = buildRecordText(
    sources.map((source) => source.label),
    merged.owned,
  );
  if (recordText !== previous?.text) await writeFileAtomic(recordFile, recordText);

  const { harness, changes } = merged;
  const counts = {
    tools: harness.tools.items.length,
    skills: harness.skills.items.length,
    sections: harness.prompt.sections.length,
    hooks: harness.hooks.items.length,
  };
  const what = buildListNames.map((name) => count(name, counts[name])).join(', ');
  const verb = existing ? (harnessChanged ? 'updated' : 'unchanged') : 'created';
  const renamed =
    existing && existing.harness.id !== harness.id ? [`id: ${existing.harness.id} → ${harness.id}`] : [];
  const described =
    existing && existing.harness.description !== harness.description ? ['description: changed'] : [];
  const detail = existing ? [...renamed, ...described, ...changeLines(changes)] : [];
  const listed = (field: 'own' | 'edited') =>
    buildListNames
      .filter((name) => changes[name][field].length > 0)
      .map((name) => `${count(name, changes[name][field].length)} (${changes[name][field].join(', ')})`)
      .join('; ');
  const own = listed('own');
  const edited = listed('edited');
  if (existing && !previous)
    printWarning(
      `note: ${options.out} has no build record beside it (${recordFile}): items of it that no source gives are kept as your own`,
    );
  if (!written.layoutKept)
    printWarning(`note: ${options.out} was written anew: its layout could not be kept`);
  const pasted = multiLineToolsListed(harness, merged.owned);
  if (pasted.length > 0)
    printWarning(
      `note: the Tools section pastes ${count('tools', pasted.length)} whose description${pasted.length === 1 ? ' spans' : 's span'} several lines (${firstFew(pasted)}), ` +
        'each indented under its item, its own lists and headings included; --no-tool-list leaves it out where the API lists the tools',
    );
  printResult(
    {
      out: options.out,
      record: recordFile,
      status: verb,
      harness: { id: harness.id, hash: hashHarness(harness).harness },
      counts,
      sources: sources.map((source) => source.label),
      changes,
      layoutKept: written.layoutKept,
    },
    [
      `${verb} ${options.out}: harness "${harness.id}" from ${sources.length} source${sources.length === 1 ? '' : 's'}: ${what}`,
      ...detail.map((line) => `  ${line}`),
      ...(existing && detail.length === 0 ? ['  no change in the sources'] : []),
      ...(own ? [`kept as your own: ${own}`] : []),
      ...(edited ? [`kept your edits (their sources did not change): ${edited}`] : []),
      `record: ${recordFile}  (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    ],
  );
}

export function registerHarness(program: Command): void {
  const command = program.command('harness').description('build one harness from many sources, or update it');
  const build = command
    .command('build')
    .description(
      'build one harness from MCP tool lists or servers, OpenAI tool lists, SKILL.md folders, prompt and hook files; run again to update it with what changed in the sources',
    )
    .addOption(
      outOption('file', 'harness file to write or update (.yaml or .json); its build record goes beside it', {
        required: true,
      }),
    )
    .option(
      '--mcp <file>',
      'an MCP tools/list result (JSON-RPC response or its result); repeatable',
      repeatable,
    )
    .option(
      '--mcp-command <command>',
      'a command that starts an MCP server over stdio, as one quoted string ("node server.js --root ./data"; leading NAME=value words set its environment); its tools are listed, then it is stopped; repeatable',
      repeatable,
    )
    .option('--mcp-url <url>', 'an MCP server over Streamable HTTP; repeatable', repeatable)
    .option(
      '--mcp-instructions',
      "each live server's own instructions (from its initialize answer) as a prompt section, as MCP clients may put them in the system prompt",
    )
    .option(
      '--openai-tools <file>',
      'an OpenAI tools array (Chat Completions or Responses form); repeatable',
      repeatable,
    )
    .option(
      '--skills <folder>',
      'a folder of Agent Skills (<name>/SKILL.md) or of rule files (<name>.md with front matter: OpenHands microagents, Cursor rules); repeatable',
      repeatable,
    )
    .option(
      '--prompt <file>',
      'prompt sections: a Markdown or text file (each "## Title" starts a section, the text before the first is the role) or YAML/JSON sections; repeatable',
      repeatable,
    )
    .option('--hooks <file>', 'hooks in YAML or JSON (a list, or { items: [...] }); repeatable', repeatable)
    .option('--id <id>', 'harness id (default: the file name; an existing file keeps its own)')
    .option('--description <text>', 'one line on what the agent is for')
    .option(
      '--no-tool-list',
      "leave out the build's own Tools section ({{toolList}}: every tool's name and description in the prompt), and take it out of a file an earlier build gave it to; for an agent whose tools reach the model only through the API's tool list",
    )
    .option('--timeout <seconds>', 'how long an MCP server may take to start and list its tools', '30');
  withHookChecksOption(build).action(buildHarness);
}
