// What the pipeline does when things go wrong around it: an edited policy file, a lost output file, a
// teacher that fails for good.
import { appendFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { builtinRegistry } from '../../src/cli/operators-registry.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import type { Teacher } from '../../src/pipeline/teacher.js';
import { createLivestreamScenario } from '../../src/scenarios/livestream/index.js';
import { projectRoot } from '../support/run-cli.js';

const scenario = createLivestreamScenario();

const registry = await builtinRegistry();

async function setup(policy: string) {
  const root = await mkdtemp(join(tmpdir(), 'hsa-robust-'));
  const policyFile = join(root, 'policy.yaml');
  await writeFile(policyFile, policy);
  const config = parsePipelineConfig({
    harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
    inputs: { simulate: { scenario: 'livestream', episodes: 4, seed: 'robust' } },
    augment: { policy: policyFile, variants: 1, includeOriginal: false },
    exports: [],
    out: join(root, 'out'),
  });
  return {
    root,
    policyFile,
    config,
    dependencies: buildPipelineDependencies(config, { registry, scenario }),
  };
}

const renameTools = 'dimensions:\n  tools:\n    probability: 1\n    operators: [tools/rename]\n';

describe('pipeline robustness', () => {
  it('refuses to resume a run whose policy file changed since', async () => {
    const { policyFile, config, dependencies } = await setup(renameTools);
    await runPipeline(config, dependencies);
    await writeFile(
      policyFile,
      'dimensions:\n  tools:\n    probability: 1\n    operators: [tools/rename-parameters]\n',
    );
    await expect(runPipeline(config, dependencies, { resume: true })).rejects.toThrow(
      /another configuration or input/,
    );
  });

  it('refuses to resume when an output file is shorter than its checkpoint', async () => {
    const { config, dependencies } = await setup(renameTools);
    await runPipeline(config, dependencies);
    const checkpoint = join(config.out, 'checkpoint.json');
    const state = JSON.parse(await readFile(checkpoint, 'utf8'));
    await writeFile(checkpoint, JSON.stringify({ ...state, complete: false, units: 2 }));
    await writeFile(join(config.out, 'examples.jsonl'), '');
    await expect(runPipeline(config, dependencies, { resume: true })).rejects.toThrow(
      /less than the \d+ its checkpoint records/,
    );
  });

  it('turns a teacher that fails for good into reject lines, not a failed run', async () => {
    const { config, dependencies } = await setup(renameTools);
    const failing: Teacher = {
      name: 'flaky',
      exact: false,
      async generate() {
        throw new Error('endpoint out of retries');
      },
    };
    const manifest = await runPipeline(config, {
      ...dependencies,
      teachers: { exact: failing, regenerate: failing },
    });
    expect(manifest.counts).toMatchObject({
      units: 4,
      examples: 0,
      rejected: 4,
      byReason: { teacher_error: 4 },
    });
    const rejects = (await readFile(join(config.out, 'rejects.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rejects[0]).toMatchObject({
      reason: 'teacher_error',
      stage: 'teacher',
      details: ['endpoint out of retries'],
    });
  });

  it('resumes after torn writes to the rejects file too', async () => {
    const { config, dependencies } = await setup(renameTools);
    await runPipeline(config, dependencies);
    const whole = await readFile(join(config.out, 'examples.jsonl'), 'utf8');
    const checkpoint = join(config.out, 'checkpoint.json');
    const state = JSON.parse(await readFile(checkpoint, 'utf8'));
    await writeFile(checkpoint, JSON.stringify({ ...state, complete: false }));
    await appendFile(join(config.out, 'rejects.jsonl'), '{"id":"torn');
    await runPipeline(config, dependencies, { resume: true });
    expect(await readFile(join(config.out, 'examples.jsonl'), 'utf8')).toBe(whole);
    expect(await readFile(join(config.out, 'rejects.jsonl'), 'utf8')).toBe('');
  });
});
