// The pipeline configuration: a bad file fails with issues that name the file and the path of the problem,
// defaults are filled in, and `loadPipelineConfig` resolves relative paths against the file's own folder.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatIssue, HarnessAugmentError } from '../../src/harness/issues.js';
import {
  exportsOf,
  exportTarget,
  loadPipelineConfig,
  parsePipelineConfig,
} from '../../src/pipeline/config.js';

const minimal = { harness: 'harness.yaml', inputs: { trajectories: 'trajectories.jsonl' } };

/** The error `parsePipelineConfig` throws for `input`, as formatted issue lines. */
function problems(input: unknown): { error: HarnessAugmentError; lines: string[] } {
  try {
    parsePipelineConfig(input, 'pipeline.yaml');
  } catch (error) {
    if (!HarnessAugmentError.isInstance(error)) throw error;
    return { error, lines: error.issues.map((issue) => formatIssue(issue)) };
  }
  throw new Error('expected the configuration to be refused');
}

describe('parsePipelineConfig', () => {
  it('fills in the defaults', () => {
    expect(parsePipelineConfig(minimal)).toEqual({
      ...minimal,
      seed: '0',
      augment: { policy: 'hat', variants: 4, includeOriginal: true, pool: 256, threads: 1 },
      teacher: { exact: 'replay', regenerate: 'oracle' },
      judge: { rules: { minAccuracy: 1, minEffectiveness: 0.5 } },
      collapse: { keepShare: 0.1 },
      exports: ['trl'],
      out: 'out/pipeline',
      concurrency: 8,
    });
    const judged = parsePipelineConfig({
      ...minimal,
      judge: { model: { endpoint: { baseURL: 'http://127.0.0.1:8000/v1', model: 'judge' } } },
    });
    expect(judged.judge.model).toEqual({
      endpoint: { baseURL: 'http://127.0.0.1:8000/v1', model: 'judge' },
      k: 3,
    });
  });

  it('accepts the other input kind and export entries with options', () => {
    const config = parsePipelineConfig({
      harness: 'h.yaml',
      inputs: { simulate: { scenario: 'livestream', episodes: 12, seed: 's' } },
      teacher: { exact: 'oracle' },
      exports: ['axolotl', { trl: { argumentsEncoding: 'object' } }, { verl: null }],
    });
    expect(config.inputs).toEqual({ simulate: { scenario: 'livestream', episodes: 12, seed: 's' } });
    expect(exportsOf(config)).toEqual([
      ['axolotl', {}],
      ['trl', { argumentsEncoding: 'object' }],
      ['verl', {}],
    ]);
  });

  it.each([
    ['an unknown key', { ...minimal, concurency: 16 }, 'pipeline.yaml $: unknown key(s): "concurency"'],
    [
      'an unknown nested key',
      { ...minimal, augment: { variant: 2 } },
      'pipeline.yaml $.augment: unknown key(s): "variant"',
    ],
    [
      'a wrong type',
      { ...minimal, concurrency: '16' },
      'pipeline.yaml $.concurrency: Invalid input: expected number, received string',
    ],
    ['a concurrency out of range', { ...minimal, concurrency: 0 }, 'pipeline.yaml $.concurrency:'],
    ['a missing harness', { inputs: minimal.inputs }, 'pipeline.yaml $.harness: Invalid input'],
    [
      'an export entry with two formats',
      { ...minimal, exports: [{ trl: {}, axolotl: {} }] },
      'pipeline.yaml $.exports[0]: one format per entry',
    ],
    [
      'an unknown export format',
      { ...minimal, exports: ['trl', 'parquet'] },
      'pipeline.yaml $.exports[1]: expected a format (trl, axolotl, llama-factory, openai, verl) or { <format>: { options } }',
    ],
    [
      'inputs of neither kind',
      {
        harness: 'h.yaml',
        inputs: { trajectories: 't.jsonl', simulate: { scenario: 'livestream', episodes: 3 } },
      },
      'pipeline.yaml $.inputs: expected { trajectories: <file> } or { simulate: {',
    ],
    [
      'a replay teacher for regeneration',
      { ...minimal, teacher: { regenerate: 'replay' } },
      'pipeline.yaml $.teacher.regenerate: Invalid option',
    ],
    [
      'an endpoint that is not a URL',
      { ...minimal, teacher: { exact: 'openai-compatible', endpoint: { baseURL: 'localhost', model: 'm' } } },
      'pipeline.yaml $.teacher.endpoint.baseURL: Invalid URL',
    ],
  ])('refuses %s, naming the path', (_name, input, line) => {
    const { error, lines } = problems(input);
    expect(error.message).toBe('pipeline.yaml is invalid');
    expect(
      lines.some((text) => text.startsWith(line)),
      lines.join('\n'),
    ).toBe(true);
  });

  it('reports every problem at once', () => {
    const { lines } = problems({ inputs: minimal.inputs, concurrency: -1, seed: [] });
    expect(lines.map((text) => text.split(':')[0])).toEqual(
      expect.arrayContaining([
        'pipeline.yaml $.harness',
        'pipeline.yaml $.concurrency',
        'pipeline.yaml $.seed',
      ]),
    );
  });

  it('requires an endpoint for an openai-compatible teacher', () => {
    for (const teacher of [{ exact: 'openai-compatible' }, { regenerate: 'openai-compatible' }]) {
      const { error, lines } = problems({ ...minimal, teacher });
      expect(error.message).toBe(
        'pipeline.yaml: teacher.endpoint is required for an openai-compatible teacher',
      );
      expect(lines).toEqual([
        'pipeline.yaml $.teacher.endpoint: required by the openai-compatible teacher [missing_endpoint]',
      ]);
    }
    expect(() =>
      parsePipelineConfig({
        ...minimal,
        teacher: { exact: 'openai-compatible', endpoint: { baseURL: 'http://127.0.0.1:1/v1', model: 'm' } },
      }),
    ).not.toThrow();
  });

  it('requires simulated inputs for an oracle exact teacher', () => {
    const { error, lines } = problems({ ...minimal, teacher: { exact: 'oracle' } });
    expect(error.message).toBe(
      'pipeline.yaml: the oracle teacher plays simulated episodes; use inputs.simulate',
    );
    expect(lines).toEqual([
      'pipeline.yaml $.inputs: the oracle teacher needs inputs.simulate [oracle_needs_simulation]',
    ]);
    // The default regenerating teacher is the oracle: with dataset inputs it skips, it does not refuse.
    expect(parsePipelineConfig(minimal).teacher.regenerate).toBe('oracle');
  });
});

describe('loadPipelineConfig', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'hsa-pipeline-config-'));
    await mkdir(join(folder, 'configs'));
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('resolves relative paths against the configuration file’s folder', async () => {
    const file = join(folder, 'configs', 'run.yaml');
    await writeFile(
      file,
      [
        'harness: ../harness.yaml',
        'inputs:',
        '  trajectories: data/tasks.jsonl',
        'augment:',
        '  policy: policies/mine.yaml',
        'bench:',
        '  items: /abs/items.jsonl',
        '  policy: ../bench-policy.json',
        'out: out',
        '',
      ].join('\n'),
    );
    const config = await loadPipelineConfig(file);
    expect(config.harness).toBe(join(folder, 'harness.yaml'));
    expect(config.inputs).toEqual({ trajectories: join(folder, 'configs', 'data', 'tasks.jsonl') });
    expect(config.augment.policy).toBe(join(folder, 'configs', 'policies', 'mine.yaml'));
    expect(config.bench).toEqual({
      items: '/abs/items.jsonl',
      policy: join(folder, 'bench-policy.json'),
      variants: 4,
      pool: 0,
    });
    expect(config.out).toBe(join(folder, 'configs', 'out'));
  });

  it('resolves the operator modules of `operators` against the folder; an empty list is refused', async () => {
    const file = join(folder, 'configs', 'operators.yaml');
    await writeFile(
      file,
      [
        'harness: harness.yaml',
        'inputs: { trajectories: t.jsonl }',
        'operators: [ops/prefix.mjs, /abs/more.mjs]',
        '',
      ].join('\n'),
    );
    expect((await loadPipelineConfig(file)).operators).toEqual([
      join(folder, 'configs', 'ops/prefix.mjs'),
      '/abs/more.mjs',
    ]);
    expect(problems({ ...minimal, operators: [] }).lines.join('\n')).toMatch(/operators/);
  });

  it('resolves a scenario module, its trajectories and backends against the folder; a scenario name stays', async () => {
    const file = join(folder, 'configs', 'simulate.yaml');
    await writeFile(
      file,
      [
        'harness: ../harness.yaml',
        'inputs:',
        '  simulate:',
        '    scenario: scenarios/mine.ts',
        '    trajectories: data/logs.jsonl',
        '    backends: ../backends.yaml',
        '',
      ].join('\n'),
    );
    const config = await loadPipelineConfig(file);
    expect(config.inputs).toEqual({
      simulate: {
        scenario: join(folder, 'configs', 'scenarios', 'mine.ts'),
        trajectories: join(folder, 'configs', 'data', 'logs.jsonl'),
        backends: join(folder, 'backends.yaml'),
      },
    });
    await writeFile(
      file,
      'harness: h.yaml\ninputs: { simulate: { scenario: replay, trajectories: t.jsonl } }\n',
    );
    expect((await loadPipelineConfig(file)).inputs).toEqual({
      simulate: { scenario: 'replay', trajectories: join(folder, 'configs', 't.jsonl') },
    });
  });

  it('leaves preset names alone and fills the default output folder next to the file', async () => {
    const file = join(folder, 'configs', 'preset.json');
    await writeFile(
      file,
      JSON.stringify({
        harness: 'h.yaml',
        inputs: { simulate: { scenario: 'livestream', episodes: 2 } },
        augment: { policy: 'tools-only' },
      }),
    );
    const config = await loadPipelineConfig(file);
    expect(config.augment.policy).toBe('tools-only');
    expect(config.inputs).toEqual({ simulate: { scenario: 'livestream', episodes: 2 } });
    expect(config.out).toBe(join(folder, 'configs', 'out', 'pipeline'));
  });

  it('names the file and the line in its errors', async () => {
    const file = join(folder, 'configs', 'bad.yaml');
    await writeFile(
      file,
      'harness: h.yaml\ninputs:\n  trajectories: t.jsonl\nexports: [trl, {trl: {}, verl: {}}]\n',
    );
    const error = await loadPipelineConfig(file).catch((caught: unknown) => caught);
    expect(HarnessAugmentError.isInstance(error)).toBe(true);
    const issues = (error as HarnessAugmentError).issues;
    expect(issues.map((issue) => formatIssue(issue))).toEqual([
      `${file}:4 $.exports[1]: one format per entry: { trl: { … } } [custom]`,
    ]);
    await expect(loadPipelineConfig(join(folder, 'missing.yaml'))).rejects.toThrow(
      /missing\.yaml: cannot read/,
    );
  });

  it('loads the bundled example', async () => {
    const file = new URL('../../examples/pipeline/livestream.yaml', import.meta.url).pathname;
    const config = await loadPipelineConfig(file);
    expect(config.harness).toBe(new URL('../../fixtures/livestream/harness.yaml', import.meta.url).pathname);
    expect(config.bench?.items).toBe(
      new URL('../../fixtures/livestream/bench/items.jsonl', import.meta.url).pathname,
    );
    expect(exportsOf(config).map(([format, options]) => exportTarget(format, options).folder)).toEqual([
      'trl',
      'axolotl',
      'llama-factory',
      'openai',
      'verl',
      'trl-one-call',
      'trl-string-arguments',
      'trl-lfm2',
      'trl-mistral',
      'axolotl-one-call',
      'trl-prompt-completion',
      'trl-mistral-prompt-completion',
    ]);
  });

  it('gives each export its own folder: `folder` splits it from the exporter options; clashes are refused', () => {
    const config = parsePipelineConfig({
      harness: 'h.yaml',
      inputs: { trajectories: 't.jsonl' },
      exports: ['trl', { trl: { folder: 'trl-deepseek', argumentsEncoding: 'string' } }],
    });
    expect(exportsOf(config).map(([format, options]) => exportTarget(format, options))).toEqual([
      { folder: 'trl', options: {} },
      { folder: 'trl-deepseek', options: { argumentsEncoding: 'string' } },
    ]);
    const problems = (exports: unknown[]) => {
      try {
        parsePipelineConfig({ harness: 'h.yaml', inputs: { trajectories: 't.jsonl' }, exports });
      } catch (error) {
        return (error as HarnessAugmentError).issues.map((issue) => formatIssue(issue));
      }
      return [];
    };
    expect(problems(['trl', { trl: { argumentsEncoding: 'string' } }])).toEqual([
      expect.stringMatching(/\$\.exports\[1\]: exports 0 and 1 both write exports\/trl/),
    ]);
    expect(problems([{ trl: { folder: '../escape' } }])).toEqual([
      expect.stringMatching(/\$\.exports\[0\]\.trl\.folder: folder: a plain folder name/),
    ]);
  });
});
