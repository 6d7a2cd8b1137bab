// How each trainer reads an export folder: where its data file is, how a row becomes the conversation the
// trainer hands to a chat template (tools and arguments decoded as the trainer decodes them), and the rules
// the trainer's own code holds a row to. One reader per kind of folder; `hsa check-exports` runs them.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readInputLines } from '../../harness/input-file.js';

/** A conversation as a trainer hands it to a chat template. */
export interface Conversation {
  messages: Array<Record<string, unknown>>;
  tools: unknown[];
  /** The template renders the generation prompt after it (a prompt-only row: OpenRLHF). */
  generationPrompt?: boolean;
  /** The reader held the roles to the trainer's own order already (LLaMA-Factory's sharegpt positions). */
  rolesChecked?: boolean;
}

/** One row of an export's data file: its JSON value, or why it could not be read. */
export type ExportLine = { line: number; value: unknown } | { line: number; problem: string };

/** A kind of export folder and its trainer's reading of it. */
export interface ExportReader {
  /** The trainer's rules a row is checked against, in words (printed with the report). */
  rules: string[];
  /** What renders the rows when no chat template does; undefined when the trainer renders with one. */
  renderedBy?: string;
  /** The data file inside the folder, or undefined when the folder holds none. */
  dataFile(folder: string): Promise<string | undefined>;
  lines(file: string): AsyncIterable<ExportLine>;
  /** The row as the trainer reads it; throws with the rule a row breaks. */
  read(row: unknown): Conversation;
}

const fileIn = (name: string) => async (folder: string) => {
  const file = join(folder, name);
  const exists = await stat(file).then(
    (info) => info.isFile(),
    () => false,
  );
  return exists ? file : undefined;
};

async function* jsonLines(file: string): AsyncIterable<ExportLine> {
  // Read as every JSONL input is: a line that is not UTF-8 (or too long) fails with its number.
  for await (const entry of readInputLines(file)) {
    if ('issue' in entry) {
      yield { line: entry.line, problem: entry.issue.message };
      continue;
    }
    if (entry.text.trim() === '') continue;
    try {
      yield { line: entry.line, value: JSON.parse(entry.text) as unknown };
    } catch (error) {
      yield { line: entry.line, problem: `not JSON: ${(error as Error).message}` };
    }
  }
}

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

function toolsText(tools: unknown, reader: string): unknown[] {
  if (typeof tools !== 'string') throw new Error(`\`tools\` is not JSON text (${reader})`);
  const decoded = JSON.parse(tools) as unknown;
  if (!Array.isArray(decoded)) throw new Error('`tools` does not decode to an array');
  return decoded;
}

/** Null fields dropped, recursively, as veRL's exported dataset class does before the template sees them. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== null && item !== undefined)
        .map(([key, item]) => [key, withoutNulls(item)]),
    );
  return value;
}

const trl: ExportReader = {
  rules: [
    '`messages` (or `prompt` + `completion`) lists',
    '`tools` JSON text decoding to an array (SFTTrainer json.loads it)',
    'role alternation',
  ],
  dataFile: fileIn('train.jsonl'),
  lines: jsonLines,
  read(row) {
    const { messages: listed, prompt, completion, tools } = row as Record<string, unknown>;
    // The prompt-completion layout: SFTTrainer renders `prompt + completion` as one conversation.
    const messages =
      listed ?? (Array.isArray(prompt) && Array.isArray(completion) ? [...prompt, ...completion] : undefined);
    if (!Array.isArray(messages)) throw new Error('neither `messages` nor `prompt` and `completion` lists');
    return { messages, tools: toolsText(tools, 'SFTTrainer json.loads it') };
  },
};

const axolotl: ExportReader = {
  rules: [
    '`tools` a list (Axolotl: "Unknown tools format" otherwise)',
    '`parameters` and `arguments` JSON text, decoded as Axolotl decodes them',
    'role alternation',
  ],
  dataFile: fileIn('train.jsonl'),
  lines: jsonLines,
  read(row) {
    const { messages, tools } = row as { messages: Conversation['messages']; tools: unknown };
    if (!Array.isArray(messages)) throw new Error('`messages` is not a list');
    if (!Array.isArray(tools)) throw new Error('`tools` is not a list (Axolotl: "Unknown tools format")');
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
};

const openai: ExportReader = {
  rules: ['`tools` an array when present', 'role alternation'],
  renderedBy: "OpenAI's fine-tuning service (its own template, server-side)",
  dataFile: fileIn('train.jsonl'),
  lines: jsonLines,
  read(row) {
    const { messages, tools } = row as { messages: Conversation['messages']; tools?: unknown };
    if (!Array.isArray(messages)) throw new Error('`messages` is not a list');
    if (tools !== undefined && !Array.isArray(tools)) throw new Error('`tools` is not an array');
    return { messages, tools: (tools as unknown[] | undefined) ?? [] };
  },
};

/** LLaMA-Factory's sharegpt tags, as the exporter's `dataset_info.json` entry names them. */
const sharegptRoles: Record<string, string> = {
  human: 'user',
  gpt: 'assistant',
  function_call: 'assistant',
  observation: 'tool',
};

const llamaFactory: ExportReader = {
  rules: [
    'a sharegpt entry in dataset_info.json whose file_name is in the folder',
    'human/observation turns at odd positions, gpt/function_call at even ones, ending on the model (LLaMA-Factory data/README)',
    'a function_call value: a {name, arguments} object or an array of them, arguments an object',
    '`system` text; `tools` JSON text decoding to an array',
  ],
  renderedBy:
    "LLaMA-Factory's own `template:` (its function-call and observation formatters, not a Jinja chat template)",
  async dataFile(folder) {
    const text = await readFile(join(folder, 'dataset_info.json'), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const info = JSON.parse(text) as Record<string, { file_name?: unknown; formatting?: unknown }>;
    for (const entry of Object.values(info)) {
      if (entry.formatting !== 'sharegpt' || typeof entry.file_name !== 'string') continue;
      const file = await fileIn(entry.file_name)(folder);
      if (file) return file;
    }
    return undefined;
  },
  lines: jsonLines,
  read(row) {
    const { conversations, system, tools } = row as Record<string, unknown>;
    if (!Array.isArray(conversations)) throw new Error('`conversations` is not a list');
    if (typeof system !== 'string') throw new Error('`system` is not text');
    const decodedTools = toolsText(tools, 'LLaMA-Factory json.loads it');
    const messages: Conversation['messages'] = system === '' ? [] : [{ role: 'system', content: system }];
    for (const [index, turn] of (conversations as Array<{ from?: unknown; value?: unknown }>).entries()) {
      const odd = index % 2 === 0; // 1-based odd positions: the user's side
      if (typeof turn.from !== 'string' || !(turn.from in sharegptRoles))
        throw new Error(`conversations[${index}]: unknown tag ${JSON.stringify(turn.from)}`);
      if (typeof turn.value !== 'string') throw new Error(`conversations[${index}]: \`value\` is not text`);
      const userSide = turn.from === 'human' || turn.from === 'observation';
      if (userSide !== odd)
        throw new Error(
          `conversations[${index}]: ${turn.from} at an ${odd ? 'odd' : 'even'} position (LLaMA-Factory's alternation rule)`,
        );
      if (turn.from === 'function_call') {
        const value = JSON.parse(turn.value) as unknown;
        const calls = Array.isArray(value) ? value : [value];
        for (const call of calls as Array<{ name?: unknown; arguments?: unknown }>)
          if (
            typeof call?.name !== 'string' ||
            call.arguments === null ||
            typeof call.arguments !== 'object' ||
            Array.isArray(call.arguments)
          )
            throw new Error(
              `conversations[${index}]: a function_call is not {name, arguments} with arguments an object`,
            );
      }
      messages.push({ role: sharegptRoles[turn.from] as string, content: turn.value });
    }
    const last = (conversations as Array<{ from?: unknown }>).at(-1)?.from;
    if (last !== 'gpt' && last !== 'function_call')
      throw new Error('the conversation does not end on the model (gpt or function_call)');
    return { messages, tools: decodedTools, rolesChecked: true };
  },
};

const verl: ExportReader = {
  rules: [
    'parquet with `messages` (list of struct) and `tools` (JSON text) columns',
    'null fields dropped, `tools` and `arguments` decoded, as the exported dataset class does',
    'role alternation',
  ],
  dataFile: fileIn('train.parquet'),
  async *lines(file) {
    const { asyncBufferFromFile, parquetReadObjects } = await import('hyparquet');
    let rows: Array<Record<string, unknown>>;
    try {
      rows = (await parquetReadObjects({ file: await asyncBufferFromFile(file) })) as Array<
        Record<string, unknown>
      >;
    } catch (error) {
      yield { line: 0, problem: `not a parquet file veRL can read: ${(error as Error).message}` };
      return;
    }
    for (const [index, value] of rows.entries()) yield { line: index + 1, value };
  },
  read(row) {
    const { messages, tools } = row as Record<string, unknown>;
    if (!Array.isArray(messages)) throw new Error('`messages` is not a list column');
    return {
      messages: (withoutNulls(messages) as Conversation['messages']).map(decodeArguments),
      tools: toolsText(tools, 'the dataset class json.loads it'),
    };
  },
};

const openrlhf: ExportReader = {
  rules: [
    '`prompt` (--data.input_key) a non-empty list of messages, each with a role and text content (apply_chat_template renders it)',
    "`label` (--data.label_key) JSON text holding the row's reset payload, messages (the prompt) and tools",
  ],
  dataFile: fileIn('prompts.jsonl'),
  lines: jsonLines,
  read(row) {
    const { prompt, label } = row as Record<string, unknown>;
    if (!Array.isArray(prompt) || prompt.length === 0) throw new Error('`prompt` is not a list of messages');
    for (const [index, message] of (prompt as Array<{ role?: unknown; content?: unknown }>).entries())
      if (typeof message?.role !== 'string' || typeof message.content !== 'string')
        throw new Error(`prompt[${index}] is not a message with a role and text content`);
    if (typeof label !== 'string') throw new Error('`label` is not JSON text');
    const decoded = JSON.parse(label) as { reset?: unknown; messages?: unknown; tools?: unknown };
    if (decoded.reset === null || typeof decoded.reset !== 'object')
      throw new Error('`label` holds no reset payload');
    if (JSON.stringify(decoded.messages) !== JSON.stringify(prompt))
      throw new Error("`label`'s messages are not the row's prompt");
    if (!Array.isArray(decoded.tools)) throw new Error('`label` holds no tools array');
    return { messages: prompt as Conversation['messages'], tools: decoded.tools, generationPrompt: true };
  },
};

/**
 * Every kind of export folder the check reads, by format name (the RL stage's OpenRLHF folder included).
 *
 * @example
 * await exportReaders.verl.dataFile('out/pipeline/exports/verl') // 'out/pipeline/exports/verl/train.parquet'
 */
export const exportReaders: Readonly<Record<string, ExportReader>> = {
  trl,
  axolotl,
  'llama-factory': llamaFactory,
  verl,
  openai,
  openrlhf,
};
