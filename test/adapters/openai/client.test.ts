// The OpenAI-compatible client against the loopback fake server: answers, every retry path (429 with
// Retry-After, 5xx, dropped connections, timeouts), errors that must not be retried, caller aborts, the
// outgoing body, streaming with tool-call deltas and split UTF-8, and the vLLM extras.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createOpenAICompatible,
  OpenAICompatibleError,
  type OpenAICompatibleOptions,
  type RetryInfo,
} from '../../../src/adapters/openai/index.js';
import { HarnessAugmentError } from '../../../src/harness/issues.js';
import type { ChatRequest } from '../../../src/runtime/chat-model.js';
import {
  type FakeOpenAIServer,
  type FakeOpenAIServerOptions,
  startFakeOpenAIServer,
} from '../../support/fake-openai-server.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAIServer(options);
  servers.push(server);
  return server;
}

/** A client whose waits are recorded instead of slept. */
function clientFor(server: FakeOpenAIServer, options: Partial<OpenAICompatibleOptions> = {}) {
  const delays: number[] = [];
  const retries: RetryInfo[] = [];
  const client = createOpenAICompatible({
    baseURL: server.url,
    model: 'test-model',
    timeoutMs: 5000,
    random: () => 0,
    sleep: async (ms) => {
      delays.push(ms);
    },
    onRetry: (info) => retries.push(info),
    ...options,
  });
  return { client, delays, retries };
}

const hello: ChatRequest = { messages: [{ role: 'user', content: 'how much is link 3?' }] };

async function failure(promise: Promise<unknown>): Promise<OpenAICompatibleError> {
  try {
    await promise;
  } catch (error) {
    if (OpenAICompatibleError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('complete', () => {
  it('posts the request and returns the completion', async () => {
    const server = await serve({
      respond: (request) => ({ content: `echo: ${request.messages.at(-1)?.content}` }),
    });
    const { client } = clientFor(server, { apiKey: 'sk-test', headers: { 'x-team': 'hsa' } });
    const completion = await client.complete({ ...hello, temperature: 0 });
    expect(completion.choices[0]!.message).toEqual({
      role: 'assistant',
      content: 'echo: how much is link 3?',
    });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage).toEqual({ prompt_tokens: 6, completion_tokens: 6, total_tokens: 12 });
    const [recorded] = server.requests;
    expect(recorded!.path).toBe('/v1/chat/completions');
    expect(recorded!.body).toEqual({ model: 'test-model', ...hello, temperature: 0 });
    expect(recorded!.headers.authorization).toBe('Bearer sk-test');
    expect(recorded!.headers['x-team']).toBe('hsa');
    expect(recorded!.headers['content-type']).toBe('application/json');
    expect(client.stats()).toEqual({
      calls: 1,
      requests: 1,
      retries: 0,
      retriesByReason: {},
      succeeded: 1,
      failed: 0,
      aborted: 0,
    });
  });

  it('returns tool calls with their raw argument text', async () => {
    const server = await serve({
      respond: () => ({ tool_calls: [{ id: 'call_1', name: 'get_price', arguments: '{"link_id": 3}' }] }),
    });
    const completion = await clientFor(server).client.complete(hello);
    expect(completion.choices[0]).toMatchObject({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_price', arguments: '{"link_id": 3}' } },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it('keeps the request model over the default one', async () => {
    const server = await serve();
    await clientFor(server).client.complete({ ...hello, model: 'other' });
    expect((server.requests[0]!.body as { model: string }).model).toBe('other');
  });

  it('sends developer messages as system by default, and as developer when told', async () => {
    const server = await serve();
    const request: ChatRequest = {
      messages: [
        { role: 'developer', content: 'rules' },
        { role: 'user', content: 'hi' },
      ],
    };
    await clientFor(server).client.complete(request);
    await clientFor(server, { mapDeveloperToSystem: false }).client.complete(request);
    const roles = server.requests.map((recorded) =>
      (recorded.body as ChatRequest).messages.map((message) => message.role),
    );
    expect(roles).toEqual([
      ['system', 'user'],
      ['developer', 'user'],
    ]);
    expect(request.messages[0]!.role).toBe('developer');
  });
});

describe('retries', () => {
  it('honours Retry-After on a 429 (the wait is asked of the injected sleep)', async () => {
    const server = await serve({
      faults: (_index, _body, { attempt }) => (attempt === 0 ? { status: 429, retryAfter: 3 } : 'ok'),
    });
    const { client, delays, retries } = clientFor(server);
    const completion = await client.complete(hello);
    expect(completion.choices[0]!.message.content).toBe('ok');
    expect(delays).toEqual([3000]);
    expect(retries.map(({ attempt, delayMs, reason }) => ({ attempt, delayMs, reason }))).toEqual([
      { attempt: 1, delayMs: 3000, reason: 'http_429' },
    ]);
    expect(client.stats()).toMatchObject({ requests: 2, retries: 1, retriesByReason: { http_429: 1 } });
  });

  it('honours retry-after-ms over Retry-After', async () => {
    const server = await serve({
      faults: (index) => (index === 0 ? { status: 429, retryAfter: 9, retryAfterMs: 125 } : 'ok'),
    });
    const { client, delays } = clientFor(server);
    await client.complete(hello);
    expect(delays).toEqual([125]);
  });

  it('retries a 500 with exponential backoff, then succeeds', async () => {
    const server = await serve({
      faults: (index) => (index < 3 ? { status: index === 1 ? 503 : 500 } : 'ok'),
    });
    const { client, delays } = clientFor(server, { backoff: { initialMs: 100, factor: 2, jitter: 0 } });
    await client.complete(hello);
    expect(delays).toEqual([100, 200, 400]);
    expect(client.stats()).toMatchObject({
      requests: 4,
      retries: 3,
      retriesByReason: { http_500: 2, http_503: 1 },
    });
    expect(server.stats.faults).toEqual({ http_500: 2, http_503: 1 });
  });

  it('applies seeded jitter, never more than the jitter share', async () => {
    const server = await serve({
      faults: (_index, _body, { attempt }) => (attempt < 4 ? { status: 502 } : 'ok'),
    });
    const { client, delays } = clientFor(server, {
      random: undefined,
      backoff: { initialMs: 1000, factor: 1, jitter: 0.5 },
    });
    await client.complete(hello);
    expect(delays).toHaveLength(4);
    expect(delays.every((delay) => delay >= 500 && delay <= 1000)).toBe(true);
    expect(new Set(delays).size).toBeGreaterThan(1);
    // The default generator is seeded: a second client waits exactly the same.
    const again = clientFor(server, {
      random: undefined,
      backoff: { initialMs: 1000, factor: 1, jitter: 0.5 },
    });
    await again.client.complete({ messages: [{ role: 'user', content: 'second' }] });
    expect(again.delays).toEqual(delays);
  });

  it('retries a connection dropped before the response', async () => {
    const server = await serve({ faults: (index) => (index === 0 ? 'drop' : 'ok') });
    const { client, retries } = clientFor(server);
    const completion = await client.complete(hello);
    expect(completion.choices[0]!.message.content).toBe('ok');
    expect(retries.map((info) => info.reason)).toEqual(['connection']);
    expect(server.stats).toMatchObject({ requests: 2, answered: 1, faults: { drop: 1 } });
  });

  it('retries a body cut in the middle of the response', async () => {
    const server = await serve({ faults: (index) => (index === 0 ? 'drop-mid' : 'ok') });
    const { client, retries } = clientFor(server);
    await client.complete(hello);
    expect(retries.map((info) => info.reason)).toEqual(['connection']);
    expect(server.stats).toMatchObject({ requests: 2, answered: 1, faults: { 'drop-mid': 1 } });
  });

  it('retries a connection refused', async () => {
    const server = await serve();
    const closedURL = server.url;
    await server.close();
    const { client, retries } = clientFor({ ...server, url: closedURL }, { maxRetries: 2 });
    const error = await failure(client.complete(hello));
    expect(error.code).toBe('connection_error');
    expect(error.attempts).toBe(3);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(retries.map((info) => info.reason)).toEqual(['connection', 'connection']);
  });

  it('times out a slow response and retries it', async () => {
    const server = await serve({ faults: (index) => (index === 0 ? { delayMs: 60_000 } : 'ok') });
    const { client, retries } = clientFor(server, { timeoutMs: 300 });
    const completion = await client.complete(hello);
    expect(completion.choices[0]!.message.content).toBe('ok');
    expect(retries[0]!.reason).toBe('timeout');
    expect(retries[0]!.error.message).toMatch(/no response within 300 ms/);
    expect(server.stats.faults).toEqual({ delay: 1 });
    expect(client.stats().requests).toBe(server.stats.requests);
  });

  it('fails at once on 400, 401, 403, 404 and 422, with the body in the error', async () => {
    for (const status of [400, 401, 403, 404, 422]) {
      const server = await serve({
        faults: () => ({
          status,
          body: { error: { message: `bad thing ${status}`, type: 'invalid_request_error' } },
        }),
      });
      const { client, delays } = clientFor(server);
      const error = await failure(client.complete(hello));
      expect(error).toBeInstanceOf(HarnessAugmentError);
      expect(error).toMatchObject({
        statusCode: status,
        isRetryable: false,
        attempts: 1,
        code: 'http_error',
      });
      expect(error.responseBody).toContain(`bad thing ${status}`);
      expect(error.message).toContain(`POST ${server.url}/chat/completions: ${status}`);
      expect(error.message).toContain(`bad thing ${status}`);
      expect(delays).toEqual([]);
      expect(server.stats.requests).toBe(1);
    }
  });

  it('gives up after maxRetries with the attempt count', async () => {
    const server = await serve({ faults: () => ({ status: 503 }) });
    const { client, delays } = clientFor(server, { maxRetries: 3 });
    const error = await failure(client.complete(hello));
    expect(error).toMatchObject({ statusCode: 503, isRetryable: true, attempts: 4 });
    expect(error.message).toMatch(/503 Service Unavailable: injected fault 503 \(4 attempts\)$/);
    expect(delays).toHaveLength(3);
    expect(server.stats.requests).toBe(4);
    expect(client.stats()).toMatchObject({ calls: 1, requests: 4, retries: 3, failed: 1, succeeded: 0 });
  });

  it('retries what fetch reports as a network failure, and fails at once on anything else fetch throws', async () => {
    const thrown = [
      new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }),
      new Error('bad proxy config'),
    ];
    const client = createOpenAICompatible({
      baseURL: 'http://127.0.0.1:9/v1',
      sleep: async () => undefined,
      fetch: async () => {
        throw thrown.shift();
      },
    });
    const error = await failure(client.complete(hello));
    expect(error).toMatchObject({ code: 'connection_error', isRetryable: false, attempts: 2 });
    expect(error.message).toContain('request failed: bad proxy config');
    expect(client.stats().retriesByReason).toEqual({ connection: 1 });
  });

  it('truncates a long error body', async () => {
    const server = await serve({
      faults: () => ({ status: 400, body: { error: { message: 'x'.repeat(10_000) } } }),
    });
    const error = await failure(clientFor(server).client.complete(hello));
    expect(error.responseBody!.length).toBeLessThan(2100);
    expect(error.responseBody).toMatch(/… \[truncated\]$/);
  });

  it('does not retry a response that is not the protocol', async () => {
    const server = await serve({
      faults: () => ({ status: 200, body: { id: 'x', created: 1, model: 'm', choices: 'nope' } }),
    });
    const error = await failure(clientFor(server).client.complete(hello));
    expect(error).toMatchObject({ code: 'invalid_response', isRetryable: false, attempts: 1 });
    expect(error.message).toMatch(/not a valid chat completion: \$\.choices/);
  });
});

describe('abort', () => {
  it('rejects quickly with the abort reason mid-request and sends nothing more', async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const server = await serve({
      faults: () => {
        arrived();
        return { delayMs: 60_000 };
      },
    });
    const { client } = clientFor(server);
    const controller = new AbortController();
    const pending = client.complete(hello, { signal: controller.signal });
    await arrival;
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(client.stats()).toMatchObject({ calls: 1, requests: 1, retries: 0, aborted: 1, failed: 0 });
    expect(server.stats.requests).toBe(1);
  });

  it('stops during the wait between attempts (default sleep)', async () => {
    const server = await serve({ faults: () => ({ status: 429, retryAfter: 60 }) });
    const controller = new AbortController();
    const client = createOpenAICompatible({
      baseURL: server.url,
      // A deadline past the 60 s wait, so that the wait starts and the abort lands in it.
      deadlineMs: 120_000,
      onRetry: () => controller.abort(new Error('enough')),
    });
    await expect(client.complete(hello, { signal: controller.signal })).rejects.toThrow('enough');
    expect(server.stats.requests).toBe(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const server = await serve();
    const { client } = clientFor(server);
    const reason = new Error('too late');
    await expect(client.complete(hello, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(server.stats.requests).toBe(0);
  });
});

describe('streaming', () => {
  const answer = {
    content: '好的，价格是¥99 🎉 — 稍等',
    tool_calls: [
      { id: 'call_a', name: 'get_product_info_by_link_id', arguments: { link_id: 3, note: '优惠券 ✓' } },
      { id: 'call_b', name: 'get_stock', arguments: '{"link_id": 4, "sku": "红色/XL"}' },
    ],
  };

  it('assembles interleaved parallel tool calls and split UTF-8 into what complete() returns', async () => {
    const server = await serve({
      respond: () => answer,
      sse: { writeSizes: [1, 2, 3, 5, 7], argumentPieces: 4 },
    });
    const { client } = clientFor(server);
    const streamed = await client.completeStreaming(hello);
    const plain = await client.complete(hello);
    expect({ ...streamed, id: '' }).toEqual({ ...plain, id: '' });
    expect(streamed.choices[0]!.message.tool_calls!.map((call) => call.function.arguments)).toEqual([
      '{"link_id":3,"note":"优惠券 ✓"}',
      '{"link_id": 4, "sku": "红色/XL"}',
    ]);
    expect(streamed.usage).toEqual(plain.usage);
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(server.requests[0]!.headers.accept).toBe('text/event-stream');
  });

  it('reads CRLF, comments and multi-line data', async () => {
    const server = await serve({
      respond: () => answer,
      sse: { lineEnding: '\r\n', comments: true, multiLineData: true, writeSizes: [3, 11] },
    });
    const { client } = clientFor(server);
    const streamed = await client.completeStreaming(hello);
    expect(streamed.choices[0]!.message.content).toBe(answer.content);
    expect(streamed.choices[0]!.message.tool_calls).toHaveLength(2);
  });

  it('yields the chunks as they arrive', async () => {
    const server = await serve({ respond: () => ({ content: 'abcdefgh' }) });
    const chunks = [];
    for await (const chunk of clientFor(server).client.stream(hello)) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? null)).toEqual([
      '',
      'abcd',
      'efgh',
      null,
      null,
    ]);
    expect(chunks.at(-1)!.usage).toMatchObject({ completion_tokens: 1 });
  });

  it('retries a stream cut in the middle when assembling', async () => {
    const server = await serve({
      respond: () => answer,
      faults: (index) => (index === 0 ? 'drop-mid' : 'ok'),
    });
    const { client, retries } = clientFor(server);
    const streamed = await client.completeStreaming(hello);
    expect(streamed.choices[0]!.message.content).toBe(answer.content);
    expect(retries.map((info) => info.reason)).toEqual(['connection']);
  });

  it('retries failures before the first byte of a stream, and reports a later cut as retryable', async () => {
    const server = await serve({
      faults: (index) => (index === 0 ? { status: 500 } : index === 1 ? 'drop-mid' : 'ok'),
    });
    const { client } = clientFor(server);
    const error = await failure(
      (async () => {
        for await (const _chunk of client.stream(hello)) {
          // consume
        }
      })(),
    );
    expect(error).toMatchObject({ code: 'connection_error', isRetryable: true, attempts: 2 });
    expect(client.stats()).toMatchObject({ calls: 1, requests: 2, retries: 1, failed: 1 });
  });

  it('counts a stream the consumer left early as aborted', async () => {
    const server = await serve({ respond: () => ({ content: 'x'.repeat(40) }) });
    const { client } = clientFor(server);
    for await (const _chunk of client.stream(hello)) break;
    expect(client.stats()).toMatchObject({ calls: 1, succeeded: 0, aborted: 1 });
  });

  it('turns an error event in the stream into an error', async () => {
    // vLLM reports a failure after the 200 as an error event; an injected fetch replays one.
    const body = 'data: {"error":{"message":"model crashed","code":500}}\n\n';
    const client = createOpenAICompatible({
      baseURL: 'http://127.0.0.1:9/v1',
      maxRetries: 1,
      sleep: async () => undefined,
      fetch: async () =>
        new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    });
    const error = await failure(client.completeStreaming(hello));
    expect(error).toMatchObject({ code: 'stream_error', statusCode: 500, isRetryable: true, attempts: 2 });
    expect(error.message).toContain('model crashed');
  });

  it('refuses stream: true in complete()', async () => {
    const server = await serve();
    await expect(clientFor(server).client.complete({ ...hello, stream: true })).rejects.toThrow(
      /completeStreaming/,
    );
  });
});

describe('vLLM extras', () => {
  it('tokenizes at the server root by default, or at tokenizeURL', async () => {
    const server = await serve({ maxModelLen: 4096 });
    const { client } = clientFor(server);
    const byPrompt = await client.tokenize({ prompt: 'one two three' });
    expect(byPrompt).toMatchObject({ count: 3, max_model_len: 4096 });
    expect(byPrompt.tokens).toHaveLength(3);
    await client.tokenize({ messages: [{ role: 'user', content: 'hi there' }], add_generation_prompt: true });
    await clientFor(server, { tokenizeURL: `${server.url}/tokenize` }).client.tokenize({ prompt: 'x' });
    expect(server.requests.map((recorded) => recorded.path)).toEqual([
      '/tokenize',
      '/tokenize',
      '/v1/tokenize',
    ]);
    expect(server.requests[1]!.body).toEqual({
      messages: [{ role: 'user', content: 'hi there' }],
      add_generation_prompt: true,
      model: 'test-model',
    });
  });

  it('lists models', async () => {
    const server = await serve({ model: 'Qwen/Qwen3-8B' });
    const list = await clientFor(server).client.models();
    expect(list.data.map((model) => [model.id, model.max_model_len])).toEqual([['Qwen/Qwen3-8B', 8192]]);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
  });

  it('passes prompt_logprobs and return_token_ids through', async () => {
    const server = await serve();
    await clientFor(server).client.complete({ ...hello, prompt_logprobs: 1, return_token_ids: true });
    expect(server.requests[0]!.body).toMatchObject({ prompt_logprobs: 1, return_token_ids: true });
  });
});

describe('options', () => {
  it('rejects a bad configuration at once', () => {
    expect(() => createOpenAICompatible({ baseURL: 'not a url' })).toThrow(
      /baseURL "not a url" is not a URL/,
    );
    expect(() => createOpenAICompatible({ baseURL: 'ftp://x/v1' })).toThrow(/http or https/);
    expect(() => createOpenAICompatible({ baseURL: 'http://x/v1', timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createOpenAICompatible({ baseURL: 'http://x/v1', maxRetries: -1 })).toThrow(/maxRetries/);
  });

  it('drops trailing slashes of the base URL', async () => {
    const server = await serve();
    await clientFor(server, { baseURL: `${server.url}//` }).client.complete(hello);
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
  });
});

describe('the call deadline (all attempts and waits included)', () => {
  it('a 429 asking to retry after an hour fails the call at once with the reason, not after the wait', async () => {
    const server = await serve({ faults: () => ({ status: 429, retryAfter: 3600 }) });
    const waits: number[] = [];
    const client = createOpenAICompatible({
      baseURL: server.url,
      backoff: { maxRetryAfterMs: 3_600_000 },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await expect(client.complete(hello)).rejects.toThrow(
      /429 Too Many Requests: .*; gave up: the next try \(in 3600000 ms\) would pass the call's deadline of 60000 ms \(1 attempt\)$/,
    );
    expect(waits).toEqual([]);
    expect(server.stats.requests).toBe(1);
  });

  it('an endpoint that accepts and never answers fails when the deadline has passed, naming it', async () => {
    const server = await serve({ faults: () => ({ delayMs: 600_000 }) });
    const client = createOpenAICompatible({ baseURL: server.url, deadlineMs: 300, timeoutMs: 60_000 });
    const failure = await client.complete(hello).catch((error: unknown) => error as Error);
    expect(failure).toBeInstanceOf(Error);
    // The one attempt was cut to the deadline: its timeout is what is left of the deadline's 300 ms when it
    // starts (a millisecond or two less on a loaded machine), not 60 s.
    const within = Number(/no response within (\d+) ms/.exec((failure as Error).message)?.[1]);
    expect(within).toBeGreaterThan(200);
    expect(within).toBeLessThanOrEqual(300);
    expect((failure as Error).message).toMatch(/deadline of 300 ms/);
    expect(server.stats.requests).toBe(1);
  });

  it('a deadline that is not positive is a usage error', () => {
    expect(() => createOpenAICompatible({ baseURL: 'http://127.0.0.1:1/v1', deadlineMs: 0 })).toThrow(
      'openai-compatible: deadlineMs must be positive, got 0',
    );
  });
});
