// The consumer-side check of trainer exports: reads each format's rows the way its trainer does (tools
// decoded, arguments as the trainer hands them to the template), checks role alternation, and renders every
// row through `@huggingface/jinja` with the user's chat templates. It reports, per format and template, how
// many rows fail and why; it never changes a file.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { readInputLines } from '../../harness/input-file.js';
import { HarnessAugmentError, truncateText } from '../../harness/issues.js';
import { renderBounded } from './bounded-template.js';

/** A chat template to render rows through, by name (the file name) and source. */
export interface ChatTemplateSource {
  name: string;
  source: string;
}

/** What failed for one (format, check) pair: counts and the first reasons, each with how often it occurred. */
export interface ExportCheckResult {
  format: string;
  /** The export's folder name (the format's name unless the pipeline gave it a `folder`). */
  export: string;
  /** `structure` for the format's own rules, else the template's name. */
  check: string;
  rows: number;
  failed: number;
  /** The most frequent reasons; `at` locates the first row that failed for it (`line 12, messages[3].tool_calls[0]`). */
  reasons: Array<{ reason: string; rows: number; at?: string }>;
  /** The largest rendered row, in characters (a hint for the trainer's max length). */
  longestRendered?: number;
}

interface Conversation {
  messages: Array<Record<string, unknown>>;
  tools: unknown[];
}

/** Formats whose rows the check reads, and where: the data file inside the format's folder. */
const readers: Record<string, { file: string; read: (row: unknown) => Conversation }> = {
  trl: {
    file: 'train.jsonl',
    read(row) {
      const {
        messages: listed,
        prompt,
        completion,
        tools,
      } = row as {
        messages?: Conversation['messages'];
        prompt?: Conversation['messages'];
        completion?: Conversation['messages'];
        tools: unknown;
      };
      // The prompt-completion layout: SFTTrainer renders `prompt + completion` as one conversation.
      const messages =
        listed ??
        (Array.isArray(prompt) && Array.isArray(completion) ? [...prompt, ...completion] : undefined);
      if (!Array.isArray(messages)) throw new Error('neither `messages` nor `prompt` and `completion` lists');
      if (typeof tools !== 'string') throw new Error('`tools` is not JSON text (SFTTrainer json.loads it)');
      const decoded = JSON.parse(tools) as unknown;
      if (!Array.isArray(decoded)) throw new Error('`tools` does not decode to an array');
      return { messages, tools: decoded };
    },
  },
  axolotl: {
    file: 'train.jsonl',
    read(row) {
      const { messages, tools } = row as { messages: Conversation['messages']; tools: unknown };
      if (!Array.isArray(tools)) throw new Error('`tools` is not a list (Axolotl: "Unknown tools format")');
      // Axolotl decodes `parameters` and `arguments` JSON text before the template sees them.
      const decodedTools = tools.map((tool) => {
        const fn = (tool as { function: Record<string, unknown> }).function;
        return {
          ...(tool as object),
          function: {
            ...fn,
            ...(typeof fn.parameters === 'string' ? { parameters: JSON.parse(fn.parameters) } : {}),
          },
        };
      });
      return { messages: messages.map(decodeArguments), tools: decodedTools };
    },
  },
  openai: {
    file: 'train.jsonl',
    read(row) {
      const { messages, tools } = row as { messages: Conversation['messages']; tools?: unknown };
      if (tools !== undefined && !Array.isArray(tools)) throw new Error('`tools` is not an array');
      return { messages, tools: (tools as unknown[] | undefined) ?? [] };
    },
  },
};

function decodeArguments(message: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(message.tool_calls)) return message;
  return {
    ...message,
    tool_calls: message.tool_calls.map((call: { function: { arguments: unknown } }) => ({
      ...call,
      function: {
        ...call.function,
        arguments:
          typeof call.function.arguments === 'string'
            ? JSON.parse(call.function.arguments)
            : call.function.arguments,
      },
    })),
  };
}

/**
 * The conversation with each call's name and arguments replaced by numbered probes of the same type (a
 * mapping stays a mapping, JSON text stays JSON text), so that a rendering shows whether each call made
 * it into the text, and whether its arguments were encoded once.
 *
 * @example
 * probeCalls(messages).messages[2].tool_calls[0].function // { name: 'hsaprobe0fn', arguments: { hsaprobekey: 'hsaprobeval0' } }
 */
export function probeCalls(messages: ReadonlyArray<Record<string, unknown>>): {
  messages: Array<Record<string, unknown>>;
  count: number;
} {
  let count = 0;
  const probed = messages.map((message) => {
    if (!Array.isArray(message.tool_calls)) return message;
    return {
      ...message,
      tool_calls: message.tool_calls.map((call: { function: { arguments: unknown } }) => {
        const args = { hsaprobekey: `hsaprobeval${count}` };
        const probe = {
          ...call,
          function: {
            name: `hsaprobe${count}fn`,
            arguments: typeof call.function.arguments === 'string' ? JSON.stringify(args) : args,
          },
        };
        count++;
        return probe;
      }),
    };
  });
  return { messages: probed, count };
}

/**
 * What a rendering of probed calls shows wrong: a call missing from the text, or arguments encoded twice
 * (a JSON string passed through `tojson` comes out with escaped quotes); undefined when nothing is.
 *
 * @example
 * probeProblem('{"name": "hsaprobe0fn", "arguments": "{\\"hsaprobekey\\": …}"}', 1) // 'arguments encoded twice …'
 */
export function probeProblem(text: string, count: number): string | undefined {
  for (let index = 0; index < count; index++) {
    if (!text.includes(`hsaprobe${index}fn`))
      return 'a tool call is missing from the rendered text (the template dropped it)';
    if (!text.includes(`hsaprobeval${index}`))
      return "a tool call's arguments are missing from the rendered text";
  }
  if (/\\+"hsaprobe(key|val)/.test(text))
    return 'arguments encoded twice: the template quotes JSON text again (export arguments as mappings for it)';
  return undefined;
}

/** A JSON value written out with its keys sorted, so that two encodings of one value compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** The JSON object or array that starts at `start` (balanced brackets, strings respected), parsed; undefined if none. */
function jsonAt(text: string, start: number): { value: unknown; end: number } | undefined {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) {
        try {
          return { value: JSON.parse(text.slice(start, index + 1)), end: index + 1 };
        } catch {
          return undefined;
        }
      }
    }
  }
  return undefined;
}

/** Scalars of a JSON value, as text: what must show up when a template writes a mapping in its own syntax. */
function leaves(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => [key, ...leaves(item)]);
  return [typeof value === 'string' ? value : JSON.stringify(value)];
}

/** How far after a call's name its arguments may start (`", "arguments": `, gpt-oss's channel header …). */
const ARGUMENTS_WITHIN = 200;

/**
 * Where the rendered text does not carry a call's arguments verbatim: each call, in order, must show up
 * after its name as the row's arguments. JSON text (`arguments` a string) must appear byte for byte; a
 * mapping must appear as JSON that decodes to the same value, or, for a template that writes mappings in
 * its own syntax (Gemma 4's `key:value`), with every key and value as it is and no escaped quote. The first
 * call that does not, located in the row; undefined when every call does.
 *
 * @example
 * argumentsProblem('f\n```json\n"{\\"a\\": 1}"', messages) // 'messages[1].tool_calls[0] (f): rendered arguments are not …'
 */
export function argumentsProblem(
  text: string,
  messages: ReadonlyArray<Record<string, unknown>>,
): { at: string; reason: string } | undefined {
  let cursor = 0;
  for (const [messageIndex, message] of messages.entries()) {
    if (!Array.isArray(message.tool_calls)) continue;
    for (const [callIndex, call] of (
      message.tool_calls as Array<{ function?: Record<string, unknown> }>
    ).entries()) {
      const name = String(call.function?.name ?? '');
      const args = call.function?.arguments;
      const at = `messages[${messageIndex}].tool_calls[${callIndex}]`;
      const found = findArguments(text, cursor, name, args);
      if (found === undefined && (name === '' || !text.includes(name, cursor)))
        return {
          at,
          reason: 'a tool call is missing from the rendered text (the template dropped it)',
        };
      if (found === undefined) {
        const shown = truncateText(typeof args === 'string' ? args : JSON.stringify(args), 80);
        const twice =
          typeof args === 'string' && text.includes(JSON.stringify(args).slice(1, -1))
            ? ' (encoded twice: the template quotes JSON text again; export arguments as mappings for it)'
            : '';
        return {
          at: `${at} (${name} ${shown})`,
          reason: `rendered arguments are not the row's arguments, verbatim${twice}`,
        };
      }
      cursor = found;
    }
  }
  return undefined;
}

/** The end of the first rendering of `name` followed by `args` at or after `from`; undefined if none. */
function findArguments(text: string, from: number, name: string, args: unknown): number | undefined {
  const wanted = typeof args === 'string' ? undefined : canonical(args);
  for (let at = text.indexOf(name, from); at >= 0 && name !== ''; at = text.indexOf(name, at + 1)) {
    const after = at + name.length;
    const window = text.slice(after, after + ARGUMENTS_WITHIN);
    if (typeof args === 'string') {
      const index = text.indexOf(args, after);
      if (index >= 0 && index - after <= ARGUMENTS_WITHIN) return index + args.length;
      continue;
    }
    for (let offset = window.search(/[{[]/); offset >= 0; ) {
      const parsed = jsonAt(text, after + offset);
      if (parsed && canonical(parsed.value) === wanted) return parsed.end;
      const next = window.slice(offset + 1).search(/[{[]/);
      offset = next < 0 ? -1 : offset + 1 + next;
    }
    // A mapping in the template's own syntax: every key and value as it is, nothing behind an escaped quote.
    const span = text.slice(after, after + ARGUMENTS_WITHIN + JSON.stringify(args ?? null).length * 2);
    const items = leaves(args);
    if (items.length > 0 && !span.includes('\\"') && items.every((item) => span.includes(item)))
      return after + Math.max(...items.map((item) => span.indexOf(item) + item.length));
  }
  return undefined;
}

/**
 * Role alternation as chat templates and trainers expect it; the first problem, or undefined.
 *
 * @example
 * alternationProblem([{ role: 'user' }, { role: 'user' }]) // 'messages[1]: two user messages in a row'
 */
export function alternationProblem(messages: ReadonlyArray<Record<string, unknown>>): string | undefined {
  let previous: string | undefined;
  let openCalls = 0;
  for (const [index, message] of messages.entries()) {
    const role = message.role;
    if (role === 'system') {
      if (index !== 0) return `messages[${index}]: a system message after the first turn`;
    } else if (role === 'user') {
      if (previous === 'user') return `messages[${index}]: two user messages in a row`;
      if (openCalls > 0) return `messages[${index}]: a user message while tool calls are unanswered`;
    } else if (role === 'assistant') {
      // Two assistant messages in a row (a rejected attempt, then the fallback) are allowed: the trainers
      // accept them; a strict-alternation template (Mistral, Gemma) refuses them when rendered.
      if (previous === undefined || previous === 'system')
        return `messages[${index}]: an assistant message before any user message`;
      openCalls = Array.isArray(message.tool_calls) ? message.tool_calls.length : 0;
    } else if (role === 'tool') {
      if (openCalls === 0) return `messages[${index}]: a tool message that answers no call`;
      openCalls--;
    } else return `messages[${index}]: unknown role ${JSON.stringify(role)}`;
    previous = role as string;
  }
  if (previous !== 'assistant') return 'the conversation does not end with an assistant message';
  return undefined;
}

/**
 * Checks the exports under `folder` (a pipeline output, its `exports/`, or one format's folder): each
 * format's structure, and every row rendered through each template.
 *
 * @example
 * const results = await checkExports('out/pipeline', { templates: [{ name: 'qwen', source }] });
 */
export async function checkExports(
  folder: string,
  options: {
    templates?: readonly ChatTemplateSource[];
    /** The format of `folder` when it is one export whose folder name is not its format's. */
    format?: string;
  } = {},
): Promise<ExportCheckResult[]> {
  if (options.format !== undefined && !readers[options.format])
    throw new HarnessAugmentError(
      `--format ${options.format}: not a format the check reads (${Object.keys(readers).join(', ')})`,
      { kind: 'usage' },
    );
  const formats = await findFormats(folder, options.format);
  if (formats.length === 0)
    throw new HarnessAugmentError(
      `${folder}: no export to check (looked for ${Object.keys(readers).join(', ')} folders with their data file)`,
      { kind: 'usage' },
    );
  const compiled = (options.templates ?? []).map((template) => {
    try {
      return { name: template.name, template: new Template(template.source) };
    } catch (error) {
      throw new HarnessAugmentError(`${template.name}: not a Jinja template: ${(error as Error).message}`, {
        kind: 'usage',
      });
    }
  });
  const results: ExportCheckResult[] = [];
  for (const { format, name, file } of formats) {
    const reader = readers[format] as (typeof readers)[string];
    const structure = tally(format, name, 'structure');
    const conversations: Array<(Conversation & { line: number }) | undefined> = [];
    // Read as every JSONL input is: a line that is not UTF-8 (or too long) fails with its number.
    for await (const entry of readInputLines(file)) {
      if ('issue' in entry) {
        structure.fail(entry.issue.message, `line ${entry.line}`);
        conversations.push(undefined);
        continue;
      }
      const line = entry.text;
      if (line.trim() === '') continue;
      try {
        const conversation = reader.read(JSON.parse(line));
        const problem = alternationProblem(conversation.messages);
        if (problem) throw new Error(problem);
        structure.pass();
        conversations.push({ ...conversation, line: entry.line });
      } catch (error) {
        structure.fail((error as Error).message, `line ${entry.line}`);
        conversations.push(undefined);
      }
    }
    results.push(structure.result());
    // OpenAI renders its own template server-side; rendering its rows through a local one means nothing.
    if (format === 'openai') continue;
    const exportName = name;
    for (const { name, template } of compiled) {
      const rendered = tally(format, exportName, name);
      for (const conversation of conversations) {
        if (!conversation) continue;
        try {
          const render = (messages: Conversation['messages']) =>
            renderBounded(template, {
              messages,
              tools: conversation.tools,
              add_generation_prompt: false,
              bos_token: '',
              eos_token: '',
            });
          const text = render(conversation.messages);
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
      results.push(rendered.result());
    }
  }
  return results;
}

function tally(format: string, exportName: string, check: string) {
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
        format,
        export: exportName,
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
  file: string;
}

const exists = async (path: string) =>
  stat(path).then(
    (info) => info.isFile(),
    () => false,
  );

/** The exports a pipeline manifest lists (format and folder), or undefined when `out` holds no manifest. */
async function manifestExports(out: string): Promise<Array<{ format: string; folder: string }> | undefined> {
  const text = await readFile(join(out, 'manifest.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const manifest = JSON.parse(text) as { exports?: Array<{ format?: unknown; folder?: unknown }> };
    if (!Array.isArray(manifest.exports)) return undefined;
    return manifest.exports.flatMap((entry) =>
      typeof entry.format === 'string'
        ? [{ format: entry.format, folder: typeof entry.folder === 'string' ? entry.folder : entry.format }]
        : [],
    );
  } catch {
    return undefined;
  }
}

async function findFormats(folder: string, format?: string): Promise<FoundExport[]> {
  const own = basename(folder);
  const at = async (candidate: string | undefined, name: string, base: string) => {
    const reader = candidate ? readers[candidate] : undefined;
    if (!candidate || !reader) return undefined;
    const file = join(base, reader.file);
    return (await exists(file)) ? { format: candidate, name, file } : undefined;
  };
  // One export's own folder: named by --format, by its format, or by the manifest two levels up.
  if (format !== undefined) {
    const found = await at(format, own, folder);
    return found ? [found] : [];
  }
  const named = await at(own, own, folder);
  if (named) return [named];
  const listed = (await manifestExports(join(folder, '..', '..')))?.find((entry) => entry.folder === own);
  const fromManifest = await at(listed?.format, own, folder);
  if (fromManifest) return [fromManifest];
  // A pipeline output (its manifest names every export) or an exports/ folder of format-named folders.
  const found: FoundExport[] = [];
  for (const entry of (await manifestExports(folder)) ?? []) {
    const export_ = await at(entry.format, entry.folder, join(folder, 'exports', entry.folder));
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
