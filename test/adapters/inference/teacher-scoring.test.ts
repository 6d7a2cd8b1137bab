// The teacher-scoring client against loopback servers that answer in vLLM's documented `prompt_logprobs`
// shape (a leading null, then alternatives keyed by token-id strings) and SGLang's `/generate` shape
// ([logprob, token_id, text] triples from `logprob_start_len`); the /metrics reader and the health wait
// against the same kind of server.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createInferenceClient,
  createTeacherScorer,
  diffServerMetrics,
  parseServerMetrics,
  summarizeHistogram,
  waitForHealthy,
} from '../../../src/adapters/inference/index.js';

// biome-ignore lint/suspicious/noExplicitAny: test handlers read the JSON bodies they were sent
type Json = any;
type Handler = (path: string, body: Json) => { status?: number; json?: unknown; text?: string };

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Handler): Promise<{ url: string; bodies: Json[] }> {
  const bodies: Json[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = raw ? JSON.parse(raw) : undefined;
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      bodies.push({ path, body });
      const answer = handler(path, body);
      const text = answer.text ?? JSON.stringify(answer.json ?? {});
      response.writeHead(answer.status ?? 200, {
        'content-type': answer.text !== undefined ? 'text/plain' : 'application/json',
      });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

/** A made-up teacher: token t after any prefix has log-probability −t/100; alternatives rank below it. */
const teacherLogprob = (id: number) => -id / 100;

function vllmAnswer(prompt: number[]) {
  return {
    id: 'cmpl-1',
    object: 'text_completion',
    model: 'teacher',
    choices: [
      {
        index: 0,
        text: 'x',
        finish_reason: 'length',
        prompt_logprobs: prompt.map((id, position) =>
          position === 0
            ? null
            : {
                // The actual token, and one alternative that is not it (vLLM adds the top-k beside it).
                [String(id)]: { logprob: teacherLogprob(id), rank: 2, decoded_token: `t${id}` },
                [String(id + 1000)]: { logprob: -0.01, rank: 1, decoded_token: `t${id + 1000}` },
              },
        ),
      },
    ],
    usage: { prompt_tokens: prompt.length, completion_tokens: 1, total_tokens: prompt.length + 1 },
  };
}

describe('teacher scoring', () => {
  const sample = { promptTokenIds: [5, 17, 42], completionTokenIds: [7, 300, 7, 12] };

  it('returns vLLM prompt log-probabilities aligned to the completion tokens', async () => {
    const server = await serve((path, body) => {
      expect(path).toBe('/v1/completions');
      return { json: vllmAnswer(body.prompt) };
    });
    const scorer = createTeacherScorer({ engine: 'vllm', baseURL: `${server.url}/v1`, model: 'teacher' });
    const score = await scorer.score(sample);
    expect(score.tokenIds).toEqual(sample.completionTokenIds);
    expect(score.logprobs).toEqual(sample.completionTokenIds.map(teacherLogprob));
    expect(score.ranks).toEqual([2, 2, 2, 2]);
    expect(server.bodies[0].body).toEqual({
      prompt: [5, 17, 42, 7, 300, 7, 12],
      max_tokens: 1,
      temperature: 0,
      prompt_logprobs: 0,
      model: 'teacher',
    });
  });

  it('returns SGLang input log-probabilities aligned to the completion tokens', async () => {
    const server = await serve((path, body) => {
      expect(path).toBe('/generate');
      const ids: number[] = body.input_ids;
      const start: number = body.logprob_start_len;
      return {
        json: {
          text: 'x',
          meta_info: {
            input_token_logprobs: ids.slice(start).map((id) => [teacherLogprob(id), id, null]),
            output_token_logprobs: [[-0.1, 1, null]],
          },
        },
      };
    });
    const scorer = createTeacherScorer({ engine: 'sglang', baseURL: server.url, model: 'teacher' });
    const score = await scorer.score(sample);
    expect(score.logprobs).toEqual(sample.completionTokenIds.map(teacherLogprob));
    expect(server.bodies[0].body).toMatchObject({
      input_ids: [5, 17, 42, 7, 300, 7, 12],
      return_logprob: true,
      logprob_start_len: 3,
      sampling_params: { max_new_tokens: 1 },
    });
  });

  it('refuses an answer that is not aligned with the sample', async () => {
    const server = await serve((_path, body) => ({ json: vllmAnswer((body.prompt as number[]).slice(1)) }));
    const scorer = createTeacherScorer({
      engine: 'vllm',
      baseURL: server.url,
      model: 'teacher',
      maxRetries: 0,
    });
    await expect(scorer.score(sample)).rejects.toThrow(/expected prompt_logprobs for 7 tokens, got 6/);
    await expect(scorer.score({ promptTokenIds: [], completionTokenIds: [1] })).rejects.toThrow(
      /at least one token/,
    );
  });
});

const metricsText = (
  scale: number,
) => `# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.
# TYPE vllm:time_to_first_token_seconds histogram
vllm:time_to_first_token_seconds_bucket{engine="0",le="0.1",model_name="m"} ${2 * scale}
vllm:time_to_first_token_seconds_bucket{engine="0",le="0.2",model_name="m"} ${6 * scale}
vllm:time_to_first_token_seconds_bucket{engine="0",le="+Inf",model_name="m"} ${8 * scale}
vllm:time_to_first_token_seconds_count{engine="0",model_name="m"} ${8 * scale}
vllm:time_to_first_token_seconds_sum{engine="0",model_name="m"} ${1.2 * scale}
vllm:time_to_first_token_seconds_bucket{engine="1",le="0.1",model_name="m"} ${2 * scale}
vllm:time_to_first_token_seconds_bucket{engine="1",le="0.2",model_name="m"} ${2 * scale}
vllm:time_to_first_token_seconds_bucket{engine="1",le="+Inf",model_name="m"} ${2 * scale}
vllm:time_to_first_token_seconds_count{engine="1",model_name="m"} ${2 * scale}
vllm:time_to_first_token_seconds_sum{engine="1",model_name="m"} ${0.1 * scale}
# HELP vllm:spec_decode_num_draft_tokens_total Number of draft tokens.
# TYPE vllm:spec_decode_num_draft_tokens_total counter
vllm:spec_decode_num_draft_tokens_total{engine="0",model_name="m"} ${40 * scale}
# HELP vllm:spec_decode_num_accepted_tokens_total Number of accepted tokens.
# TYPE vllm:spec_decode_num_accepted_tokens_total counter
vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"} ${30 * scale}
`;

describe('server metrics', () => {
  it('sums labelled histograms over label sets and interpolates quantiles', () => {
    const metrics = parseServerMetrics(metricsText(1));
    expect(metrics.engine).toBe('vllm');
    expect(metrics.timeToFirstToken).toEqual({
      metric: 'vllm:time_to_first_token_seconds',
      buckets: [
        { le: 0.1, count: 4 },
        { le: 0.2, count: 8 },
        { le: Number.POSITIVE_INFINITY, count: 10 },
      ],
      count: 10,
      sum: 1.3,
    });
    const summary = summarizeHistogram(metrics.timeToFirstToken!);
    // Rank 5 of 10 falls in (0.1, 0.2] holding 4: 0.1 + 0.1 × 1/4.
    expect(summary.p50).toBeCloseTo(0.125, 10);
    expect(summary.p95).toBe(0.2);
    expect(metrics.specDecode).toEqual({ draftTokens: 40, acceptedTokens: 30, acceptanceRate: 0.75 });
  });

  it('reads the last sample of a text without a final newline', () => {
    expect(parseServerMetrics('vllm:spec_decode_num_draft_tokens_total 8').specDecode).toEqual({
      draftTokens: 8,
    });
  });

  it('subtracts an earlier scrape, and reads /metrics and /health from a server', async () => {
    let scale = 1;
    let healthPolls = 0;
    const server = await serve((path) => {
      if (path === '/health') return { status: ++healthPolls < 3 ? 503 : 200, text: '' };
      return { text: metricsText(scale) };
    });
    const client = createInferenceClient({ engine: 'vllm', baseURL: `${server.url}/v1`, model: 'm' });
    const waited = await client.waitHealthy({ intervalMs: 1, sleep: async () => {} });
    expect(waited.polls).toBe(3);
    const before = await client.metrics();
    scale = 3;
    const during = diffServerMetrics(before, await client.metrics());
    expect(during.timeToFirstToken?.count).toBe(20);
    expect(during.specDecode?.acceptanceRate).toBe(0.75);
  });

  it('gives up on a server that never becomes healthy, naming the last answer', async () => {
    const server = await serve(() => ({ status: 503, text: 'loading' }));
    let clock = 0;
    await expect(
      waitForHealthy(`${server.url}/health`, {
        timeoutMs: 1000,
        now: () => clock,
        sleep: async (ms) => {
          clock += ms;
        },
      }),
    ).rejects.toThrow(/did not answer 200 within 1 s .*last: HTTP 503/);
  });
});
