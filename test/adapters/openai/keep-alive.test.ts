// The keep-alive race: a server closes a pooled connection just as the client reuses it, before any response
// byte. The request is sent again at once on another connection, even with maxRetries 0, so whether a run
// hits the race never changes what it gets back; a response cut after its first byte is still a failure.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatible, OpenAICompatibleError } from '../../../src/adapters/openai/index.js';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../../support/fake-openai-server.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const completion = (content: string) => ({
  id: 'c',
  object: 'chat.completion',
  created: 0,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

/** A server that answers the first request of each connection and closes it, unanswered, at the second. */
async function closingServer(): Promise<{ url: string; closedUnanswered: () => number }> {
  const served = new WeakMap<Socket, number>();
  let closed = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const count = (served.get(socket) ?? 0) + 1;
    served.set(socket, count);
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (count > 1) {
        closed++;
        socket.destroy();
        return;
      }
      const said = (JSON.parse(body) as { messages: Array<{ content: string }> }).messages[0]?.content ?? '';
      response.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' });
      response.end(JSON.stringify(completion(`echo ${said}`)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, closedUnanswered: () => closed };
}

describe('a connection closed before any response byte', () => {
  it('is sent again on another connection, with maxRetries 0, and every answer is the same', async () => {
    const server = await closingServer();
    const client = createOpenAICompatible({ baseURL: server.url, model: 'm', maxRetries: 0 });
    const answers: string[] = [];
    for (let index = 0; index < 12; index++) {
      const answer = await client.complete({ messages: [{ role: 'user', content: `q${index}` }] });
      answers.push(answer.choices[0]?.message.content ?? '');
    }
    expect(answers).toEqual(Array.from({ length: 12 }, (_, index) => `echo q${index}`));
    // The client reused connections the server then closed unanswered; none of it reached the caller.
    expect(server.closedUnanswered()).toBeGreaterThan(0);
    expect(client.stats()).toMatchObject({ calls: 12, succeeded: 12, failed: 0 });
  });

  it('is sent again when the server drops it before answering, but a response cut midway fails', async () => {
    const dropped: FakeOpenAIServer = await startFakeOpenAIServer({
      faults: (index) => (index === 0 ? 'drop' : 'ok'),
    });
    closers.push(() => dropped.close());
    const client = createOpenAICompatible({ baseURL: dropped.url, model: 'm', maxRetries: 0 });
    const answer = await client.complete({ messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]?.message.content).toBe('ok');
    expect(dropped.stats).toMatchObject({ requests: 2, answered: 1, faults: { drop: 1 } });

    const cut: FakeOpenAIServer = await startFakeOpenAIServer({
      faults: (index) => (index === 0 ? 'drop-mid' : 'ok'),
    });
    closers.push(() => cut.close());
    const strict = createOpenAICompatible({ baseURL: cut.url, model: 'm', maxRetries: 0 });
    const error = await strict
      .complete({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught) => caught);
    expect(OpenAICompatibleError.isInstance(error)).toBe(true);
    expect(cut.stats).toMatchObject({ requests: 1 });
  });
});
