// How the export sinks behave: atomic publication, use after close, option errors, merging into an
// existing dataset_info.json, empty exports, and the format rules that turn an example into a reject.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import {
  safeToOpenAIRow,
  safeToSharegptRow,
  type TrainingExample,
  toTrlRow,
  trainerExporters,
} from '../../../src/adapters/trainer/index.js';
import { HarnessAugmentError } from '../../../src/harness/issues.js';
import { projectRoot } from '../../support/run-cli.js';

const scratch = await mkdtemp(join(tmpdir(), 'hsa-sinks-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));
let folders = 0;
const freshFolder = () => join(scratch, `case-${++folders}`);

const examples = JSON.parse(
  readFileSync(join(projectRoot, 'test/golden/exporters/examples.json'), 'utf8'),
) as TrainingExample[];
const byId = (id: string): TrainingExample => {
  const example = examples.find((candidate) => candidate.id === id);
  if (!example) throw new Error(`no example ${id}`);
  return structuredClone(example);
};
const exporter = (format: string) => {
  const found = trainerExporters[format];
  if (!found) throw new Error(`no exporter ${format}`);
  return found;
};
const codes = (result: { success: boolean; issues?: Array<{ code: string }> }) =>
  result.success ? [] : (result.issues ?? []).map((issue) => issue.code);

describe('trainerExporters', () => {
  it('registers the five formats by name, each with a description', () => {
    expect(Object.keys(trainerExporters)).toEqual(['trl', 'axolotl', 'llama-factory', 'openai', 'verl']);
    for (const [name, entry] of Object.entries(trainerExporters)) {
      expect(entry.format).toBe(name);
      expect(entry.describe.length).toBeGreaterThan(20);
    }
  });
});

describe('atomic publication', () => {
  for (const format of Object.keys(trainerExporters)) {
    it(`${format}: nothing appears under its name before close; abort leaves nothing`, async () => {
      const folder = freshFolder();
      const sink = await exporter(format).open(folder);
      await sink.write(byId('qa-plain'));
      const before = await readdir(folder);
      expect(before.every((name) => name.endsWith('.partial'))).toBe(true);
      const summary = await sink.close();
      for (const file of summary.files) expect(existsSync(file)).toBe(true);
      expect((await readdir(folder)).some((name) => name.endsWith('.partial'))).toBe(false);

      const aborted = freshFolder();
      const abortedSink = await exporter(format).open(aborted);
      await abortedSink.write(byId('qa-plain'));
      await abortedSink.abort();
      expect(await readdir(aborted)).toEqual([]);
    });
  }

  it('refuses a write after close and treats a second abort as nothing', async () => {
    const sink = await exporter('trl').open(freshFolder());
    await sink.close();
    await expect(sink.write(byId('qa-plain'))).rejects.toSatisfy(HarnessAugmentError.isInstance);
    await expect(sink.close()).rejects.toSatisfy(HarnessAugmentError.isInstance);
    await sink.abort();
  });
});

describe('options', () => {
  it.each([
    ['trl', { argumentsEncoding: 'yaml' }],
    ['verl', { rowGroupSize: 0 }],
    ['openai', { parallel_tool_calls: true }],
    ['llama-factory', { datasetName: '' }],
  ])('%s rejects %j at open, as a usage error', async (format, options) => {
    const error = await exporter(format)
      .open(freshFolder(), options)
      .catch((caught: unknown) => caught);
    expect(HarnessAugmentError.isInstance(error)).toBe(true);
    expect((error as HarnessAugmentError).kind).toBe('usage');
  });

  it('axolotl: the config names the data file relative to its own folder, or datasetPath', async () => {
    const folder = freshFolder();
    const summary = await (await exporter('axolotl').open(folder, { fileName: 'rows.jsonl' })).close();
    const config = readFileSync(summary.files[1] as string, 'utf8');
    // Relative to the folder that holds both files: a pipeline opens the sink in a staging folder that is
    // renamed away afterwards, so the path given to open() must not leak into the config.
    expect(config).toMatch(/^ {2}- path: rows\.jsonl$/m);
    expect(config).not.toContain(folder);
    const custom = await (
      await exporter('axolotl').open(freshFolder(), { datasetPath: 'data/x.jsonl' })
    ).close();
    expect(readFileSync(custom.files[1] as string, 'utf8')).toContain('path: data/x.jsonl');
  });

  it('verl: enableThinking adds the column; datasetClass: false leaves the Python file out', async () => {
    const sink = await exporter('verl').open(freshFolder(), { enableThinking: false, datasetClass: false });
    await sink.write(byId('qa-plain'));
    const summary = await sink.close();
    expect(summary.files.map((file) => basename(file))).toEqual(['train.parquet', 'README.md']);
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(summary.files[0] as string) });
    expect(rows[0]?.enable_thinking).toBe(false);
  });

  it('trl: string encoding keeps the raw argument bytes; toolNames: false leaves tool messages unnamed', () => {
    const example = byId('parallel-tools-zh');
    const raw = toTrlRow(example, { argumentsEncoding: 'string', toolNames: false });
    const calls = raw.messages[2]?.role === 'assistant' ? raw.messages[2].tool_calls : undefined;
    expect(calls?.[1]?.function.arguments).toBe('{"link_id": 3, "variant": {"size": "M"}}');
    expect(raw.messages[3]).toEqual({
      role: 'tool',
      content: example.messages[3]?.content,
      tool_call_id: 'call_price_3',
    });
    const objects = toTrlRow(example);
    const objectCalls =
      objects.messages[2]?.role === 'assistant' ? objects.messages[2].tool_calls : undefined;
    expect(objectCalls?.[1]?.function.arguments).toEqual({ link_id: 3, variant: { size: 'M' } });
    expect(objects.messages[4]).toMatchObject({ role: 'tool', name: 'check_stock_and_sizes' });
  });

  it('trl prompt-completion: one line per trained assistant message, its history as the prompt; rejected attempts stay in prompts only', async () => {
    for (const id of ['parallel-tools-zh', 'skill-load-hook-retry']) {
      const example = byId(id);
      const folder = freshFolder();
      const sink = await exporter('trl').open(folder, {
        layout: 'prompt-completion',
        parallelCalls: 'split',
      });
      await sink.write(example);
      expect(await sink.close()).toMatchObject({ rows: 1, rejected: 0 });
      const lines = (await readFile(join(folder, 'train.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { prompt: unknown[]; completion: unknown[]; tools: string });
      const whole = toTrlRow(example, { parallelCalls: 'split' });
      const rejected = example.messages.filter(
        (message) => (message as { hsa?: { event?: string } }).hsa?.event === 'hook_rejected',
      ).length;
      if (id === 'skill-load-hook-retry') expect(rejected).toBeGreaterThan(0);
      const assistants = whole.messages.filter((message) => message.role === 'assistant').length;
      // Every assistant message but the rejected ones is a completion, after exactly the messages before it.
      expect(lines).toHaveLength(assistants - rejected);
      for (const line of lines) {
        expect(Object.keys(line)).toEqual(['prompt', 'completion', 'tools']);
        expect(line.tools).toBe(whole.tools);
        expect(line.prompt).toEqual(whole.messages.slice(0, line.prompt.length));
        expect(line.completion).toEqual([whole.messages[line.prompt.length]]);
      }
    }
  });
});

describe('llama-factory dataset_info.json', () => {
  it('merges into an existing file, keeping other entries and their order', async () => {
    const folder = freshFolder();
    await mkdir(folder, { recursive: true });
    const existing = {
      alpaca_en_demo: { file_name: 'alpaca_en_demo.json' },
      shop: { stale: true },
      zeta: {},
    };
    await writeFile(join(folder, 'dataset_info.json'), JSON.stringify(existing));
    const sink = await exporter('llama-factory').open(folder, { datasetName: 'shop' });
    await sink.write(byId('qa-plain'));
    await sink.close();
    const info = JSON.parse(await readFile(join(folder, 'dataset_info.json'), 'utf8'));
    expect(Object.keys(info)).toEqual(['alpaca_en_demo', 'shop', 'zeta']);
    expect(info.shop).toMatchObject({ file_name: 'shop.jsonl', formatting: 'sharegpt' });
    expect(info.alpaca_en_demo).toEqual(existing.alpaca_en_demo);
  });

  it('refuses to open over a dataset_info.json that is not a JSON object', async () => {
    const folder = freshFolder();
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'dataset_info.json'), '{"broken": ');
    await expect(exporter('llama-factory').open(folder)).rejects.toSatisfy(HarnessAugmentError.isInstance);
    expect(await readdir(folder)).toEqual(['dataset_info.json']);
  });
});

describe('empty exports', () => {
  it('write an empty JSONL file and a parquet file with no rows', async () => {
    const jsonl = await (await exporter('openai').open(freshFolder())).close();
    expect(await readFile(jsonl.files[0] as string, 'utf8')).toBe('');
    const parquet = await (await exporter('verl').open(freshFolder())).close();
    expect(parquet.rows).toBe(0);
    expect(await parquetReadObjects({ file: await asyncBufferFromFile(parquet.files[0] as string) })).toEqual(
      [],
    );
  });
});

describe('rejects', () => {
  it('a malformed example becomes a reject with issues, never an exception', async () => {
    const sink = await exporter('trl').open(freshFolder());
    await sink.write({ id: 'no-messages', messages: [], tools: [] });
    await sink.write({
      id: 'stray-key',
      messages: [{ role: 'user', content: 'hi', weight: 1 }],
      tools: [],
    } as never);
    const summary = await sink.close();
    expect(summary.rows).toBe(0);
    expect(summary.rejects?.map((reject) => [reject.id, reject.issues[0]?.code])).toEqual([
      ['no-messages', 'invalid_example'],
      ['stray-key', 'invalid_example'],
    ]);
    expect(() => toTrlRow({ id: 'x', messages: [], tools: [] })).toThrow(HarnessAugmentError);
  });

  it('sharegpt: a late system message, text beside calls, a trailing human turn and an empty reply', () => {
    const late = byId('qa-plain');
    late.messages.push({ role: 'system', content: 'late' }, { role: 'user', content: 'and?' });
    expect(codes(safeToSharegptRow(late))).toEqual(['sharegpt_system_position', 'sharegpt_alternation']);

    const chatty = byId('parallel-tools-zh');
    const call = chatty.messages[2];
    if (call?.role === 'assistant') call.content = 'Let me check.';
    expect(codes(safeToSharegptRow(chatty))).toEqual(['sharegpt_call_with_text']);

    const empty = byId('qa-plain');
    empty.messages[2] = { role: 'assistant', content: null };
    expect(codes(safeToSharegptRow(empty))).toEqual(['sharegpt_empty_turn', 'sharegpt_alternation']);

    const silent = byId('qa-plain');
    silent.messages[2] = { role: 'assistant', content: '', hsa: { event: 'hook_blocked', hook: 'spam' } };
    const blocked = safeToSharegptRow(silent);
    expect(blocked.success && blocked.data.conversations[1]).toEqual({ from: 'gpt', value: '' });

    const systemOnly: TrainingExample = { id: 's', messages: [{ role: 'system', content: 'x' }], tools: [] };
    expect(codes(safeToSharegptRow(systemOnly))).toEqual(['sharegpt_empty']);
  });

  it('sharegpt: parallel results as a JSON array when asked', () => {
    const result = safeToSharegptRow(byId('parallel-tools-zh'), { parallelResults: 'json-array' });
    if (!result.success) throw new Error('expected a row');
    const observation = result.data.conversations[2];
    expect(observation?.from).toBe('observation');
    expect(JSON.parse(observation?.value ?? '')).toHaveLength(2);
  });

  it('openai: unmatched and unanswered tool messages, bad names, parallel calls when forbidden', () => {
    const unmatched = byId('skill-load-hook-retry');
    const toolMessage = unmatched.messages[3];
    if (toolMessage?.role === 'tool') toolMessage.tool_call_id = 'call_nobody';
    expect(codes(safeToOpenAIRow(unmatched))).toEqual([
      'openai_unmatched_tool_message',
      'openai_unanswered_tool_call',
    ]);

    const renamed = byId('skill-load-hook-retry');
    const first = renamed.tools[0];
    if (first) first.function.name = 'load skill';
    expect(codes(safeToOpenAIRow(renamed))).toEqual(['openai_function_name']);

    expect(codes(safeToOpenAIRow(byId('parallel-tools-zh'), { parallelToolCalls: false }))).toEqual([
      'openai_parallel_calls',
    ]);
    const allowed = safeToOpenAIRow(byId('parallel-tools-zh'), { parallelToolCalls: true });
    expect(allowed.success && allowed.data.parallel_tool_calls).toBe(true);

    const userOnly: TrainingExample = { id: 'u', messages: [{ role: 'user', content: 'hi' }], tools: [] };
    const noAssistant = safeToOpenAIRow(userOnly);
    expect(codes(noAssistant)).toEqual(['openai_no_assistant']);

    const nullReply = byId('qa-plain');
    nullReply.messages[2] = { role: 'assistant', content: null };
    expect(codes(safeToOpenAIRow(nullReply))).toEqual(['openai_empty_assistant']);

    const plain = safeToOpenAIRow({ ...byId('qa-plain'), tools: [] });
    expect(plain.success && 'tools' in plain.data).toBe(false);
  });
});
