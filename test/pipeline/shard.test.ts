// Shards of a pipeline run together hold exactly the unsharded run's examples, byte for byte per line.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { builtinRegistry } from '../../src/cli/operators-registry.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import { createLivestreamScenario } from '../../src/scenarios/livestream/index.js';
import { projectRoot } from '../support/run-cli.js';

const scenario = createLivestreamScenario();

const lines = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

describe('pipeline shards', () => {
  it('the union of --shard 0/3, 1/3 and 2/3 is the unsharded run', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hsa-shard-'));
    const registry = await builtinRegistry();
    const run = async (out: string, shard?: { index: number; count: number }) => {
      const config = parsePipelineConfig({
        harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
        inputs: { simulate: { scenario: 'livestream', episodes: 12, seed: 'shards' } },
        augment: { policy: 'hat', variants: 2 },
        exports: [],
        out: join(root, out),
      });
      return runPipeline(
        config,
        buildPipelineDependencies(config, { registry, scenario }),
        shard ? { shard } : {},
      );
    };
    const whole = await run('whole');
    const parts = await Promise.all([0, 1, 2].map((index) => run(`part-${index}`, { index, count: 3 })));
    expect(parts.map((manifest) => manifest.counts.tasks)).toEqual([4, 4, 4]);
    const union = (
      await Promise.all([0, 1, 2].map((index) => lines(join(root, `part-${index}`, 'examples.jsonl'))))
    ).flat();
    expect(union.sort()).toEqual((await lines(join(root, 'whole', 'examples.jsonl'))).sort());
    // Each part's sidecar holds the harnesses its examples name; together, the whole run's, each once.
    const sidecars = (
      await Promise.all([0, 1, 2].map((index) => lines(join(root, `part-${index}`, 'variants.jsonl'))))
    ).flat();
    expect([...new Set(sidecars)].sort()).toEqual(
      (await lines(join(root, 'whole', 'variants.jsonl'))).sort(),
    );
    expect(parts.reduce((sum, manifest) => sum + manifest.counts.examples, 0)).toBe(whole.counts.examples);
  }, 60_000);
});

describe('pipeline inputs across shards', () => {
  it('rejects a repeated id in whichever shard it falls, as the unsharded run does', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hsa-dup-'));
    const fixture = (
      await readFile(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8')
    ).split('\n');
    const file = join(root, 'tasks.jsonl');
    await writeFile(file, `${[fixture[0], fixture[1], fixture[0], fixture[2]].join('\n')}\n`);
    const registry = await builtinRegistry();
    const run = async (out: string, shard?: { index: number; count: number }) => {
      const config = parsePipelineConfig({
        harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
        inputs: { trajectories: file },
        augment: { policy: 'identity', variants: 0 },
        exports: [],
        out: join(root, out),
      });
      return runPipeline(
        config,
        buildPipelineDependencies(config, { registry, scenario }),
        shard ? { shard } : {},
      );
    };
    const whole = await run('whole');
    expect(whole.counts).toMatchObject({ examples: 3, rejected: 1, byReason: { duplicate_id: 1 } });
    const parts = await Promise.all([0, 1].map((index) => run(`part-${index}`, { index, count: 2 })));
    expect(parts.reduce((sum, manifest) => sum + manifest.counts.examples, 0)).toBe(3);
    expect(parts.reduce((sum, manifest) => sum + (manifest.counts.byReason.duplicate_id ?? 0), 0)).toBe(1);
  });
});
