// `runPipeline` with the opd and rl stages writes SFT, OPD and RL data in one run, and the manifest covers
// all three (counts, and the size and sha256 of every file each stage wrote); a config with rl but no
// scenario to play is refused with a clear message.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { createRegistry } from '../../src/augment/registry.js';
import { loadPipelineConfig, parsePipelineConfig } from '../../src/pipeline/config.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import { createLivestreamScenario } from '../../src/scenarios/livestream/index.js';
import { projectRoot } from '../support/run-cli.js';

const scratch = await mkdtemp(join(tmpdir(), 'hsa-full-loop-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));
const registry = createRegistry(builtinOperators);

const configFor = (out: string) =>
  parsePipelineConfig({
    harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
    inputs: { simulate: { scenario: 'livestream', episodes: 4 } },
    seed: 7,
    augment: { variants: 1 },
    exports: ['trl'],
    opd: { prompts: join(projectRoot, 'fixtures/opd/prompts.jsonl'), teacher: 'Qwen/Qwen3-4B' },
    rl: { episodes: 4, groupSize: 4, formats: ['trl', 'verl', 'openrlhf'] },
    out,
  });

describe('the full loop in one pipeline run', () => {
  it('writes SFT, OPD and RL data with a manifest covering all three', async () => {
    const out = join(scratch, 'run');
    const config = configFor(out);
    const manifest = await runPipeline(
      config,
      buildPipelineDependencies(config, { registry, scenario: createLivestreamScenario() }),
    );
    expect(manifest.counts.examples).toBe(8);
    expect(manifest.opd).toMatchObject({
      teacher: 'Qwen/Qwen3-4B',
      rows: { distillation: 52, gkd: 52 },
      rejected: 0,
    });
    expect(manifest.rl).toMatchObject({
      scenario: 'livestream',
      groupSize: 4,
      counts: { groups: 4, rows: 4 },
    });
    expect(manifest.rl!.formats.map((entry) => entry.format)).toEqual(['trl', 'verl', 'openrlhf']);
    const files = [
      ...manifest.opd!.files,
      ...manifest.rl!.files,
      ...manifest.rl!.formats.flatMap((entry) => entry.files),
    ].map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'opd/distillation.jsonl',
        'opd/gkd.jsonl',
        'opd/opd.yaml',
        'rl/rows.jsonl',
        'rl/trl/grpo.jsonl',
        'rl/trl/environments.json',
        'rl/verl/train.json',
        'rl/verl/agent_loop_config.yaml',
        'rl/verl/tools/original.yaml',
        'rl/verl/interaction_config.yaml',
        'rl/openrlhf/prompts.jsonl',
      ]),
    );
    for (const file of [...manifest.opd!.files, ...manifest.rl!.formats.flatMap((entry) => entry.files)]) {
      const bytes = await readFile(join(out, file.path));
      expect(file.sha256).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    }
    const written = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
    expect(written.rl.counts).toEqual(manifest.rl!.counts);
  }, 120_000);

  it('refuses the rl stage without a scenario to play', async () => {
    const config = configFor(join(scratch, 'no-scenario'));
    config.inputs = { trajectories: join(projectRoot, 'fixtures/livestream/trajectories.jsonl') };
    config.augment.variants = 0;
    config.opd = undefined;
    const dependencies = buildPipelineDependencies(config, { registry });
    await expect(runPipeline(config, dependencies)).rejects.toThrow('rl: the RL stage plays a scenario');
  }, 120_000);

  it('bundles example configs of the whole loop for both fixtures, every path in them present', async () => {
    for (const name of ['livestream', 'helpdesk']) {
      const config = await loadPipelineConfig(join(projectRoot, `examples/pipeline/${name}.yaml`));
      expect(config.opd?.teacher, name).toBeDefined();
      expect(config.rl?.formats, name).toEqual(['trl', 'verl', 'openrlhf']);
      for (const file of [config.harness, config.opd!.prompts]) expect(existsSync(file), file).toBe(true);
    }
  });
});
