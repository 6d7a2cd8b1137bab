// A loopback OpenAI-compatible server for tests: scripted answers served as JSON or as SSE streams, vLLM's
// /tokenize and /models, and deterministic fault injection (429 with Retry-After, 5xx, dropped connections
// before or in the middle of a response, slow responses). Built on node:http, bound to 127.0.0.1 port 0.
//
// Used by the client tests and, later, by the pipeline tests (hundreds of requests at concurrency 16), so
// it keeps per-request work small: one JSON.parse, one answer, a few dozen socket writes for a stream.
//
//   const server = await startFakeOpenAIServer({
//     respond: (request) => ({ content: `echo: ${request.messages.at(-1)?.content}` }),
//     faults: (index) => (index === 0 ? { status: 429, retryAfter: 1 } : 'ok'),
//   });
//   const client = createOpenAICompatible({ baseURL: server.url });
//   …
//   await server.close();
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import seedrandom from 'seedrandom';
import type { ChatCompletionRequest, FinishReason } from '../../src/adapters/openai/wire-types.js';

/** A tool call of a scripted answer; object arguments are serialised with JSON.stringify. */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** What the scripted assistant says. */
export interface FakeAnswer {
  content?: string | null;
  tool_calls?: FakeToolCall[];
  reasoning_content?: string;
  /** Default: `tool_calls` when there are calls, else `stop`. */
  finish_reason?: FinishReason;
}

/**
 * What happens to one request: `ok` (answer normally), an HTTP error status (with `Retry-After` seconds or
 * an HTTP date, `retry-after-ms`, a body), `drop` (destroy the socket before any response byte),
 * `drop-mid` (send the headers and part of the body, then destroy the socket), or a delay before answering
 * (the wait ends early when the client goes away).
 */
export type FakeFault =
  | 'ok'
  | 'drop'
  | 'drop-mid'
  | { status: number; retryAfter?: number | string; retryAfterMs?: number; body?: unknown }
  | { delayMs: number };

export interface FakeRequestContext {
  /** Arrival order over all requests of the server, from 0. */
  index: number;
  /** How many earlier requests had the same method, path and body: 0 for the first try, 1 for its retry… */
  attempt: number;
  method: string;
  /** The path as requested, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as received. */
  rawBody: string;
}

/** Decides the fault for a request. Deterministic schedules key on `context.attempt` and the body, not on arrival order. */
export type FaultSchedule = (index: number, body: unknown, context: FakeRequestContext) => FakeFault;

export interface FakeSseOptions {
  /** Sizes in bytes of successive socket writes, cycled; [] writes each response at once. */
  writeSizes?: number[];
  lineEnding?: '\n' | '\r\n';
  /** Send `: keep-alive` comment lines before and between events. */
  comments?: boolean;
  /** Spread each event's JSON over several `data:` lines. */
  multiLineData?: boolean;
  /** Pieces each tool call's arguments are cut into (default 3). */
  argumentPieces?: number;
  /** Code points per content delta (default 4). */
  contentPieceLength?: number;
}

export interface FakeOpenAIServerOptions {
  /** The scripted assistant (default: answers "ok"). A throw answers 400 with the error's message. */
  respond?: (request: ChatCompletionRequest, context: FakeRequestContext) => FakeAnswer | Promise<FakeAnswer>;
  faults?: FaultSchedule;
  /** The model the server reports when a request names none (default `fake-model`). */
  model?: string;
  maxModelLen?: number;
  sse?: FakeSseOptions;
  /** Keep every request in `requests` (default true). */
  record?: boolean;
}

export interface RecordedRequest {
  index: number;
  attempt: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The fault applied: `ok`, `http_429`, `drop`, `drop-mid`, `delay`. */
  fault: string;
}

export interface FakeServerStats {
  /** Requests received. */
  requests: number;
  /** Requests answered with a complete 200 response. */
  answered: number;
  /** Injected faults by kind (`http_429`, `http_500`, `drop`, `drop-mid`, `delay`). */
  faults: Record<string, number>;
}

export interface FakeOpenAIServer {
  /** The API root with `/v1`, for `baseURL`. */
  url: string;
  /** The server root (where vLLM serves /tokenize). */
  rootURL: string;
  requests: RecordedRequest[];
  /** Live counters. */
  stats: FakeServerStats;
  /** Stops the server and cuts every open connection. */
  close(): Promise<void>;
}

/** The fixed `created` timestamp of every answer, so that answers are byte-identical across runs. */
export const fakeCreated = 1_700_000_000;

const defaultWriteSizes = [5, 1, 7, 3, 64, 2, 256];

/**
 * A seeded schedule: each distinct request (method, path, body) fails on its first `failures` tries with
 * probability `rate`, with a kind drawn from `kinds`. Independent of arrival order and concurrency.
 *
 * @example
 * startFakeOpenAIServer({ faults: seededFaults({ rate: 0.1, seed: 't', kinds: [{ status: 500 }, 'drop'] }) });
 */
export function seededFaults(options: {
  rate: number;
  seed: string;
  kinds: FakeFault[];
  failures?: number;
}): FaultSchedule {
  const failures = options.failures ?? 1;
  return (_index, _body, context) => {
    const rng = seedrandom(`${options.seed}\n${context.method} ${context.path}\n${context.rawBody}`);
    if (context.attempt >= failures || rng() >= options.rate) return 'ok';
    return options.kinds[Math.floor(rng() * options.kinds.length)] ?? 'ok';
  };
}

function faultName(fault: FakeFault): string {
  if (typeof fault === 'string') return fault;
  return 'status' in fault ? `http_${fault.status}` : 'delay';
}

/** A stand-in tokenizer: whitespace-separated words, each hashed to an id below 50000. */
function fakeTokens(text: string): number[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      let hash = 2166136261;
      for (let index = 0; index < word.length; index++)
        hash = Math.imul(hash ^ word.charCodeAt(index), 16777619) >>> 0;
      return hash % 50_000;
    });
}

function messagesText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  return messages
    .map((message: { role?: unknown; content?: unknown }) => `${message.role}: ${message.content ?? ''}`)
    .join('\n');
}

function splitCodePoints(text: string, pieces: number): string[] {
  const points = Array.from(text);
  const size = Math.max(1, Math.ceil(points.length / Math.max(1, pieces)));
  const result: string[] = [];
  for (let start = 0; start < points.length; start += size)
    result.push(points.slice(start, start + size).join(''));
  return result;
}

interface ToolCallWire {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

function toolCallsOf(answer: FakeAnswer): ToolCallWire[] {
  return (answer.tool_calls ?? []).map((call, position) => ({
    id: call.id ?? `call_${position}`,
    type: 'function',
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
}

function usageOf(request: ChatCompletionRequest, content: string, toolCalls: ToolCallWire[]) {
  const prompt = fakeTokens(messagesText(request.messages)).length;
  const completion = fakeTokens(
    [content, ...toolCalls.map((call) => call.function.arguments)].join(' '),
  ).length;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function completionBody(request: ChatCompletionRequest, answer: FakeAnswer, id: string, model: string) {
  const toolCalls = toolCallsOf(answer);
  const content = answer.content === undefined ? (toolCalls.length > 0 ? null : '') : answer.content;
  const message: Record<string, unknown> = { role: 'assistant', content };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (answer.reasoning_content !== undefined) message.reasoning_content = answer.reasoning_content;
  return {
    id,
    object: 'chat.completion',
    created: fakeCreated,
    model,
    choices: [
      {
        index: 0,
        message,
        finish_reason: answer.finish_reason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
        logprobs: null,
      },
    ],
    usage: usageOf(request, content ?? '', toolCalls),
  };
}

/** The chunks of a streamed answer: role, reasoning, content pieces, interleaved tool-call deltas, finish, usage. */
function streamChunks(
  request: ChatCompletionRequest,
  answer: FakeAnswer,
  id: string,
  model: string,
  sse: FakeSseOptions,
): unknown[] {
  const body = completionBody(request, answer, id, model);
  const choice = body.choices[0]!;
  const toolCalls = toolCallsOf(answer);
  const frame = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created: fakeCreated,
    model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  const chunks: unknown[] = [frame({ role: 'assistant', content: '' })];
  const pieceLength = sse.contentPieceLength ?? 4;
  if (answer.reasoning_content)
    for (const piece of splitCodePoints(
      answer.reasoning_content,
      Math.ceil(answer.reasoning_content.length / pieceLength),
    ))
      chunks.push(frame({ reasoning_content: piece }));
  const content = typeof choice.message.content === 'string' ? choice.message.content : '';
  for (const piece of splitCodePoints(content, Math.ceil(Array.from(content).length / pieceLength)))
    chunks.push(frame({ content: piece }));
  // Parallel calls interleave: every call's opening delta, then the argument pieces round-robin.
  toolCalls.forEach((call, index) => {
    chunks.push(
      frame({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
        ],
      }),
    );
  });
  const pieces = toolCalls.map((call) => splitCodePoints(call.function.arguments, sse.argumentPieces ?? 3));
  const rounds = Math.max(0, ...pieces.map((list) => list.length));
  for (let round = 0; round < rounds; round++)
    pieces.forEach((list, index) => {
      const piece = list[round];
      if (piece !== undefined)
        chunks.push(frame({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  chunks.push(frame({}, choice.finish_reason));
  const streamOptions = (request as { stream_options?: { include_usage?: boolean } | null }).stream_options;
  if (streamOptions?.include_usage)
    chunks.push({
      id,
      object: 'chat.completion.chunk',
      created: fakeCreated,
      model,
      choices: [],
      usage: body.usage,
    });
  return chunks;
}

function sseText(chunks: unknown[], sse: FakeSseOptions): string {
  const end = sse.lineEnding ?? '\n';
  const parts: string[] = [];
  if (sse.comments) parts.push(`: keep-alive${end}${end}`);
  chunks.forEach((chunk, index) => {
    const json = sse.multiLineData ? JSON.stringify(chunk, null, 1) : JSON.stringify(chunk);
    parts.push(
      `${json
        .split('\n')
        .map((line) => `data: ${line}`)
        .join(end)}${end}${end}`,
    );
    if (sse.comments && index % 3 === 1) parts.push(`: ping${end}`);
  });
  parts.push(`data: [DONE]${end}${end}`);
  return parts.join('');
}

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Writes `bytes[0, limit)` in pieces; false when the client went away first. */
async function writeInPieces(
  response: ServerResponse,
  bytes: Buffer,
  sizes: number[],
  limit = bytes.length,
): Promise<boolean> {
  if (sizes.length === 0) {
    response.write(bytes.subarray(0, limit));
    return true;
  }
  let offset = 0;
  for (let turn = 0; offset < limit; turn++) {
    if (response.destroyed) return false;
    const size = Math.max(1, sizes[turn % sizes.length]!);
    response.write(bytes.subarray(offset, Math.min(limit, offset + size)));
    offset += size;
    // Yield so that pieces leave as separate TCP segments (not guaranteed, but usual on loopback); not
    // after the last one, so that the answer is counted before the client can have read it.
    if (offset < limit) await nextTick();
  }
  return true;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

function errorBody(message: string, type: string, code: number) {
  return { error: { message, type, param: null, code } };
}

/**
 * Starts the fake server on 127.0.0.1 (a free port).
 *
 * @example
 * const server = await startFakeOpenAIServer({ respond: () => ({ content: 'hi' }) });
 * createOpenAICompatible({ baseURL: server.url });
 */
export async function startFakeOpenAIServer(
  options: FakeOpenAIServerOptions = {},
): Promise<FakeOpenAIServer> {
  const respond = options.respond ?? (() => ({ content: 'ok' }));
  const defaultModel = options.model ?? 'fake-model';
  const maxModelLen = options.maxModelLen ?? 8192;
  const sse = options.sse ?? {};
  const record = options.record ?? true;
  const requests: RecordedRequest[] = [];
  const stats: FakeServerStats = { requests: 0, answered: 0, faults: {} };
  const seen = new Map<string, number>();
  const sockets = new Set<Socket>();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = await readBody(request);
    const method = request.method ?? 'GET';
    const path = (request.url ?? '/').split('?')[0]!;
    const index = stats.requests++;
    const key = `${method} ${path}\n${rawBody}`;
    const attempt = seen.get(key) ?? 0;
    seen.set(key, attempt + 1);
    let body: unknown;
    try {
      body = rawBody === '' ? undefined : JSON.parse(rawBody);
    } catch {
      sendJson(response, 400, errorBody('the body is not JSON', 'invalid_request_error', 400));
      return;
    }
    const context: FakeRequestContext = { index, attempt, method, path, headers: request.headers, rawBody };
    const fault = options.faults?.(index, body, context) ?? 'ok';
    const name = faultName(fault);
    if (name !== 'ok') stats.faults[name] = (stats.faults[name] ?? 0) + 1;
    if (record) requests.push({ index, attempt, method, path, headers: request.headers, body, fault: name });

    if (fault === 'drop') {
      request.socket.destroy();
      return;
    }
    if (typeof fault === 'object' && 'status' in fault) {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      const text = fault.body ?? errorBody(`injected fault ${fault.status}`, 'server_error', fault.status);
      sendJson(response, fault.status, text, headers);
      return;
    }
    if (typeof fault === 'object' && 'delayMs' in fault) {
      const finished = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), fault.delayMs);
        response.once('close', () => {
          clearTimeout(timer);
          resolve(false);
        });
      });
      if (!finished) return;
    }
    await route(method, path, body, context, response, fault === 'drop-mid');
  }

  async function route(
    method: string,
    path: string,
    body: unknown,
    context: FakeRequestContext,
    response: ServerResponse,
    dropMid: boolean,
  ): Promise<void> {
    const route = path.replace(/^\/v1(?=\/)/, '');
    let payload: unknown;
    if (method === 'POST' && route === '/chat/completions') {
      const chat = body as ChatCompletionRequest;
      let answer: FakeAnswer;
      try {
        answer = await respond(chat, context);
      } catch (error) {
        sendJson(response, 400, errorBody((error as Error).message, 'invalid_request_error', 400));
        return;
      }
      const id = `chatcmpl-fake-${context.index}`;
      const model = chat.model ?? defaultModel;
      if (chat.stream === true) {
        const bytes = Buffer.from(sseText(streamChunks(chat, answer, id, model, sse), sse), 'utf8');
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const limit = dropMid ? bytes.length >> 1 : bytes.length;
        const written = await writeInPieces(response, bytes, sse.writeSizes ?? defaultWriteSizes, limit);
        if (dropMid) {
          response.socket?.destroy();
          return;
        }
        // A client may close the connection as soon as it has read [DONE]: all bytes written counts.
        if (written) stats.answered++;
        response.end();
        return;
      }
      payload = completionBody(chat, answer, id, model);
    } else if (method === 'POST' && route === '/tokenize') {
      const request = body as { prompt?: string; messages?: unknown };
      const tokens = fakeTokens(
        typeof request.prompt === 'string' ? request.prompt : messagesText(request.messages),
      );
      payload = { count: tokens.length, max_model_len: maxModelLen, tokens };
    } else if (method === 'GET' && route === '/models') {
      payload = {
        object: 'list',
        data: [
          {
            id: defaultModel,
            object: 'model',
            created: fakeCreated,
            owned_by: 'fake',
            root: defaultModel,
            max_model_len: maxModelLen,
          },
        ],
      };
    } else {
      sendJson(response, 404, errorBody(`no route ${method} ${path}`, 'not_found_error', 404));
      return;
    }
    if (dropMid) {
      // Promise the whole body, send half of it, and cut the connection.
      const text = Buffer.from(JSON.stringify(payload), 'utf8');
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length });
      response.write(text.subarray(0, text.length >> 1));
      await nextTick();
      response.socket?.destroy();
      return;
    }
    sendJson(response, 200, payload);
    stats.answered++;
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, errorBody(String(error), 'server_error', 500));
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const rootURL = `http://127.0.0.1:${port}`;
  return {
    url: `${rootURL}/v1`,
    rootURL,
    requests,
    stats,
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
