// The export stage hands each example to every sink; the example is frozen whole first, so the trainer
// adapters check it with the schema once for all sinks, and the rows are the same bytes as when every sink
// checks its own copy. An example that is not frozen whole is checked on every call, so a change made to
// it between two calls is seen.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { prepareExample, TrainingExampleSchema } from '../../../src/adapters/trainer/export-messages.js';
import {
  safeToSharegptRow,
  safeToTrlRow,
  type TrainingExample,
  trainerExporters,
} from '../../../src/adapters/trainer/index.js';
import { safeToVerlRow } from '../../../src/adapters/trainer/to-verl-row.js';
import { parsePipelineConfig } from '../../../src/pipeline/config.js';
import { runExportStage } from '../../../src/pipeline/export-stage.js';
import { freezeWhole, isFrozenWhole } from '../../../src/pipeline/frozen-data.js';
import { projectRoot } from '../../support/run-cli.js';

const scratch = await mkdtemp(join(tmpdir(), 'hsa-prepare-once-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const examples = JSON.parse(
  readFileSync(join(projectRoot, 'test/golden/exporters/examples.json'), 'utf8'),
) as TrainingExample[];

/** Every format, and the TRL variants npm start writes. */
const exports = [
  { trl: { argumentsEncoding: 'object' } },
  'axolotl',
  { 'llama-factory': { datasetName: 'shop' } },
  'openai',
  'verl',
  { trl: { folder: 'trl-one-call', parallelCalls: 'split' } },
  { trl: { folder: 'trl-string-arguments', argumentsEncoding: 'string', toolCallContent: 'null' } },
  { trl: { folder: 'trl-lfm2', toolCallText: 'lfm2' } },
  { trl: { folder: 'trl-mistral', callIds: 'mistral' } },
];

async function exportStage(out: string) {
  await writeFile(
    join(out, 'examples.jsonl'),
    examples.map((example) => `${JSON.stringify(example)}\n`).join(''),
  );
  const config = parsePipelineConfig({
    harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
    inputs: { trajectories: join(out, 'examples.jsonl') },
    exports,
    out,
  });
  const checks = vi.spyOn(TrainingExampleSchema, 'safeParse');
  const entries = await runExportStage(config, trainerExporters as never);
  const checked = checks.mock.calls.length;
  checks.mockRestore();
  return { entries, checked };
}

describe('one check per example for all sinks', () => {
  it('the export stage checks each example once, whatever the number of sinks', async () => {
    const out = await mkdtemp(join(scratch, 'stage-'));
    const { entries, checked } = await exportStage(out);
    expect(entries).toHaveLength(exports.length);
    expect(entries.map((entry) => entry.rows + entry.rejected)).toEqual(exports.map(() => examples.length));
    expect(checked).toBe(examples.length);
  });

  it('the rows are byte for byte those of sinks that each check their own copy', async () => {
    const out = await mkdtemp(join(scratch, 'stage-'));
    const { entries } = await exportStage(out);
    const checks = vi.spyOn(TrainingExampleSchema, 'safeParse');
    for (const [index, entry] of entries.entries()) {
      const configured = exports[index] as string | Record<string, Record<string, unknown>>;
      const options = typeof configured === 'string' ? {} : { ...Object.values(configured)[0] };
      delete options.folder;
      const sink = await (trainerExporters[entry.format] as (typeof trainerExporters)['trl']).open(
        join(scratch, `own-${index}`),
        options,
      );
      for (const example of examples) await sink.write(structuredClone(example));
      const summary = await sink.close();
      expect(summary.rows).toBe(entry.rows);
      const dataFiles = entry.files.filter((file) => !file.path.startsWith('export-rejects/'));
      expect(dataFiles).toHaveLength(summary.files.length);
      for (const [at, file] of summary.files.entries())
        expect(await readFile(file)).toEqual(
          await readFile(join(out, (dataFiles[at] as { path: string }).path)),
        );
    }
    // Copies that are not frozen are each checked by every sink.
    expect(checks.mock.calls.length).toBe(examples.length * exports.length);
  });

  it('an example that is not frozen whole is checked again, so a change between calls is seen', () => {
    const example = structuredClone(examples[0]) as TrainingExample;
    expect(prepareExample(example).success).toBe(true);
    (example as { id: unknown }).id = '';
    expect(prepareExample(example).success).toBe(false);
  });

  it('a frozen example’s prepared form is shared, and frozen too', () => {
    const example = freezeWhole(structuredClone(examples[0]) as TrainingExample);
    const first = prepareExample(example);
    expect(prepareExample(example)).toBe(first);
    expect(first.success && Object.isFrozen(first.data.messages[0])).toBe(true);
    expect(() => {
      (example.messages as unknown[]).push({ role: 'user', content: 'more' });
    }).toThrow(TypeError);
  });
});

describe('the tools column', () => {
  it('is written once for all the sinks that share an example', async () => {
    const example = freezeWhole(structuredClone(examples[0]) as TrainingExample);
    const prepared = prepareExample(example);
    const tools = prepared.success ? prepared.data.tools : [];
    const stringify = vi.spyOn(JSON, 'stringify');
    const rows = [
      safeToTrlRow(example),
      safeToTrlRow(example, { argumentsEncoding: 'string' }),
      safeToSharegptRow(example),
      safeToVerlRow(example),
    ];
    const ofTools = stringify.mock.calls.filter(([value]) => value === tools).length;
    stringify.mockRestore();
    expect(ofTools).toBe(1);
    const texts = rows.map((row) => (row.success ? row.data.tools : undefined));
    expect(texts).toEqual(texts.map(() => JSON.stringify(tools)));
  });
});

describe('freezeWhole', () => {
  it('freezes JSON data to the last leaf', () => {
    const value = freezeWhole({ a: [{ b: { c: [1] } }], d: null });
    expect(isFrozenWhole(value)).toBe(true);
    expect(Object.isFrozen(value.a[0]?.b.c)).toBe(true);
  });

  it('counts nothing frozen whole that it did not freeze, or that holds other objects', () => {
    expect(isFrozenWhole(Object.freeze({ a: {} }))).toBe(false);
    const holder = { a: { map: new Map([[1, 2]]) } };
    expect(isFrozenWhole(freezeWhole(holder))).toBe(false);
    expect(Object.isFrozen(holder.a)).toBe(false);
    const cycle: Record<string, unknown> = { a: {} };
    (cycle.a as Record<string, unknown>).back = cycle;
    expect(isFrozenWhole(freezeWhole(cycle))).toBe(false);
  });
});
