// The pipeline's overhead against a loopback OpenAI-compatible endpoint that answers every request after a
// fixed delay: wall time against the ideal (requests ÷ concurrency × delay) and the most requests the server
// ever had in flight at once. Answers are a plain reply, so each unit costs one request per user turn.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatible } from '../../src/adapters/openai/index.js';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { openAICompatibleTeacher } from '../../src/adapters/teacher/index.js';
import { builtinRegistry } from '../../src/cli/operators-registry.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import { startFakeOpenAIServer } from '../../test/support/fake-openai-server.js';

export interface PipelineOverhead {
  units: number;
  concurrency: number;
  answerMs: number;
  requests: number;
  wallSeconds: number;
  cpuSeconds: number;
  idealSeconds: number;
  overhead: number;
  maxInFlight: number;
  /** Worker threads that augmented the units (1: the main thread). */
  threads: number | 'auto';
  /** Seconds from the start of the run to its first request, and to the first time `concurrency` were in flight. */
  firstRequestSeconds: number;
  fullWindowSeconds: number | null;
}

export async function pipelineOverhead(options: {
  units: number;
  concurrency: number;
  answerMs: number;
  variants?: number;
  threads?: number | 'auto';
}): Promise<PipelineOverhead> {
  const variants = options.variants ?? 4;
  const threads = options.threads ?? 1;
  let started = 0;
  let firstRequest: number | undefined;
  let fullWindow: number | undefined;
  const tasks = Math.ceil(options.units / variants);
  const folder = await mkdtemp(join(tmpdir(), 'hsa-bench-pipeline-'));
  let inFlight = 0;
  let maxInFlight = 0;
  const server = await startFakeOpenAIServer({
    record: false,
    respond: async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      firstRequest ??= performance.now();
      if (inFlight >= options.concurrency) fullWindow ??= performance.now();
      await new Promise((resolve) => setTimeout(resolve, options.answerMs));
      inFlight--;
      return { content: 'ok' };
    },
  });
  try {
    const lines = (await readFile('fixtures/livestream/trajectories.jsonl', 'utf8'))
      .split('\n')
      .slice(0, tasks);
    await writeFile(join(folder, 'tasks.jsonl'), `${lines.join('\n')}\n`);
    const config = parsePipelineConfig({
      harness: 'fixtures/livestream/harness.yaml',
      inputs: { trajectories: join(folder, 'tasks.jsonl') },
      seed: 7,
      augment: { policy: 'hat', variants, includeOriginal: false, threads },
      teacher: {
        exact: 'openai-compatible',
        regenerate: 'openai-compatible',
        endpoint: { baseURL: server.url, model: 'scripted' },
      },
      concurrency: options.concurrency,
      exports: ['trl'],
      out: join(folder, 'out'),
    });
    const dependencies = buildPipelineDependencies(config, { registry: await builtinRegistry(), env: {} });
    const client = createOpenAICompatible({ baseURL: server.url, maxRetries: 0, timeoutMs: 60_000 });
    const teacher = openAICompatibleTeacher({ model: client, request: { model: 'scripted' } });
    const cpu = process.cpuUsage();
    started = performance.now();
    await runPipeline(config, { ...dependencies, teachers: { exact: teacher, regenerate: teacher } });
    const wallSeconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const requests = server.stats.requests;
    const idealSeconds = (Math.ceil(requests / options.concurrency) * options.answerMs) / 1000;
    return {
      units: tasks * variants,
      concurrency: options.concurrency,
      answerMs: options.answerMs,
      requests,
      wallSeconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      idealSeconds,
      overhead: wallSeconds / idealSeconds - 1,
      maxInFlight,
      threads,
      firstRequestSeconds: ((firstRequest ?? Number.NaN) - started) / 1000,
      fullWindowSeconds: fullWindow === undefined ? null : (fullWindow - started) / 1000,
    };
  } finally {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  }
}
