// Round trips: what each exporter writes is read back the way its trainer reads it and checked against
// that trainer's rules, written here from the trainers' docs and sources, independently of the exporter
// code. The checks run on the hand-written examples and on the 396 live-stream fixture trajectories.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ExportSummary,
  type TrainingExample,
  toVerlRow,
  trainerExporters,
} from '../../../src/adapters/trainer/index.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { projectRoot } from '../../support/run-cli.js';

const scratch = await mkdtemp(join(tmpdir(), 'hsa-round-trip-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const handWritten = JSON.parse(
  readFileSync(join(projectRoot, 'test/golden/exporters/examples.json'), 'utf8'),
) as TrainingExample[];
const fixture: TrainingExample[] = readFileSync(
  join(projectRoot, 'fixtures/livestream/trajectories.jsonl'),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => {
    const trajectory = JSON.parse(line) as Trajectory;
    return {
      id: trajectory.id,
      messages: trajectory.messages,
      tools: trajectory.tools ?? [],
      ...(trajectory.meta ? { meta: trajectory.meta } : {}),
    };
  });

let runs = 0;
async function exportAll(format: string, examples: TrainingExample[], options?: Record<string, unknown>) {
  const exporter = trainerExporters[format];
  if (!exporter) throw new Error(`no exporter ${format}`);
  runs += 1;
  const sink = await exporter.open(join(scratch, `${format}-${runs}`), options);
  for (const example of examples) await sink.write(example);
  return sink.close();
}

async function jsonLines(summary: ExportSummary): Promise<unknown[]> {
  const text = await readFile(summary.files[0] as string, 'utf8');
  return text === ''
    ? []
    : text
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => JSON.parse(line));
}

function containsKey(value: unknown, key: string): boolean {
  if (Array.isArray(value)) return value.some((item) => containsKey(item, key));
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([name, member]) => name === key || containsKey(member, key));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** TRL: a conversational row — `messages` with role/content, `tools` as JSON text of an array. */
function trlProblems(row: unknown, argumentsEncoding: 'object' | 'string'): string[] {
  const problems: string[] = [];
  if (!isObject(row)) return ['row is not an object'];
  if (Object.keys(row).join() !== 'messages,tools') problems.push(`columns ${Object.keys(row).join()}`);
  if (typeof row.tools !== 'string' || !Array.isArray(JSON.parse(row.tools)))
    problems.push('tools is not JSON text of an array');
  if (!Array.isArray(row.messages) || row.messages.length === 0) return [...problems, 'no messages'];
  for (const message of row.messages) {
    if (!isObject(message) || !['system', 'user', 'assistant', 'tool'].includes(message.role as string)) {
      problems.push('bad role');
      continue;
    }
    // An assistant tool-call message leaves `content` out (TRL ≥ 1.0 would hand the template None);
    // every other message has it, and none is null.
    if (!('content' in message) && !(message.role === 'assistant' && Array.isArray(message.tool_calls)))
      problems.push('message without content');
    if (message.content === null) problems.push('content is null');
    for (const call of (message.tool_calls as Array<{ function: { arguments: unknown } }> | undefined) ??
      []) {
      const ok =
        argumentsEncoding === 'object'
          ? isObject(call.function.arguments)
          : typeof call.function.arguments === 'string';
      if (!ok) problems.push(`arguments not ${argumentsEncoding}`);
    }
  }
  return problems;
}

/**
 * LLaMA-Factory sharegpt (data/README.md): human and observation at odd positions, gpt and function_call
 * at even positions, so the count is even; a function_call value is one {name, arguments} object or an
 * array of them; tools is JSON text.
 */
function sharegptProblems(row: unknown): string[] {
  if (!isObject(row)) return ['row is not an object'];
  const problems: string[] = [];
  if (typeof row.system !== 'string') problems.push('system is not a string');
  if (typeof row.tools !== 'string' || !Array.isArray(JSON.parse(row.tools)))
    problems.push('tools is not JSON text of an array');
  const turns = row.conversations as Array<{ from: string; value: unknown }>;
  if (!Array.isArray(turns) || turns.length === 0) return [...problems, 'no conversation'];
  if (turns.length % 2 !== 0) problems.push(`odd number of turns (${turns.length})`);
  turns.forEach((turn, index) => {
    const position = index + 1;
    const allowed = position % 2 === 1 ? ['human', 'observation'] : ['gpt', 'function_call'];
    if (!allowed.includes(turn.from)) problems.push(`turn ${position} is ${turn.from}`);
    if (typeof turn.value !== 'string') problems.push(`turn ${position} value is not text`);
    if (turn.from === 'function_call') {
      const parsed: unknown = JSON.parse(turn.value as string);
      const calls = Array.isArray(parsed) ? parsed : [parsed];
      for (const call of calls) {
        if (!isObject(call) || typeof call.name !== 'string' || !isObject(call.arguments)) {
          problems.push(`turn ${position} is not a {name, arguments} call`);
        }
      }
    }
  });
  return problems;
}

/** OpenAI fine-tuning: string arguments, tool messages answer earlier calls, an assistant to train on. */
function openAIProblems(row: unknown): string[] {
  if (!isObject(row)) return ['row is not an object'];
  const problems: string[] = [];
  for (const key of Object.keys(row)) {
    if (!['messages', 'tools', 'parallel_tool_calls'].includes(key)) problems.push(`unknown key ${key}`);
  }
  if ('tools' in row && (!Array.isArray(row.tools) || row.tools.length === 0 || row.tools.length > 128)) {
    problems.push('tools must be a non-empty array of at most 128');
  }
  const messages = row.messages as Array<Record<string, unknown>>;
  if (!messages.some((message) => message.role === 'assistant')) problems.push('no assistant message');
  const calls = new Set<string>();
  const allowed: Record<string, string[]> = {
    system: ['role', 'content', 'name'],
    user: ['role', 'content', 'name'],
    assistant: ['role', 'content', 'name', 'tool_calls', 'weight'],
    tool: ['role', 'content', 'tool_call_id'],
  };
  for (const message of messages) {
    const keys = allowed[message.role as string];
    if (!keys) problems.push(`role ${String(message.role)}`);
    for (const key of Object.keys(message))
      if (keys && !keys.includes(key)) problems.push(`key ${key} on ${message.role}`);
    for (const call of (message.tool_calls as Array<{ id: string; function: { arguments: unknown } }>) ??
      []) {
      calls.add(call.id);
      if (typeof call.function.arguments !== 'string') problems.push('arguments not a string');
      else JSON.parse(call.function.arguments);
    }
    if (message.role === 'tool' && !calls.has(message.tool_call_id as string))
      problems.push('tool message answers no call');
  }
  return problems;
}

/** Parquet readers leave out absent values; compare rows with null members removed on both sides. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null && member !== undefined)
      .map(([key, member]) => [key, withoutNulls(member)]),
  );
}

for (const [name, examples] of [
  ['hand-written examples', handWritten],
  ['live-stream fixture', fixture],
] as const) {
  describe(`round trips over the ${name}`, () => {
    it('reads the input', () => {
      expect(examples.length).toBe(name === 'live-stream fixture' ? 396 : 5);
      expect(examples.some((example) => containsKey(example, 'hsa'))).toBe(true);
    });

    it('trl: every row is a conversational row with tools as JSON text, in both argument encodings', async () => {
      for (const argumentsEncoding of ['object', 'string'] as const) {
        const summary = await exportAll('trl', examples, { argumentsEncoding });
        const rows = await jsonLines(summary);
        expect(rows.length + summary.rejected).toBe(examples.length);
        expect(rows).toHaveLength(summary.rows);
        for (const row of rows) expect(trlProblems(row, argumentsEncoding)).toEqual([]);
        expect(rows.some((row) => containsKey(row, 'hsa'))).toBe(false);
      }
    });

    it('axolotl: tools are a list whose parameters and arguments are JSON text', async () => {
      const summary = await exportAll('axolotl', examples);
      const rows = (await jsonLines(summary)) as Array<{ messages: unknown[]; tools: unknown[] }>;
      expect(rows.length + summary.rejected).toBe(examples.length);
      for (const row of rows) {
        expect(Object.keys(row)).toEqual(['messages', 'tools']);
        for (const tool of row.tools as Array<{ function: { parameters?: unknown } }>) {
          expect(typeof tool.function.parameters).toBe('string');
          expect(isObject(JSON.parse(tool.function.parameters as string))).toBe(true);
        }
        expect(containsKey(row, 'hsa')).toBe(false);
      }
    });

    it('llama-factory: every row alternates as the sharegpt rule requires', async () => {
      const summary = await exportAll('llama-factory', examples);
      const rows = await jsonLines(summary);
      expect(rows.length + summary.rejected).toBe(examples.length);
      for (const row of rows) expect(sharegptProblems(row)).toEqual([]);
      const info = JSON.parse(await readFile(summary.files[1] as string, 'utf8'));
      expect(info.hsa_train.file_name).toBe('hsa_train.jsonl');
      // What is rejected is rejected for a reason the format imposes, never silently changed.
      for (const reject of summary.rejects ?? []) {
        expect(['sharegpt_alternation', 'invalid_arguments']).toContain(reject.issues[0]?.code);
      }
    });

    it('openai: every row follows the fine-tuning chat format', async () => {
      const summary = await exportAll('openai', examples);
      const rows = await jsonLines(summary);
      expect(rows.length + summary.rejected).toBe(examples.length);
      for (const row of rows) expect(openAIProblems(row)).toEqual([]);
    });

    it('verl: the parquet file reads back with the same rows', async () => {
      const summary = await exportAll('verl', examples, { rowGroupSize: 3 });
      const file = await asyncBufferFromFile(summary.files[0] as string);
      const rows = await parquetReadObjects({ file });
      const accepted = examples.filter(
        (example) => !summary.rejects?.some((reject) => reject.id === example.id),
      );
      expect(rows).toHaveLength(summary.rows);
      expect(accepted).toHaveLength(summary.rows);
      expect(rows.map(withoutNulls)).toEqual(accepted.map((example) => withoutNulls(toVerlRow(example))));
      const metadata = await parquetMetadataAsync(file);
      expect(metadata.row_groups).toHaveLength(Math.ceil(summary.rows / 3));
      for (const row of rows) expect(Array.isArray(JSON.parse(row.tools as string))).toBe(true);
    });

    it('every format writes the same bytes on a second run', async () => {
      for (const format of Object.keys(trainerExporters)) {
        const options = format === 'axolotl' ? { datasetPath: 'train.jsonl' } : undefined;
        const [first, second] = [
          await exportAll(format, examples, options),
          await exportAll(format, examples, options),
        ];
        expect(first.files.length).toBe(second.files.length);
        for (const [index, file] of first.files.entries()) {
          expect(
            (await readFile(file)).equals(await readFile(second.files[index] as string)),
            `${format} ${file}`,
          ).toBe(true);
        }
      }
    });
  });
}

describe('the live-stream fixture', () => {
  it('is valid gold data: only LLaMA-Factory rejects, and only examples that cannot alternate', async () => {
    for (const format of Object.keys(trainerExporters)) {
      const summary = await exportAll(format, fixture);
      expect(summary.rows + summary.rejected).toBe(fixture.length);
      if (format !== 'llama-factory') expect(summary.rejected, format).toBe(0);
      for (const reject of summary.rejects ?? []) {
        expect(reject.issues.map((issue) => issue.code)).toEqual(['sharegpt_alternation']);
        const example = fixture.find((candidate) => candidate.id === reject.id);
        const roles = example?.messages.map((message) => message.role).join(',') ?? '';
        expect(roles).toMatch(/assistant,assistant|user,user/);
      }
    }
  });
});
