// `hsa check-exports` on a small pipeline output, with the project's constraint templates
// (fixtures/templates: Qwen, Llama, DeepSeek, gpt-oss families): what passes, what fails, and why.
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPipelineDependencies } from '../../../src/adapters/pipeline-dependencies.js';
import {
  alternationProblem,
  checkExports,
  type ExportCheckResult,
} from '../../../src/adapters/trainer/check-exports.js';
import { builtinRegistry } from '../../../src/cli/operators-registry.js';
import { parsePipelineConfig } from '../../../src/pipeline/config.js';
import { runPipeline } from '../../../src/pipeline/run-pipeline.js';
import { createLivestreamScenario } from '../../../src/scenarios/livestream/index.js';
import { projectRoot } from '../../support/run-cli.js';
import { hsa } from '../../support/run-hsa.js';

const registry = await builtinRegistry();
const templateNames = ['qwen', 'llama', 'deepseek', 'gpt-oss'];
const templateFiles = templateNames.map((name) => join(projectRoot, 'fixtures/templates', `${name}.jinja`));
const templates = templateNames.map((name, index) => ({
  name,
  source: readFileSync(templateFiles[index] as string, 'utf8'),
}));

async function pipelineOutput(exports: unknown[]) {
  const root = await mkdtemp(join(tmpdir(), 'hsa-check-exports-'));
  const config = parsePipelineConfig({
    harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
    inputs: { simulate: { scenario: 'livestream', episodes: 12, seed: 'check' } },
    augment: { policy: 'hat', variants: 1 },
    collapse: { keepShare: 1 },
    exports,
    out: join(root, 'out'),
  });
  await runPipeline(
    config,
    buildPipelineDependencies(config, { registry, scenario: createLivestreamScenario() }),
  );
  return config.out;
}

const find = (results: ExportCheckResult[], format: string, check: string) =>
  results.find((result) => result.format === format && result.check === check) as ExportCheckResult;

let objectResults: ExportCheckResult[];
let stringResults: ExportCheckResult[];
let objectOut: string;

beforeAll(async () => {
  objectOut = await pipelineOutput(['trl', 'axolotl', 'openai']);
  objectResults = await checkExports(objectOut, { templates });
  stringResults = await checkExports(await pipelineOutput([{ trl: { argumentsEncoding: 'string' } }]), {
    templates,
  });
}, 300_000);

describe('check-exports', () => {
  it('every format passes its structural rules (tools decoding, role alternation)', () => {
    for (const format of ['trl', 'axolotl', 'openai']) {
      const result = find(objectResults, format, 'structure');
      expect(result.rows).toBeGreaterThan(0);
      expect(result.failed, JSON.stringify(result.reasons)).toBe(0);
    }
  });

  it('arguments as mappings render through the Qwen template; DeepSeek needs strings, and says so', () => {
    for (const format of ['trl', 'axolotl']) {
      expect(find(objectResults, format, 'qwen').failed).toBe(0);
      const deepseek = find(objectResults, format, 'deepseek');
      expect(deepseek.failed).toBe(deepseek.rows);
      expect(deepseek.reasons[0]?.reason).toMatch(/arguments must be JSON text \(a string\)/);
    }
    expect(find(stringResults, 'trl', 'deepseek').failed).toBe(0);
    expect(find(stringResults, 'trl', 'qwen').reasons[0]?.reason).toMatch(/must be a mapping, not a string/);
  });

  it('no row carries content: null for gpt-oss; parallel calls are the only thing Llama and gpt-oss refuse', () => {
    for (const format of ['trl', 'axolotl']) {
      for (const template of ['gpt-oss', 'llama']) {
        const result = find(objectResults, format, template);
        expect(result.reasons.map((reason) => reason.reason)).toEqual(
          result.failed === 0
            ? []
            : [expect.stringMatching(/one tool call per assistant message|single tool-calls at once/)],
        );
      }
    }
  });

  it('role alternation: the rules it knows', () => {
    expect(alternationProblem([{ role: 'user' }, { role: 'user' }, { role: 'assistant' }])).toMatch(
      /two user messages/,
    );
    expect(alternationProblem([{ role: 'user' }, { role: 'tool' }, { role: 'assistant' }])).toMatch(
      /answers no call/,
    );
    expect(alternationProblem([{ role: 'user' }, { role: 'assistant', tool_calls: [{}] }])).toBeUndefined();
    expect(
      alternationProblem([{ role: 'user' }, { role: 'assistant', tool_calls: [{}] }, { role: 'user' }]),
    ).toMatch(/unanswered/);
  });

  it('hsa check-exports prints a report per format and template, as JSON too, and exits 1 when a row fails', async () => {
    const run = await hsa(['check-exports', objectOut, '--template', ...templateFiles, '--json']);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { results: ExportCheckResult[] };
    expect(report.results.map((result) => `${result.format}/${result.check}`)).toEqual([
      'axolotl/structure',
      ...templateNames.map((name) => `axolotl/${name}`),
      'openai/structure',
      'trl/structure',
      ...templateNames.map((name) => `trl/${name}`),
    ]);
    const qwenOnly = await hsa([
      'check-exports',
      join(objectOut, 'exports', 'trl'),
      '--template',
      templateFiles[0] as string,
    ]);
    expect(qwenOnly.status, qwenOnly.stdout).toBe(0);
    expect(qwenOnly.stdout).toMatch(/^trl {6}qwen {9}(\d+)\/\1 rows pass/m);
  });
});
