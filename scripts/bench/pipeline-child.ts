// The bench's pipeline run (scripts/bench/pipeline-overhead.ts runs it bundled, in a fresh process): `units`
// SFT units of `hat` variants of the live-stream fixture's first trajectories, every request to the
// OpenAI-compatible endpoint at `--base-url`, one TRL export. Prints one JSON line: the units, the wall and
// CPU seconds of the run (from its start, after the modules loaded) and when it started (epoch ms).
//
//   node out/bench-pipeline/pipeline-child.mjs --base-url=http://127.0.0.1:PORT/v1 --units=200 --threads=auto
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createOpenAICompatible } from '../../src/adapters/openai/index.js';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { openAICompatibleTeacher } from '../../src/adapters/teacher/index.js';
import { builtinRegistry } from '../../src/cli/operators-registry.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';

/** What the child prints. */
export interface PipelineChildFigures {
  units: number;
  wallSeconds: number;
  cpuSeconds: number;
  startedAtMs: number;
}

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    units: { type: 'string', default: '200' },
    variants: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '64' },
    threads: { type: 'string', default: '1' },
  },
});
const baseURL = values['base-url'];
if (!baseURL) throw new Error('pipeline-child: --base-url is required');
const variants = Number(values.variants);
const tasks = Math.ceil(Number(values.units) / variants);
const threads = values.threads === 'auto' ? 'auto' : Number(values.threads);

const folder = await mkdtemp(join(tmpdir(), 'hsa-bench-pipeline-'));
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
      endpoint: { baseURL, model: 'scripted' },
    },
    concurrency: Number(values.concurrency),
    exports: ['trl'],
    out: join(folder, 'out'),
  });
  const dependencies = buildPipelineDependencies(config, { registry: await builtinRegistry(), env: {} });
  const client = createOpenAICompatible({ baseURL, maxRetries: 0, timeoutMs: 60_000 });
  const teacher = openAICompatibleTeacher({ model: client, request: { model: 'scripted' } });
  const cpu = process.cpuUsage();
  const startedAtMs = performance.timeOrigin + performance.now();
  const started = performance.now();
  await runPipeline(config, { ...dependencies, teachers: { exact: teacher, regenerate: teacher } });
  const wallSeconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const figures: PipelineChildFigures = {
    units: tasks * variants,
    wallSeconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    startedAtMs,
  };
  console.log(JSON.stringify(figures));
} finally {
  await rm(folder, { recursive: true, force: true });
}
