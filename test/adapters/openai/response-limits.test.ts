// The client's limits against a hostile or broken endpoint, over a real loopback server: a 100 MB body or
// a 100 MB stream event is cut off early (the bytes the server got out are counted, not the time), and a
// huge Retry-After is not honoured past the cap.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '../../../src/adapters/openai/client.js';
import { OpenAICompatibleError } from '../../../src/adapters/openai/errors.js';

const hundredMegabytes = 100 * 1024 * 1024;
let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Serves `prefix`, then filler up to 100 MB, counting the bytes the socket accepted until the client left. */
async function floodingServer(contentType: string, prefix: string) {
  const sent = { bytes: 0, closed: Promise.resolve() };
  let markClosed: () => void = () => {};
  sent.closed = new Promise((resolve) => {
    markClosed = resolve;
  });
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': contentType });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let stopped = false;
    response.on('close', () => {
      stopped = true;
      markClosed();
    });
    response.write(prefix);
    const pump = () => {
      while (!stopped && sent.bytes < hundredMegabytes) {
        sent.bytes += chunk.length;
        if (!response.write(chunk)) {
          response.once('drain', pump);
          return;
        }
      }
      if (!stopped) response.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { sent, baseURL: `http://127.0.0.1:${port}/v1` };
}

const request = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('response limits', () => {
  it('cuts a 100 MB JSON body off at the default 16 MiB limit, without retrying', async () => {
    const { sent, baseURL } = await floodingServer('application/json', '{"id":"x","choices":[],"pad":"');
    const client = createOpenAICompatible({ baseURL, maxRetries: 3 });
    const error = await client.complete(request).catch((caught: unknown) => caught);
    expect(OpenAICompatibleError.isInstance(error)).toBe(true);
    expect((error as OpenAICompatibleError).code).toBe('invalid_response');
    expect((error as Error).message).toMatch(/larger than the client's limit of 16777216 bytes/);
    await sent.closed;
    expect(sent.bytes).toBeLessThan(hundredMegabytes / 2);
    expect(client.stats().requests).toBe(1);
  });

  it('cuts a 100 MB stream event off at maxEventBytes', async () => {
    const { sent, baseURL } = await floodingServer('text/event-stream', 'data: {"pad":"');
    const client = createOpenAICompatible({ baseURL, maxEventBytes: 1024 * 1024 });
    const error = await client.completeStreaming(request).catch((caught: unknown) => caught);
    expect((error as OpenAICompatibleError).code).toBe('invalid_response');
    expect((error as Error).message).toMatch(
      /stream event is larger than the client's limit of 1048576 bytes/,
    );
    await sent.closed;
    expect(sent.bytes).toBeLessThan(hundredMegabytes / 2);
  });

  it('waits at most maxRetryAfterMs however long Retry-After asks', async () => {
    let calls = 0;
    server = createServer((_request, response) => {
      calls++;
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '86400' });
      response.end('{"error":{"message":"slow down"}}');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const waits: number[] = [];
    const client = createOpenAICompatible({
      baseURL: `http://127.0.0.1:${port}/v1`,
      maxRetries: 2,
      backoff: { maxRetryAfterMs: 30_000 },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await expect(client.complete(request)).rejects.toThrow(/429/);
    expect(calls).toBe(3);
    expect(waits).toEqual([30_000, 30_000]);
  });
});
