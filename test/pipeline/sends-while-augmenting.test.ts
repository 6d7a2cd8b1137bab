// The SFT stage keeps the endpoint busy: a unit's request is sent as soon as the unit is augmented, not
// after every unit of the window has been. A real loopback OpenAI-compatible server holds every request
// until `concurrency` of them are in flight; it records, at each arrival, how many units the stage had
// augmented (an operator of the policy counts its applications: one per unit, with no variant pool).
// Before the fix, the window's units all augmented before any request left the event loop, so the first
// request arrived after `concurrency` augmentations.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOpenAICompatible } from '../../src/adapters/openai/index.js';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { openAICompatibleTeacher } from '../../src/adapters/teacher/index.js';
import { defineOperator, unchanged } from '../../src/augment/operator.js';
import { createRegistry } from '../../src/augment/registry.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import { startFakeOpenAIServer } from '../support/fake-openai-server.js';

const fixture = new URL('../../fixtures/livestream/', import.meta.url);
const concurrency = 16;
const tasks = 16;
const variants = 2;
const units = tasks * variants;

let augmented = 0;
const countingOperator = defineOperator({
  id: 'prompt/count-augmentations',
  version: 1,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Changes nothing; counts the variants built.',
  params: z.object({}),
  apply(harness) {
    augmented++;
    return unchanged(harness);
  },
});

const policy = `
name: counting
dimensions:
  prompt:
    probability: 1
    operators: [prompt/count-augmentations]
`;

describe('the SFT stage against an endpoint that waits for a full window', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'hsa-sends-while-augmenting-'));
    const lines = (await readFile(new URL('trajectories.jsonl', fixture), 'utf8'))
      .split('\n')
      .slice(0, tasks);
    await writeFile(join(folder, 'tasks.jsonl'), `${lines.join('\n')}\n`);
    await writeFile(join(folder, 'policy.yaml'), policy);
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('sends a unit as soon as it is augmented, and fills the window before the stage has augmented every unit', async () => {
    const arrivals: number[] = [];
    let inFlight = 0;
    let peak = 0;
    let augmentedAtFullWindow: number | undefined;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await startFakeOpenAIServer({
      record: false,
      async respond() {
        arrivals.push(augmented);
        inFlight++;
        peak = Math.max(peak, inFlight);
        if (inFlight >= concurrency && augmentedAtFullWindow === undefined) {
          augmentedAtFullWindow = augmented;
          release();
        }
        // Never hang: the last unit's request releases the others whatever happened before it.
        if (arrivals.length >= units) release();
        await released;
        inFlight--;
        return { content: 'ok' };
      },
    });
    try {
      const config = parsePipelineConfig({
        harness: new URL('harness.yaml', fixture).pathname,
        inputs: { trajectories: join(folder, 'tasks.jsonl') },
        seed: 3,
        augment: { policy: join(folder, 'policy.yaml'), variants, includeOriginal: false, pool: 0 },
        teacher: {
          exact: 'openai-compatible',
          regenerate: 'openai-compatible',
          endpoint: { baseURL: server.url, model: 'held', maxRetries: 0 },
        },
        concurrency,
        exports: ['trl'],
        out: join(folder, 'out'),
      });
      const dependencies = buildPipelineDependencies(config, {
        registry: createRegistry([countingOperator]),
        env: {},
      });
      const client = createOpenAICompatible({ baseURL: server.url, maxRetries: 0 });
      const teacher = openAICompatibleTeacher({ model: client, request: { model: 'held' } });
      augmented = 0;
      await runPipeline(config, { ...dependencies, teachers: { exact: teacher, regenerate: teacher } });
    } finally {
      await server.close();
    }
    expect(augmented).toBe(units);
    expect(peak).toBe(concurrency);
    // The first request left before the first window had been augmented (before the fix: after all of it).
    expect(arrivals[0]).toBeLessThan(concurrency);
    // A full window of requests was in flight while units were still to be augmented.
    expect(augmentedAtFullWindow).toBeDefined();
    expect(augmentedAtFullWindow as number).toBeLessThan(units);
  }, 300_000);
});
