// The queued SFT stage with the in-memory job queue: the merged output equals the in-process run's, file
// for file and byte for byte; adding the same jobs again adds none; a worker whose files give another run
// hash fails the job with the reason.
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { builtinRegistry } from '../../src/cli/operators-registry.js';
import { type PipelineConfig, parsePipelineConfig } from '../../src/pipeline/config.js';
import { unitJobId } from '../../src/pipeline/job-queue.js';
import { createMemoryJobQueue } from '../../src/pipeline/memory-job-queue.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import { createUnitProcessor } from '../../src/pipeline/unit-processor.js';
import { createLivestreamScenario } from '../../src/scenarios/livestream/index.js';
import { projectRoot } from '../support/run-cli.js';

async function digest(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const result: Record<string, string> = {};
  for (const entry of entries.filter((item) => item.isFile())) {
    const file = join(entry.parentPath, entry.name);
    result[relative(dir, file)] = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  }
  return result;
}

const scenario = createLivestreamScenario();

const cases: Array<{ name: string; config: (root: string) => Record<string, unknown> }> = [
  {
    name: 'livestream, simulated episodes',
    config: () => ({
      harness: join(projectRoot, 'fixtures/livestream/harness.yaml'),
      inputs: { simulate: { scenario: 'livestream', episodes: 6, seed: 'queue' } },
      augment: { policy: 'hat', variants: 2 },
      exports: ['trl', 'openai'],
    }),
  },
  {
    name: 'helpdesk, gold trajectories',
    config: (root) => ({
      harness: join(projectRoot, 'fixtures/helpdesk/harness.yaml'),
      inputs: { trajectories: join(root, 'tasks.jsonl') },
      augment: { policy: 'hat', variants: 2 },
      exports: ['trl', 'llama-factory'],
    }),
  },
];

describe('the queued SFT stage (in-memory queue)', () => {
  for (const { name, config: configOf } of cases)
    it(`${name}: the merged output equals the in-process run byte for byte`, async () => {
      const root = await mkdtemp(join(tmpdir(), 'hsa-queued-'));
      const registry = await builtinRegistry();
      // The first 10 helpdesk tasks and a line that is not JSON (a reject unit).
      const helpdesk = await readFile(join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl'), 'utf8');
      await writeFile(join(root, 'tasks.jsonl'), `${helpdesk.split('\n').slice(0, 10).join('\n')}\n{oops\n`);
      const configAt = (out: string) =>
        parsePipelineConfig({ ...configOf(root), seed: 11, out: join(root, out), concurrency: 3 });
      const dependenciesOf = (config: PipelineConfig) =>
        buildPipelineDependencies(config, {
          registry,
          ...('simulate' in config.inputs ? { scenario } : {}),
        });
      const single = configAt('single');
      const expected = await runPipeline(single, dependenciesOf(single));

      const queued = configAt('queued');
      const processor = createUnitProcessor({ dependencies: async (config) => dependenciesOf(config) });
      const queue = createMemoryJobQueue({ process: processor.process, concurrency: 2 });
      const manifest = await runPipeline(queued, dependenciesOf(queued), { queue });
      expect(manifest.counts).toEqual(expected.counts);
      expect(queue.accepted).toBe(expected.counts.units);
      expect(await digest(join(root, 'queued'))).toEqual(await digest(join(root, 'single')));
      await processor.close();
    }, 120_000);

  it('adds a job once, whatever the number of adds', async () => {
    const queue = createMemoryJobQueue({
      process: async (job) => ({ unit: job.unit, firstOfTask: true }),
    });
    const job = { version: 1 as const, runHash: `sha256:${'a'.repeat(64)}`, unit: 3, config: {} };
    await queue.add([job, job]);
    await queue.add([job]);
    expect(queue.accepted).toBe(1);
    expect(await queue.result(job.runHash, 3)).toEqual({ unit: 3, firstOfTask: true });
    expect(unitJobId(job.runHash, 3)).toBe(`${'a'.repeat(64)}-3`);
  });

  it('the same unit of the same run for two output folders is two jobs, each with its own result', async () => {
    const queue = createMemoryJobQueue({
      process: async (job) => ({ unit: job.unit, firstOfTask: job.folder === '0123456789abcdef' }),
    });
    const job = { version: 1 as const, runHash: `sha256:${'a'.repeat(64)}`, unit: 3, config: {} };
    await queue.add([
      { ...job, folder: '0123456789abcdef' },
      { ...job, folder: 'fedcba9876543210' },
    ]);
    expect(queue.accepted).toBe(2);
    expect(await queue.result(job.runHash, 3, { folder: '0123456789abcdef' })).toEqual({
      unit: 3,
      firstOfTask: true,
    });
    await queue.forget?.(job.runHash, [3], { folder: '0123456789abcdef' });
    expect(await queue.result(job.runHash, 3, { folder: 'fedcba9876543210' })).toEqual({
      unit: 3,
      firstOfTask: false,
    });
    expect(unitJobId(job.runHash, 3, '0123456789abcdef')).toBe(`${'a'.repeat(64)}-0123456789abcdef-3`);
  });

  it('a worker whose files give another run hash fails the job and names both hashes', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hsa-queued-hash-'));
    const registry = await builtinRegistry();
    const tasks = join(root, 'tasks.jsonl');
    await copyFile(join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl'), tasks);
    const config = parsePipelineConfig({
      harness: join(projectRoot, 'fixtures/helpdesk/harness.yaml'),
      inputs: { trajectories: tasks },
      augment: { policy: 'hat', variants: 1 },
      exports: [],
      out: join(root, 'out'),
    });
    const dependencies = buildPipelineDependencies(config, { registry });
    const processor = createUnitProcessor({ dependencies: async () => dependencies });
    // The coordinator's run hash is that of the file as it was; this "machine" holds another input.
    const { prepareSftRun } = await import('../../src/pipeline/sft-run.js');
    const { runHash } = await prepareSftRun(config, dependencies);
    await writeFile(tasks, (await readFile(tasks, 'utf8')).split('\n').slice(1).join('\n'));
    const job = {
      version: 1 as const,
      runHash,
      unit: 0,
      config: config as unknown as Record<string, unknown>,
    };
    await expect(processor.process(job)).rejects.toThrow(
      new RegExp(`belongs to run ${runHash}, but this worker's files and version give sha256:[0-9a-f]{64}`),
    );
    await expect(processor.process({ ...job, unit: 1 })).rejects.toThrow(/run_hash|belongs to run/);
    await expect(processor.process({ ...job, runHash: 'nope' })).rejects.toThrow(/not an hsa unit job/);
  });
});
