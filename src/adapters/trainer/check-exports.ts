// The consumer-side check of trainer exports: reads every export folder the way its trainer does (TRL,
// Axolotl, LLaMA-Factory, veRL, OpenAI, and the RL stage's OpenRLHF prompts), holds each row to the
// trainer's rules, and renders every row through chat templates with `@huggingface/jinja`: the templates
// given, or else the ones the folder's manifest entry or README names (found in a template folder), or it
// says exactly why it did not render. A template that cannot carry tool calls is refused. It reports, per
// folder, the rows, the rules and the templates it checked, and why rows fail; it never changes a file.
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { HarnessAugmentError, truncateText } from '../../harness/issues.js';
import { renderBounded } from './bounded-template.js';
import { type Conversation, exportReaders } from './export-readers.js';
import { chatTemplateRules } from './families.js';
import { lfm2ToolCallText } from './pythonic-calls.js';
import { alternationProblem, argumentsProblem, probeCalls, probeProblem } from './rendered-calls.js';

export { alternationProblem, argumentsProblem, probeCalls, probeProblem } from './rendered-calls.js';

/** A chat template to render rows through, by name (the file name without `.jinja`) and source. */
export interface ChatTemplateSource {
  name: string;
  source: string;
}

/** What one check of one export found: counts and the first reasons, each with how often it occurred. */
export interface ExportCheckResult {
  format: string;
  /** The export's folder name (the format's name unless the pipeline gave it a `folder`). */
  export: string;
  /** The folder checked. */
  folder?: string;
  /**
   * `structure` for the trainer's own rules, `templates` for a note on rendering, `skipped` for a folder the
   * check does not read (with why), else the template's name.
   */
  check: string;
  rows: number;
  failed: number;
  /** The rules the structure check held every row to (on `structure` only). */
  rules?: string[];
  /** Why rows were not rendered, or through which templates they were (on `templates` only). */
  note?: string;
  /** The most frequent reasons; `at` locates the first row that failed for it (`line 12, messages[3].tool_calls[0]`). */
  reasons: Array<{ reason: string; rows: number; at?: string }>;
  /** The largest rendered row, in characters (a hint for the trainer's max length). */
  longestRendered?: number;
}

/**
 * Options of `checkExports` (the `check-exports` command): which chat templates to render the rows through,
 * and the folder's format.
 */
export interface CheckExportsOptions {
  /** Templates to render every row through; when none, the folder's own (see `templateDir`). */
  templates?: readonly ChatTemplateSource[];
  /** Where the templates a folder names are found as `<name>.jinja` (TRL's `trl/chat_templates`). */
  templateDir?: string;
  /** The format of `folder` when it is one export whose folder name is not its format's. */
  format?: string;
}

/** Probe rows for a template the table does not know: a call with a mapping or JSON text, content "" or null. */
function probeConversations() {
  const call = (args: unknown) => [
    {
      id: 'call_hsaprobe',
      type: 'function',
      function: { name: 'hsaprobe0fn', arguments: args },
    },
  ];
  const tools = [
    {
      type: 'function',
      function: {
        name: 'hsaprobe0fn',
        description: 'A probe.',
        parameters: { type: 'object', properties: { hsaprobekey: { type: 'string' } } },
      },
    },
  ];
  const variants: Array<Array<Record<string, unknown>>> = [];
  // The calls in `tool_calls`, and also as text in `content` (`toolCallText: lfm2`, for LFM2 v1's template).
  const asText = lfm2ToolCallText([{ name: 'hsaprobe0fn', arguments: { hsaprobekey: 'hsaprobeval0' } }]);
  for (const args of [{ hsaprobekey: 'hsaprobeval0' }, '{"hsaprobekey": "hsaprobeval0"}'])
    for (const content of ['', null, asText])
      variants.push([
        { role: 'user', content: 'hsaprobe question' },
        { role: 'assistant', content, tool_calls: call(args) },
        { role: 'tool', tool_call_id: 'call_hsaprobe', name: 'hsaprobe0fn', content: 'hsaprobe result' },
        { role: 'assistant', content: 'hsaprobe answer' },
      ]);
  return { variants, tools };
}

/**
 * Why a template cannot carry tool calls at all, or undefined when it can: the table's word for a template
 * it knows (`llama3`, `phi3`, `gemma3` …), else a probe conversation rendered every way an export can
 * write a call (a mapping or JSON text; `content` "", null, or the calls as LFM2 text), none of which keeps
 * the call.
 *
 * @example
 * cannotCarryCalls({ name: 'phi3', template }) // 'phi3 (Phi-3) cannot carry tool calls: …'
 */
export function cannotCarryCalls(template: { name: string; template: Template }): string | undefined {
  const rule = chatTemplateRules.get(template.name);
  if (rule)
    return rule.cannot
      ? `${rule.template} (${rule.family}) cannot carry tool calls: ${rule.cannot}`
      : undefined;
  const { variants, tools } = probeConversations();
  const errors: string[] = [];
  for (const messages of variants) {
    try {
      const text = renderBounded(template.template, {
        messages,
        tools,
        add_generation_prompt: false,
        bos_token: '',
        eos_token: '',
      });
      if (probeProblem(text, 1) === undefined) return undefined;
    } catch (error) {
      errors.push((error as Error).message.split('\n')[0] ?? '');
    }
  }
  return `${template.name} cannot carry tool calls: ${
    errors.length === variants.length
      ? `it raises on a conversation with a tool call (${truncateText(errors[0] ?? '', 120)})`
      : 'it renders a conversation with a tool call without the call'
  }`;
}

function compile(template: ChatTemplateSource) {
  try {
    return { name: template.name, template: new Template(template.source) };
  } catch (error) {
    throw new HarnessAugmentError(`${template.name}: not a Jinja template: ${(error as Error).message}`, {
      kind: 'usage',
    });
  }
}

type Compiled = ReturnType<typeof compile>;

/** Compiles templates and refuses (a usage error) any that cannot carry tool calls. */
function compileCarrying(templates: readonly ChatTemplateSource[]): Compiled[] {
  const compiled = templates.map(compile);
  const refused = compiled.map(cannotCarryCalls).filter((reason): reason is string => reason !== undefined);
  if (refused.length > 0)
    throw new HarnessAugmentError(
      `${refused.join('; ')}. Export and check with a family that can (docs/exporters.md, "Which export for which family")`,
      {
        kind: 'usage',
        issues: refused.map((message) => ({
          code: 'template_cannot_carry_calls',
          path: ['template'],
          message,
        })),
      },
    );
  return compiled;
}

/**
 * Checks the exports under `folder` (a pipeline output, its `exports/`, or one export's folder): each
 * export's rows by its trainer's rules, and every row rendered through each template.
 *
 * @example
 * const results = await checkExports('out/pipeline', { templateDir: '/…/site-packages/trl/chat_templates' });
 */
export async function checkExports(
  folder: string,
  options: CheckExportsOptions = {},
): Promise<ExportCheckResult[]> {
  if (options.format !== undefined && !exportReaders[options.format])
    throw new HarnessAugmentError(
      `--format ${options.format}: not a format the check reads (${Object.keys(exportReaders).join(', ')})`,
      { kind: 'usage' },
    );
  const given = compileCarrying(options.templates ?? []);
  const found = await findExports(folder, options.format);
  if (found.length === 0)
    throw new HarnessAugmentError(
      `${folder}: no export to check (looked for ${Object.keys(exportReaders).join(', ')} folders with their data file)`,
      { kind: 'usage' },
    );
  const results: ExportCheckResult[] = [];
  for (const skipped of await uncheckedRlFolders(folder, found))
    results.push({
      format: skipped,
      export: skipped,
      folder: join(folder, 'rl', skipped),
      check: 'skipped',
      rows: 0,
      failed: 0,
      reasons: [],
      note: `not checked: the RL stage's ${skipped} files are written for ${skipped}'s environment contract (rl/${skipped}), which this check does not read; their consumer tests are in test/consumers`,
    });
  for (const entry of found) {
    const reader = exportReaders[entry.format] as (typeof exportReaders)[string];
    const where = { format: entry.format, export: entry.name, folder: entry.folder };
    const structure = tally(where, 'structure');
    const conversations: Array<(Conversation & { line: number }) | undefined> = [];
    for await (const line of reader.lines(entry.file)) {
      if ('problem' in line) {
        structure.fail(line.problem, `line ${line.line}`);
        continue;
      }
      try {
        const conversation = reader.read(line.value);
        if (!conversation.generationPrompt && !conversation.rolesChecked) {
          const problem = alternationProblem(conversation.messages);
          if (problem) throw new Error(problem);
        }
        structure.pass();
        conversations.push({ ...conversation, line: line.line });
      } catch (error) {
        structure.fail((error as Error).message, `line ${line.line}`);
      }
    }
    results.push({ ...structure.result(), rules: reader.rules });
    const plan = await renderPlan(entry, reader.renderedBy, given, options.templateDir);
    if (plan.note)
      results.push({ ...where, check: 'templates', rows: 0, failed: 0, reasons: [], note: plan.note });
    for (const template of plan.templates) results.push(renderRows(where, template, conversations));
  }
  return results;
}

/** Which templates an export's rows are rendered through, and a note when some or all are not. */
async function renderPlan(
  entry: FoundExport,
  renderedBy: string | undefined,
  given: Compiled[],
  templateDir: string | undefined,
): Promise<{ templates: Compiled[]; note?: string }> {
  if (renderedBy) return { templates: [], note: `not rendered: the rows are rendered by ${renderedBy}` };
  if (given.length > 0) return { templates: given };
  const named = entry.templates;
  if (named === undefined)
    return {
      templates: [],
      note: 'not rendered: no --template given, and the folder names no chat template (no manifest entry or README with a `templates:` line)',
    };
  if (named.length === 0) return { templates: [], note: 'not rendered: the folder names no chat template' };
  if (templateDir === undefined)
    return {
      templates: [],
      note: `not rendered: no --template or --template-dir given; the folder is for ${named.join(', ')} (give --template-dir with TRL's trl/chat_templates to render them)`,
    };
  const sources: ChatTemplateSource[] = [];
  const missing: string[] = [];
  for (const name of named) {
    const source = await readFile(join(templateDir, `${name}.jinja`), 'utf8').catch(() => undefined);
    if (source === undefined) missing.push(name);
    else sources.push({ name, source });
  }
  const note =
    missing.length > 0
      ? `rendered through the ${sources.length} of the folder's templates found in ${templateDir}; not rendered: ${missing.join(', ')} (no <name>.jinja there)`
      : `rendered through the folder's ${sources.length} templates, from ${templateDir}`;
  return { templates: compileCarrying(sources), note };
}

function renderRows(
  where: { format: string; export: string; folder: string },
  { name, template }: Compiled,
  conversations: ReadonlyArray<(Conversation & { line: number }) | undefined>,
): ExportCheckResult {
  const rendered = tally(where, name);
  for (const conversation of conversations) {
    if (!conversation) continue;
    try {
      const render = (messages: Conversation['messages']) =>
        renderBounded(template, {
          messages,
          tools: conversation.tools,
          add_generation_prompt: conversation.generationPrompt === true,
          bos_token: '',
          eos_token: '',
        });
      const text = render(conversation.messages);
      if (conversation.generationPrompt) {
        // A prompt-only row: the template must show the model every tool of the row's harness state.
        const names = conversation.tools.map((tool) =>
          String((tool as { function?: { name?: unknown } }).function?.name),
        );
        const absent = names.find((toolName) => !text.includes(toolName));
        if (absent)
          rendered.fail(
            `a tool of the row is missing from the rendered prompt (${absent})`,
            `line ${conversation.line}`,
          );
        else rendered.pass(text.length);
        continue;
      }
      // The row's own arguments, verbatim, each after its call's name (located); then the probes, which
      // also see a call dropped where its name shows up elsewhere in the text (the tools list).
      const verbatim = argumentsProblem(text, conversation.messages);
      const probed = probeCalls(conversation.messages);
      const problem =
        verbatim === undefined && probed.count > 0
          ? probeProblem(render(probed.messages), probed.count)
          : undefined;
      if (verbatim) rendered.fail(verbatim.reason, `line ${conversation.line}, ${verbatim.at}`);
      else if (problem) rendered.fail(problem, `line ${conversation.line}`);
      else rendered.pass(text.length);
    } catch (error) {
      rendered.fail((error as Error).message, `line ${conversation.line}`);
    }
  }
  return rendered.result();
}

function tally(where: { format: string; export: string; folder: string }, check: string) {
  let rows = 0;
  let failed = 0;
  let longest = 0;
  const reasons = new Map<string, { rows: number; at?: string }>();
  return {
    pass(length = 0) {
      rows++;
      longest = Math.max(longest, length);
    },
    /** A failed row: the reason (counted), and where (the first location kept per reason). */
    fail(reason: string, at?: string) {
      rows++;
      failed++;
      const key = truncateText(reason.split('\n')[0] ?? '', 200);
      const seen = reasons.get(key);
      if (seen) seen.rows++;
      else reasons.set(key, { rows: 1, ...(at !== undefined ? { at } : {}) });
    },
    result(): ExportCheckResult {
      return {
        ...where,
        check,
        rows,
        failed,
        reasons: [...reasons.entries()]
          .map(([reason, { rows: count, at }]) => ({
            reason,
            rows: count,
            ...(at !== undefined ? { at } : {}),
          }))
          .sort((a, b) => b.rows - a.rows || a.reason.localeCompare(b.reason))
          .slice(0, 5),
        ...(longest > 0 ? { longestRendered: longest } : {}),
      };
    },
  };
}

interface FoundExport {
  format: string;
  /** The export's folder name. */
  name: string;
  folder: string;
  file: string;
  /** The chat templates its manifest entry or README names; undefined when neither names any. */
  templates?: string[];
}

interface ManifestExport {
  format: string;
  folder: string;
  /** Where the folder is, relative to the pipeline output. */
  path: string;
  templates?: string[];
}

/** The exports (and the RL stage's OpenRLHF folder) a pipeline manifest lists, or undefined without one. */
async function manifestExports(out: string): Promise<ManifestExport[] | undefined> {
  const text = await readFile(join(out, 'manifest.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const manifest = JSON.parse(text) as {
      exports?: Array<{ format?: unknown; folder?: unknown; templates?: unknown }>;
      rl?: { formats?: Array<{ format?: unknown }> };
    };
    const exports = (Array.isArray(manifest.exports) ? manifest.exports : []).flatMap((entry) => {
      if (typeof entry.format !== 'string') return [];
      const folder = typeof entry.folder === 'string' ? entry.folder : entry.format;
      const templates = Array.isArray(entry.templates) ? entry.templates.map(String) : undefined;
      return [
        { format: entry.format, folder, path: join('exports', folder), ...(templates ? { templates } : {}) },
      ];
    });
    const rl = (Array.isArray(manifest.rl?.formats) ? manifest.rl.formats : [])
      .filter((entry) => entry.format === 'openrlhf')
      .map(() => ({ format: 'openrlhf', folder: 'openrlhf', path: join('rl', 'openrlhf') }));
    return [...exports, ...rl];
  } catch {
    return undefined;
  }
}

/** The RL formats a pipeline output's manifest lists that no reader here checks (TRL's and veRL's RL files). */
async function uncheckedRlFolders(folder: string, found: readonly FoundExport[]): Promise<string[]> {
  const text = await readFile(join(folder, 'manifest.json'), 'utf8').catch(() => undefined);
  if (text === undefined || found.length === 0) return [];
  try {
    const formats =
      (JSON.parse(text) as { rl?: { formats?: Array<{ format?: unknown }> } }).rl?.formats ?? [];
    return formats.map((entry) => String(entry.format)).filter((format) => format !== 'openrlhf');
  } catch {
    return [];
  }
}

/** The `templates:` line of an export folder's README, or undefined. */
async function readmeTemplates(folder: string): Promise<string[] | undefined> {
  const text = await readFile(join(folder, 'README.md'), 'utf8').catch(() => undefined);
  const line = text?.split('\n').find((entry) => entry.startsWith('templates: '));
  if (line === undefined) return undefined;
  const list = line.slice('templates: '.length).trim();
  return list === 'none' || list === '' ? [] : list.split(',').map((name) => name.trim());
}

async function findExports(folder: string, format?: string): Promise<FoundExport[]> {
  const own = basename(folder);
  const at = async (candidate: string | undefined, name: string, base: string, listed?: string[]) => {
    const reader = candidate ? exportReaders[candidate] : undefined;
    if (!candidate || !reader) return undefined;
    const file = await reader.dataFile(base).catch(() => undefined);
    if (file === undefined) return undefined;
    const templates = listed ?? (await readmeTemplates(base));
    return { format: candidate, name, folder: base, file, ...(templates ? { templates } : {}) };
  };
  // One export's own folder: named by --format, by its format, or by the manifest two levels up.
  if (format !== undefined) {
    const found = await at(format, own, folder);
    return found ? [found] : [];
  }
  const listed = (await manifestExports(join(folder, '..', '..')))?.find(
    (entry) => entry.folder === own && basename(join(folder, '..')) === basename(join(entry.path, '..')),
  );
  if (listed) {
    const fromManifest = await at(listed.format, own, folder, listed.templates);
    if (fromManifest) return [fromManifest];
  }
  const named = await at(own, own, folder);
  if (named) return [named];
  // A pipeline output (its manifest names every export) or an exports/ folder of format-named folders.
  const found: FoundExport[] = [];
  for (const entry of (await manifestExports(folder)) ?? []) {
    const export_ = await at(entry.format, entry.folder, join(folder, entry.path), entry.templates);
    if (export_) found.push(export_);
  }
  if (found.length > 0) return found;
  for (const base of [folder, join(folder, 'exports')]) {
    const entries = await readdir(base, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!entry.isDirectory()) continue;
      const export_ = await at(entry.name, entry.name, join(base, entry.name));
      if (export_) found.push(export_);
    }
    if (found.length > 0) return found;
  }
  return found;
}
