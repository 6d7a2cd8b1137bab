// The chat-template table: an export is for the templates whose rules its options meet, never for one that
// cannot carry tool calls; an exporter declared (`families`) for a template it cannot carry calls to is
// refused at `open` with a usage error naming the option to change.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPipelineDependencies } from '../../../src/adapters/pipeline-dependencies.js';
import {
  chatTemplateRules,
  type ExportShape,
  templateProblem,
  templatesFor,
  trainerExporters,
} from '../../../src/adapters/trainer/index.js';
import { builtinRegistry } from '../../../src/cli/operators-registry.js';
import { HarnessAugmentError } from '../../../src/harness/issues.js';
import { parsePipelineConfig } from '../../../src/pipeline/config.js';
import { runPipeline } from '../../../src/pipeline/run-pipeline.js';
import { createLivestreamScenario } from '../../../src/scenarios/livestream/index.js';
import { projectRoot } from '../../support/run-cli.js';

const shapes = fc.record<ExportShape>({
  argumentsEncoding: fc.constantFrom('object', 'string'),
  parallelCalls: fc.constantFrom('keep', 'split'),
  toolCallContent: fc.constantFrom('empty', 'null', 'omit'),
  toolCallText: fc.constantFrom('none', 'lfm2'),
  callIds: fc.constantFrom('keep', 'mistral'),
});

describe('chat-template table', () => {
  it('property: an export is for exactly the templates whose needs it meets, never one that cannot carry calls', () => {
    fc.assert(
      fc.property(shapes, (shape) => {
        const fitting = templatesFor(shape);
        for (const [name, rule] of chatTemplateRules) {
          const meets = Object.entries(rule.needs).every(
            ([key, value]) => shape[key as keyof ExportShape] === value,
          );
          expect(fitting.includes(name), name).toBe(rule.cannot === undefined && meets);
          if (!fitting.includes(name))
            expect(templateProblem(name, shape)).toMatch(new RegExp(`^${name} \\(`));
        }
      }),
      { seed: 11, numRuns: 100 },
    );
  });

  it('the templates TRL ships that drop or refuse tool calls are in the table as such', () => {
    for (const name of [
      'llama3',
      'phi3',
      'phi3_5',
      'qwen2_5_vl',
      'cohere',
      'gemma',
      'gemma3',
      'idefics3',
      'llava_next',
    ])
      expect(chatTemplateRules.get(name)?.cannot, name).toBeDefined();
  });
});

describe('exporters refuse a declared family they cannot carry tool calls to', () => {
  const folder = () => mkdtempSync(join(tmpdir(), 'hsa-families-'));
  const refused = async (format: string, options: Record<string, unknown>) => {
    const exporter = trainerExporters[format];
    if (!exporter) throw new Error(`no exporter ${format}`);
    const error = await exporter.open(folder(), options).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(HarnessAugmentError.isInstance(error), String(error)).toBe(true);
    expect((error as HarnessAugmentError).kind).toBe('usage');
    return (error as Error).message;
  };

  it('a family whose template drops or refuses calls, whatever the options', async () => {
    expect(await refused('trl', { families: ['llama3'] })).toMatch(
      /^trl export: families: llama3 \(Llama 3\) cannot carry tool calls: its template renders an assistant message that calls tools as an empty turn/,
    );
    expect(await refused('verl', { families: ['gemma3'] })).toMatch(
      /gemma3 \(Gemma 3\) cannot carry tool calls/,
    );
    expect(await refused('axolotl', { families: ['phi3_5'] })).toMatch(
      /phi3_5 \(Phi-3.5\) cannot carry tool calls/,
    );
  });

  it('a family the options miss, with the option to set; an unknown name with the known ones', async () => {
    expect(await refused('axolotl', { families: ['llama3_1'] })).toMatch(
      /llama3_1 \(Llama 3.1\) needs parallelCalls: split \(this export writes parallelCalls: keep\)/,
    );
    expect(await refused('trl', { families: ['mistral'] })).toMatch(
      /mistral \(Mistral\) needs callIds: mistral/,
    );
    expect(await refused('trl', { families: ['llama-3'] })).toMatch(
      /llama-3: not a chat template this library knows/,
    );
    const sink = await trainerExporters.axolotl?.open(folder(), {
      families: ['llama3_1'],
      parallelCalls: 'split',
    });
    expect((await sink?.close())?.templates).toEqual(['llama3_1']);
  });
});

describe('a pipeline declared for a family its exports cannot carry calls to', () => {
  it('is refused before any work: a usage error, nothing written', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'hsa-families-pipeline-')), 'out');
    const config = parsePipelineConfig({
      harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
      inputs: { simulate: { scenario: 'livestream', episodes: 2, seed: 'families' } },
      exports: ['trl', { axolotl: { families: ['llama3_1'] } }],
      out,
    });
    const dependencies = buildPipelineDependencies(config, {
      registry: await builtinRegistry(),
      scenario: createLivestreamScenario(),
    });
    const error = await runPipeline(config, dependencies).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(HarnessAugmentError.isInstance(error) && (error as HarnessAugmentError).kind).toBe('usage');
    expect(String(error)).toMatch(
      /axolotl export: families: llama3_1 \(Llama 3.1\) needs parallelCalls: split/,
    );
    expect(existsSync(out)).toBe(false);
  });
});
