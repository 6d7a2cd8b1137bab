// Reads the sources of `hsa harness build`: MCP tools/list results and live MCP servers, OpenAI tool lists,
// Agent Skills folders, prompt and hook files. A source that cannot be read is a usage error (exit 2) whose
// one line says where: the file, the line and the path of its first problem.
import { createMcpBackend, type McpServerOptions } from '../adapters/mcp/index.js';
import { readHooksSource } from '../harness/build/hooks-source.js';
import type { HarnessSource } from '../harness/build/merge-harness.js';
import { readPromptSource } from '../harness/build/prompt-source.js';
import { createLineLocator, locateIssues, readDocument } from '../harness/documents.js';
import { readSkillsFolder } from '../harness/importers/agent-skills.js';
import { safeImportMcpTools } from '../harness/importers/mcp-tools.js';
import { safeReadOpenAITools } from '../harness/importers/openai-tools.js';
import { formatIssue, HarnessAugmentError, type Issue, type SafeResult } from '../harness/issues.js';
import { type PromptSection, PromptSectionSchema, type Tool } from '../harness/schema.js';
import { commandWords } from './command-words.js';
import { openAIToolsNotes } from './openai-tools-notes.js';
import { skillsFolderNotes } from './skills-folder-notes.js';

/** The sources as the options name them, each list in the order given. */
export interface HarnessSourceOptions {
  mcp?: string[];
  mcpCommand?: string[];
  mcpUrl?: string[];
  openaiTools?: string[];
  skills?: string[];
  prompt?: string[];
  hooks?: string[];
  /** Each live server's `instructions` as a prompt section (`--mcp-instructions`). */
  mcpInstructions?: boolean;
}

/**
 * A usage error for a source that cannot be used: its first issue as the line (with its file and line, or
 * the option that named the source), every issue attached.
 *
 * @example
 * throw sourceError('--hooks hooks.yaml', issues);
 */
export function sourceError(label: string, issues: readonly Issue[]): HarnessAugmentError {
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  // A located issue names its file; one without a file (a server's tools/list) is named by the option.
  const line = first ? formatIssue(first) : 'cannot be read';
  const where = first?.file === undefined ? `${label}: ` : '';
  return new HarnessAugmentError(`${where}${line}${more}`, { kind: 'usage', issues: [...issues] });
}

/**
 * A server's instructions as a prompt section, titled by the server's name: the text as the server wrote
 * it, not a template (`{{` is escaped, so it renders as written). The id keeps the name's ASCII letters and
 * digits (a section id's rule), `mcp_server` where none is left.
 *
 * @example
 * instructionsSection('github-mcp-server', 'Use list_* tools.') // { id: 'github_mcp_server_instructions', title: 'github-mcp-server instructions', … }
 */
export function instructionsSection(serverName: string | undefined, text: string): PromptSection {
  const name = serverName?.replace(/\s+/gu, ' ').trim() || 'MCP server';
  const stem = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const id = `${/^[a-z]/.test(stem) ? stem : `mcp_server${stem ? `_${stem}` : ''}`}_instructions`;
  return PromptSectionSchema.parse({
    id,
    title: `${name} instructions`,
    template: text.replaceAll('{{', '\\{{'),
  });
}

async function toolsFile(
  label: string,
  file: string,
  read: (value: unknown) => SafeResult<Tool[]>,
): Promise<HarnessSource> {
  const document = await readDocument(file);
  const result = read(document.value);
  if (!result.success) throw sourceError(label, locateIssues(result.issues, document));
  return { label, tools: result.data };
}

/** An OpenAI tool list: JSON (an array, a request body, one tool) or JSON Lines, with its notes. */
async function openAIToolsFile(
  label: string,
  file: string,
  onNote: (line: string) => void,
): Promise<HarnessSource> {
  const document = await readDocument(file, { jsonLines: true });
  const result = safeReadOpenAITools(document.value);
  if (!result.success) throw sourceError(label, locateIssues(result.issues, document));
  for (const note of openAIToolsNotes(label, result.data, createLineLocator(document))) onNote(note);
  return { label, tools: result.data.tools };
}

/**
 * The tools a live MCP server lists (all pages), read over stdio or Streamable HTTP, and with `instructions`
 * the server's own instructions as a prompt section; the server is closed after.
 */
async function toolsOfServer(
  label: string,
  server: McpServerOptions,
  timeoutMs: number,
  instructions: { wanted: boolean; onNote: (line: string) => void },
): Promise<HarnessSource> {
  const backend = createMcpBackend(server, { requestTimeoutMs: timeoutMs, maxRestarts: 0 });
  try {
    await backend.connect();
    const result = safeImportMcpTools({ tools: backend.listed });
    if (!result.success) throw sourceError(`${label} (its tools/list)`, result.issues);
    if (!instructions.wanted) return { label, tools: result.data };
    const text = backend.instructions?.trim();
    if (!text) {
      instructions.onNote(`note: ${label}: the server gives no instructions`);
      return { label, tools: result.data };
    }
    return { label, tools: result.data, sections: [instructionsSection(backend.serverName, text)] };
  } catch (error) {
    if (HarnessAugmentError.isInstance(error) && error.kind === 'usage' && !error.message.startsWith(label))
      throw new HarnessAugmentError(`${label}: ${error.message}`, { kind: 'usage', cause: error });
    throw error;
  } finally {
    await backend.close().catch(() => {});
  }
}

/**
 * Reads every source, in a fixed order: MCP files, MCP commands, MCP URLs, OpenAI tool lists, skill
 * folders, prompt files, hook files (each kind in the order given).
 *
 * @example
 * const sources = await readHarnessSources({ openaiTools: ['tools.json'], skills: ['skills'] }, 30_000);
 */
export async function readHarnessSources(
  options: HarnessSourceOptions,
  timeoutMs: number,
  onNote: (line: string) => void = () => {},
): Promise<HarnessSource[]> {
  const sources: HarnessSource[] = [];
  const instructions = { wanted: options.mcpInstructions === true, onNote };
  for (const file of options.mcp ?? [])
    sources.push(await toolsFile(`--mcp ${file}`, file, safeImportMcpTools));
  for (const line of options.mcpCommand ?? []) {
    const label = `--mcp-command ${line}`;
    const { command, args, env } = commandWords(line, '--mcp-command');
    sources.push(await toolsOfServer(label, { command, args, env }, timeoutMs, instructions));
  }
  for (const url of options.mcpUrl ?? []) {
    if (!/^https?:\/\//i.test(url))
      throw new HarnessAugmentError(`--mcp-url ${url}: expected an http:// or https:// URL`, {
        kind: 'usage',
      });
    sources.push(await toolsOfServer(`--mcp-url ${url}`, { url }, timeoutMs, instructions));
  }
  for (const file of options.openaiTools ?? [])
    sources.push(await openAIToolsFile(`--openai-tools ${file}`, file, onNote));
  for (const folder of options.skills ?? []) {
    const label = `--skills ${folder}`;
    const read = await readSkillsFolder(folder);
    if (read.issues.length > 0) throw sourceError(label, read.issues);
    if (read.skills.length === 0)
      throw new HarnessAugmentError(
        `${label}: no skill in the folder: neither <name>/SKILL.md nor a rule file (<name>.md with front matter)`,
        { kind: 'usage' },
      );
    for (const note of skillsFolderNotes(label, read)) onNote(note);
    sources.push({ label, skills: read.skills });
  }
  for (const file of options.prompt ?? []) {
    const label = `--prompt ${file}`;
    const read = await readPromptSource(file);
    if (read.issues.length > 0) throw sourceError(label, read.issues);
    sources.push({ label, sections: read.items });
  }
  for (const file of options.hooks ?? []) {
    const label = `--hooks ${file}`;
    const read = await readHooksSource(file);
    if (read.issues.length > 0) throw sourceError(label, read.issues);
    sources.push({ label, hooks: read.items });
  }
  return sources;
}
