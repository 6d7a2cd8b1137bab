// The SFT stage's augment threads (`augment.threads`): units augment in worker threads while the event
// loop sends the requests of the units already augmented, and the output is the same bytes for any
// thread count (a unit's variant depends on its seed only).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '../../src/adapters/openai/index.js';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { openAICompatibleTeacher } from '../../src/adapters/teacher/index.js';
import { loadOperatorModules } from '../../src/augment/operator-modules.js';
import { createRegistry } from '../../src/augment/registry.js';
import { builtinRegistry } from '../../src/cli/operators-registry.js';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import { startFakeOpenAIServer } from '../support/fake-openai-server.js';
import { projectRoot } from '../support/run-cli.js';

const fixture = join(projectRoot, 'fixtures/livestream');
const blockingModule = join(projectRoot, 'test/support/blocking-operator.ts');
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hsa-augment-threads-'));
});
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function tasksFile(name: string, count: number, extra: string[] = []): Promise<string> {
  const lines = (await readFile(join(fixture, 'trajectories.jsonl'), 'utf8')).split('\n').slice(0, count);
  const file = join(folder, name);
  await writeFile(file, `${[...lines, ...extra].join('\n')}\n`);
  return file;
}

describe('the SFT stage with augment threads', () => {
  it('writes the same bytes with 1 and N threads, with and without a variant pool', async () => {
    // A line that is no trajectory: its reject line must come out in the same place.
    const inputs = await tasksFile('identity.jsonl', 6, ['{"id":"broken"}']);
    const registry = await builtinRegistry();
    const run = async (name: string, threads: number, pool: number) => {
      const config = parsePipelineConfig({
        harness: join(fixture, 'harness.yaml'),
        inputs: { trajectories: inputs },
        seed: 'threads',
        augment: { policy: 'hat', variants: 2, pool, threads },
        concurrency: 4,
        exports: [],
        out: join(folder, name),
      });
      const manifest = await runPipeline(config, buildPipelineDependencies(config, { registry }));
      const files = await Promise.all(
        ['examples.jsonl', 'rejects.jsonl', 'variants.jsonl'].map((file) =>
          readFile(join(folder, name, file), 'utf8').catch(() => ''),
        ),
      );
      return { files, counts: manifest.counts, runHash: manifest.runHash };
    };
    for (const pool of [256, 0]) {
      const one = await run(`one-${pool}`, 1, pool);
      const many = await run(`many-${pool}`, 2, pool);
      expect(one.counts.examples).toBeGreaterThan(10);
      expect(one.counts.rejected).toBeGreaterThan(0);
      expect(many.files).toEqual(one.files);
      expect(many.counts).toEqual(one.counts);
      // The thread count is not part of the run's identity: a run resumes under another count.
      expect(many.runHash).toBe(one.runHash);
    }
  }, 300_000);

  it('sends requests while a unit is still augmenting in a thread', async () => {
    const tasks = 8;
    const inputs = await tasksFile('blocking.jsonl', tasks);
    const lastTask = (
      JSON.parse((await readFile(inputs, 'utf8')).split('\n')[tasks - 1] as string) as { id: string }
    ).id;
    const marker = join(folder, 'window-full');
    const log = join(folder, 'blocked.log');
    const policy = join(folder, 'blocking-policy.yaml');
    await writeFile(
      policy,
      `name: blocking\ndimensions:\n  prompt:\n    probability: 1\n    operators:\n      - { op: prompt/wait-for-marker, params: { block: ${JSON.stringify(lastTask)}, marker: ${JSON.stringify(marker)}, log: ${JSON.stringify(log)}, limitMs: 60000 } }\n`,
    );
    let inFlight = 0;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Every unit's first request is held until all the units but the blocked one have theirs in flight;
    // then the marker is written and the blocked unit (waiting in its thread) goes on.
    const server = await startFakeOpenAIServer({
      record: false,
      async respond() {
        inFlight++;
        if (inFlight >= tasks - 1) {
          await writeFile(marker, 'full\n');
          release();
        }
        await released;
        inFlight--;
        return { content: 'ok' };
      },
    });
    try {
      const config = parsePipelineConfig({
        harness: join(fixture, 'harness.yaml'),
        inputs: { trajectories: inputs },
        seed: 5,
        augment: { policy, variants: 1, includeOriginal: false, pool: 0, threads: 2 },
        teacher: {
          exact: 'openai-compatible',
          regenerate: 'openai-compatible',
          endpoint: { baseURL: server.url, model: 'held', maxRetries: 0 },
        },
        operators: [blockingModule],
        concurrency: tasks,
        exports: [],
        out: join(folder, 'blocking-out'),
      });
      const registry = await builtinRegistry(await loadOperatorModules(config.operators));
      const dependencies = buildPipelineDependencies(config, { registry, env: {} });
      const client = createOpenAICompatible({ baseURL: server.url, maxRetries: 0 });
      const teacher = openAICompatibleTeacher({ model: client, request: { model: 'held' } });
      const manifest = await runPipeline(config, {
        ...dependencies,
        teachers: { exact: teacher, regenerate: teacher },
      });
      expect(manifest.counts.units).toBe(tasks);
    } finally {
      await server.close();
    }
    // The blocked unit saw the other units' requests in flight while it was still augmenting: on the main
    // thread its wait would have held the loop that serves them, and timed out.
    expect(await readFile(log, 'utf8')).toBe(`${lastTask} seen\n`);
  }, 300_000);

  it('refuses threads for operators a thread cannot load, and `auto` stays on the main thread', async () => {
    const inputs = await tasksFile('code-registry.jsonl', 2);
    const operators = (await loadOperatorModules([blockingModule])).flatMap((loaded) => loaded.operators);
    // The operator is given in code, not named under `operators`: a thread could not rebuild the registry.
    const registry = createRegistry([...(await builtinRegistry()).list(), ...operators]);
    const config = (threads: number | 'auto') =>
      parsePipelineConfig({
        harness: join(fixture, 'harness.yaml'),
        inputs: { trajectories: inputs },
        augment: { policy: 'hat', variants: 1, threads },
        exports: [],
        out: join(folder, `code-registry-${threads}`),
      });
    const explicit = config(2);
    const refused = await runPipeline(explicit, buildPipelineDependencies(explicit, { registry })).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(HarnessAugmentError);
    expect((refused as HarnessAugmentError).kind).toBe('usage');
    expect((refused as Error).message).toMatch(
      /augment\.threads: 2 worker threads cannot augment this run: .*given in code: prompt\/wait-for-marker/,
    );
    const auto = config('auto');
    const manifest = await runPipeline(auto, buildPipelineDependencies(auto, { registry }));
    expect(manifest.counts.examples).toBeGreaterThan(0);
  }, 300_000);
});
