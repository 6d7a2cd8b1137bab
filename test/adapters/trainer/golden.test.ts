// Golden files for every trainer exporter: the hand-written examples in test/golden/exporters/examples.json
// (plain Q&A, parallel calls with a Chinese reply, a skill load with a hook retry, a rejected attempt
// followed by a fallback, broken arguments) exported to a temporary folder, every file compared byte for
// byte. A change to what an exporter writes must update these on purpose:
// UPDATE_GOLDEN=1 npx vitest run test/adapters/trainer/golden.test.ts
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { type TrainingExample, trainerExporters } from '../../../src/adapters/trainer/index.js';
import { projectRoot } from '../../support/run-cli.js';

const folder = join(projectRoot, 'test/golden/exporters');
const update = process.env.UPDATE_GOLDEN === '1';
const examples = JSON.parse(readFileSync(join(folder, 'examples.json'), 'utf8')) as TrainingExample[];
const scratch = await mkdtemp(join(tmpdir(), 'hsa-golden-exporters-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const cases: Array<{ name: string; format: string; options?: Record<string, unknown> }> = [
  { name: 'trl', format: 'trl' },
  { name: 'trl-string-arguments', format: 'trl', options: { argumentsEncoding: 'string' } },
  { name: 'axolotl', format: 'axolotl', options: { datasetPath: 'data/axolotl/train.jsonl' } },
  // Llama 3.1 through Axolotl: one call per assistant message, declared for the family.
  {
    name: 'axolotl-one-call',
    format: 'axolotl',
    options: { parallelCalls: 'split', families: ['llama3_1'] },
  },
  // Mistral through Axolotl: 9-character call ids; a rejected attempt followed by its fallback is rejected.
  { name: 'axolotl-mistral', format: 'axolotl', options: { callIds: 'mistral', families: ['mistral'] } },
  {
    name: 'trl-mistral-prompt-completion',
    format: 'trl',
    options: { layout: 'prompt-completion', callIds: 'mistral', families: ['mistral'] },
  },
  { name: 'llama-factory', format: 'llama-factory' },
  { name: 'openai', format: 'openai' },
  { name: 'verl', format: 'verl' },
];

/** Parquet is binary: its golden file is the rows read back, as pretty JSON. */
async function goldenText(file: string): Promise<{ name: string; text: string }> {
  if (file.endsWith('.parquet')) {
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(file) });
    return { name: `${basename(file)}.json`, text: `${JSON.stringify(rows, null, 2)}\n` };
  }
  return { name: basename(file), text: await readFile(file, 'utf8') };
}

function expectGolden(file: string, text: string) {
  if (update || !existsSync(file)) {
    if (!update) {
      throw new Error(
        `no golden file ${file}; run UPDATE_GOLDEN=1 npx vitest run test/adapters/trainer/golden.test.ts`,
      );
    }
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
  }
  expect(text).toBe(readFileSync(file, 'utf8'));
}

describe('trainer exporter golden files', () => {
  for (const { name, format, options } of cases) {
    it(`${name}`, async () => {
      const exporter = trainerExporters[format];
      if (!exporter) throw new Error(`no exporter ${format}`);
      const sink = await exporter.open(join(scratch, name), options);
      for (const example of examples) await sink.write(example);
      const summary = await sink.close();
      expect(summary.rows + summary.rejected).toBe(examples.length);
      const summaryText = `${JSON.stringify({ ...summary, files: summary.files.map((file) => basename(file)) }, null, 2)}\n`;
      expectGolden(join(folder, name, 'summary.json'), summaryText);
      for (const file of summary.files) {
        const golden = await goldenText(file);
        expectGolden(join(folder, name, golden.name), golden.text);
      }
    });
  }
});
