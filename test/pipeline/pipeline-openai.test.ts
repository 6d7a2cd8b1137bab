// The acceptance of the pipeline's OpenAI-compatible path: 200 tasks × 4 variants at concurrency 16 against
// a scripted OpenAI-compatible server on 127.0.0.1 that injects 429s, 5xx, dropped connections (before and
// in the middle of an answer) and answers slower than the client's timeout. Every unit completes, every
// injected fault is retried and no call fails for good, the kept examples are the gold behaviour under the
// variant, and a second run writes the same bytes.
//
// The policy uses only operators that keep tool names, parameters and skill ids (skill content, prompt
// layout, hook feedback wording), so the scripted server can answer every request with the next gold
// assistant message of the task it recognises.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatible, type OpenAICompatibleStats } from '../../src/adapters/openai/index.js';
import type { ChatCompletionRequest } from '../../src/adapters/openai/wire-types.js';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { openAICompatibleTeacher } from '../../src/adapters/teacher/index.js';
import { builtinRegistry } from '../../src/cli/operators-registry.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { readTrainingExamples } from '../../src/pipeline/example-sidecar.js';
import { type PipelineManifest, runPipeline } from '../../src/pipeline/run-pipeline.js';
import type { SftReject } from '../../src/pipeline/sft.js';
import type { TrainingExample } from '../../src/pipeline/teacher.js';
import type { AssistantMessage, Message, Trajectory } from '../../src/trajectory/schema.js';
import {
  type FakeAnswer,
  type FakeServerStats,
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
/** Far longer than an answer takes on loopback; a slow fault waits three times as long, so it always times out. */
const timeoutMs = 2000;

const policy = `
name: keeps-names
severity: medium
dimensions:
  skill-content:
    probability: 0.8
    operators:
      - skill-content/reorder-rules
      - skill-content/list-style
      - skill-content/paraphrase-lexicon
      - skill-content/preamble
  prompt:
    probability: 1
    operators:
      - prompt/reorder-sections
      - prompt/heading-style
      - prompt/list-style
      - prompt/retitle
      - prompt/merge-sections
      - prompt/split-section
      - prompt/whitespace-noise
  hooks:
    probability: 0.8
    operators: [hooks/reword-feedback]
`;

const isUserMessage = (message: Message) => message.role === 'user' && !message.hsa;
const assistants = (messages: readonly Message[]) =>
  messages.filter((message): message is AssistantMessage => message.role === 'assistant');

/**
 * The scripted model. It finds the task by the request's first user message (and, for the few messages
 * that several tasks share, by the room title and local time in the system prompt), counts the assistant
 * messages already in the request, and answers with the gold's next one: the same tool calls (ids and
 * argument text) or the same reply.
 */
function goldScript(golds: readonly Trajectory[]) {
  const byFirstUserMessage = new Map<string, Trajectory[]>();
  for (const gold of golds) {
    const first = gold.messages.find(isUserMessage)?.content as string;
    byFirstUserMessage.set(first, [...(byFirstUserMessage.get(first) ?? []), gold]);
  }
  return (request: ChatCompletionRequest): FakeAnswer => {
    const system = String(request.messages[0]?.content ?? '');
    const first = request.messages.find((message) => message.role === 'user')?.content as string;
    const candidates = (byFirstUserMessage.get(first) ?? []).filter((gold) => {
      const room = (gold.context as { room: { title: string; local_time: string } }).room;
      return system.includes(room.title) && system.includes(`${room.local_time} `);
    });
    if (candidates.length !== 1)
      throw new Error(`${candidates.length} gold trajectories match the request for "${first}"`);
    const gold = candidates[0]!;
    // Harness-authored turns (a block, a fallback) are in the request too, so the count lines up with
    // the gold's assistant messages; the one at that position is always the model's.
    const sent = request.messages.filter((message) => message.role === 'assistant').length;
    const next = assistants(gold.messages)[sent];
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
 * About 10% of the distinct requests fail once: 429 (Retry-After 0 s or a few ms), 500, 503, a connection
 * dropped before or in the middle of the answer. A few in a thousand are slower than the client's timeout
 * (rarer: each holds the head of the ordered window for a whole timeout). Keyed by the request's content,
 * so two runs meet the same faults whatever the arrival order.
 */
function faultSchedule(seed: string): FaultSchedule {
  const slow = seededFaults({ rate: 0.002, seed: `${seed}/slow`, kinds: [{ delayMs: 3 * timeoutMs }] });
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
  out: string;
  manifest: PipelineManifest;
  client: OpenAICompatibleStats;
  server: FakeServerStats;
}

async function sha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

async function readLines<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8');
  return text === ''
    ? []
    : text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as T);
}

describe('the pipeline against an OpenAI-compatible server with injected faults', () => {
  let folder: string;
  let golds: Map<string, Trajectory>;
  let first: Run;

  /** One run on a fresh server (fault schedules count retries per server). */
  async function run(name: string): Promise<Run> {
    const server = await startFakeOpenAIServer({
      respond: goldScript([...golds.values()]),
      faults: faultSchedule('pipeline-openai'),
      record: false,
    });
    try {
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
        out: join(folder, name),
      });
      const dependencies = buildPipelineDependencies(config, { registry: await builtinRegistry(), env: {} });
      // The configured client backs off for real (500 ms and up); this one, otherwise the same, waits a few
      // milliseconds, so that the run takes seconds. The judge and the exporters are the configured ones.
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
      return { out: config.out, manifest, client: client.stats(), server: structuredClone(server.stats) };
    } finally {
      await server.close();
    }
  }

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'hsa-pipeline-openai-'));
    const lines = (await readFile(trajectoriesFile, 'utf8')).split('\n').slice(0, tasks);
    golds = new Map(
      lines.map((line) => {
        const gold = JSON.parse(line) as Trajectory;
        return [gold.id, gold];
      }),
    );
    await writeFile(join(folder, 'tasks.jsonl'), `${lines.join('\n')}\n`);
    await writeFile(join(folder, 'policy.yaml'), policy);
    first = await run('first');
  }, 180_000);

  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('completes 200 tasks × 4 variants at concurrency 16 and keeps nearly all of them', async () => {
    const { counts } = first.manifest;
    expect(golds.size).toBe(tasks);
    expect(counts.tasks).toBe(tasks);
    expect(counts.units).toBe(units);
    expect(counts.examples + counts.rejected).toBe(units);
    expect(counts.teachers).toEqual({ 'openai-compatible': units });
    // The scripted answers are the gold: only golds the rules judge itself refuses may be rejected.
    expect(counts.examples).toBeGreaterThanOrEqual(0.95 * units);

    const rejects = await readLines<SftReject>(join(first.out, 'rejects.jsonl'));
    expect(rejects).toHaveLength(counts.rejected);
    for (const reject of rejects) {
      expect(reject.reason).toMatch(/\S/);
      expect(reject.details.length).toBeGreaterThan(0);
      expect(counts.byReason[reject.reason]).toBeGreaterThan(0);
    }
    expect(first.manifest.exports).toEqual([
      expect.objectContaining({ format: 'trl', rows: counts.examples }),
    ]);
  });

  it('retries every injected fault and fails no request for good', () => {
    const { client, server } = first;
    const injected = Object.values(server.faults).reduce((sum, count) => sum + count, 0);
    // Each kind of fault was met, and about one request in ten failed.
    expect(Object.keys(server.faults).sort()).toEqual([
      'delay',
      'drop',
      'drop-mid',
      'http_429',
      'http_500',
      'http_503',
    ]);
    // A request that machine load (not the server) slows past the client's timeout is retried too. Those
    // retries are counted apart, so that the test holds on a loaded machine: every injected fault is
    // retried exactly once by its own reason, and only timeouts may exceed the injected delays.
    const extraTimeouts = (client.retriesByReason.timeout ?? 0) - (server.faults.delay ?? 0);
    expect(extraTimeouts).toBeGreaterThanOrEqual(0);
    const calls = client.calls;
    expect(injected / calls).toBeGreaterThan(0.05);
    expect(injected / calls).toBeLessThan(0.15);

    // A fault the server injects into a request the client had already given up on (a load timeout)
    // never reaches the client as its own retry: at most `extraTimeouts` faults are lost that way, so the
    // counts are exact when no request timed out by load, and bounded by that number otherwise.
    expect(client.retries).toBeGreaterThanOrEqual(injected);
    expect(client.retries).toBeLessThanOrEqual(injected + extraTimeouts);
    expect(client).toMatchObject({ succeeded: calls, failed: 0, aborted: 0 });
    // Each call is one request plus its retries. Under machine load a timeout can fire before a request
    // leaves the client or reaches the server, so the counts are bounds: the server saw every injected fault
    // and every successful answer, and never more than the client sent.
    expect(server.requests).toBeGreaterThanOrEqual(calls + injected);
    expect(server.requests).toBeLessThanOrEqual(client.requests);
    expect(client.requests).toBeLessThanOrEqual(calls + client.retries);
    expect(server.answered).toBeGreaterThanOrEqual(calls);
    expect(server.answered).toBeLessThanOrEqual(calls + extraTimeouts);
    const expected: Record<string, number> = {};
    for (const [kind, count] of Object.entries(server.faults)) {
      const reason = kind.startsWith('http_') ? kind : kind === 'delay' ? 'timeout' : 'connection';
      expected[reason] = (expected[reason] ?? 0) + count;
    }
    expect(Object.keys(client.retriesByReason).sort()).toEqual(Object.keys(expected).sort());
    for (const [reason, count] of Object.entries(expected)) {
      const seen = client.retriesByReason[reason] ?? 0;
      if (reason === 'timeout') {
        expect(seen).toBe(count + extraTimeouts);
      } else {
        expect(seen).toBeLessThanOrEqual(count);
        expect(seen).toBeGreaterThanOrEqual(count - extraTimeouts);
      }
    }
  });

  it('writes examples that carry the gold behaviour under each variant', async () => {
    // Examples by reference, resolved through variants.jsonl as the exporters read them.
    const examples: TrainingExample[] = [];
    for await (const example of readTrainingExamples(join(first.out, 'examples.jsonl')))
      examples.push(example);
    expect(examples).toHaveLength(first.manifest.counts.examples);
    const seen = new Set<string>();
    for (const example of examples) {
      expect(seen.has(example.id)).toBe(false);
      seen.add(example.id);
      const [taskId, variant] = example.id.split('/');
      const gold = golds.get(taskId!)!;
      expect(gold, example.id).toBeDefined();
      expect(['0', '1', '2', '3']).toContain(variant);
      expect(example.meta).toMatchObject({ exampleId: taskId, teacher: 'openai-compatible' });
      expect(example.meta?.ops).toEqual(expect.arrayContaining([expect.any(String)]));

      // Well formed: a system prompt first, user turns as in the gold, every tool answer after its call,
      // every call to an offered tool.
      expect(example.messages[0]?.role).toBe('system');
      expect(example.messages.filter(isUserMessage).map((message) => message.content)).toEqual(
        gold.messages.filter(isUserMessage).map((message) => message.content),
      );
      const offered = new Set(example.tools.map((tool) => tool.function.name));
      const called = new Set<string>();
      for (const message of example.messages) {
        if (message.role === 'assistant')
          for (const call of message.tool_calls ?? []) {
            expect(offered.has(call.function.name), `${example.id}: ${call.function.name}`).toBe(true);
            called.add(call.id);
          }
        if (message.role === 'tool') expect(called.has(message.tool_call_id), example.id).toBe(true);
      }
      // The kept assistant turns are the gold's (names are unchanged by this policy), whether the hook
      // retries were collapsed or kept.
      const kept = (messages: readonly Message[]) =>
        assistants(messages)
          .filter((message) => !message.hsa)
          .map(({ content, tool_calls }) => ({ content, tool_calls }));
      expect(kept(example.messages), example.id).toEqual(kept(gold.messages));
    }
  });

  it('writes the same bytes when run again', { timeout: 180_000 }, async () => {
    const second = await run('second');
    expect(second.manifest.counts).toEqual(first.manifest.counts);
    expect(second.server.faults).toEqual(first.server.faults);
    for (const file of ['examples.jsonl', 'variants.jsonl', 'rejects.jsonl', 'exports/trl/train.jsonl'])
      expect(await sha256(join(second.out, file)), file).toBe(await sha256(join(first.out, file)));
  });
});
