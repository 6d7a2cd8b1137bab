// The OpenAI-compatible HTTP client: Chat Completions (plain and streamed), and the vLLM extras `/tokenize`
// and `/models`, on the global `fetch` with no dependency. Every call runs in a retry loop: 408, 409, 429,
// 5xx, dropped connections and timeouts are retried with exponential backoff and jitter (or the wait the
// server asked for); other 4xx fail at once; the caller's abort stops everything at once.
import seedrandom from 'seedrandom';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { ChatCallOptions, ChatCompletion, ChatModel, ChatRequest } from '../../runtime/chat-model.js';
import { OpenAICompatibleError, serverMessage } from './errors.js';
import {
  InvalidResponseError,
  parseChatCompletion,
  parseChatCompletionChunk,
  parseModelList,
  parseTokenizeResponse,
} from './response-schemas.js';
import {
  abortableSleep,
  type BackoffOptions,
  backoffDelay,
  isConnectionError,
  isRetryableStatus,
  retryAfterMs,
} from './retry.js';
import { readServerSentEvents } from './sse.js';
import { ChatCompletionAccumulator, IncompleteStreamError } from './tool-call-deltas.js';
import type { ChatCompletionChunk, ModelList, TokenizeRequest, TokenizeResponse } from './wire-types.js';

/** Why an attempt was retried: the HTTP status, a dropped connection, a timeout, a stream cut short. */
export type RetryReason = `http_${number}` | 'connection' | 'timeout' | 'stream_cut';

/** What `onRetry` is told before each wait. */
export interface RetryInfo {
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  reason: RetryReason;
  error: OpenAICompatibleError;
}

/** Counters over the life of a client. `calls` = `succeeded` + `failed` + `aborted` once all calls ended. */
export interface OpenAICompatibleStats {
  /** Calls made (complete, stream, tokenize, models…). */
  calls: number;
  /** HTTP requests sent, retries included. */
  requests: number;
  retries: number;
  /** Retries by reason, keys sorted. */
  retriesByReason: Record<string, number>;
  succeeded: number;
  /** Calls that ended with an OpenAICompatibleError. */
  failed: number;
  /** Calls the caller aborted, and streams the consumer stopped reading early. */
  aborted: number;
}

/**
 * Options of `createOpenAICompatible`: the endpoint and its credentials, the default model, and the
 * timeouts, retries and backoff of every call.
 */
export interface OpenAICompatibleOptions {
  /** The API root including the version, e.g. `http://127.0.0.1:8000/v1`. */
  baseURL: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Extra headers on every request; they win over the client's own. */
  headers?: Record<string, string>;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
  /** The model used when a request names none. */
  model?: string;
  /** Per-attempt timeout in ms (default 60000); for streams, the longest silence between two reads. */
  timeoutMs?: number;
  /** Retries after the first attempt (default 4). */
  maxRetries?: number;
  /**
   * The whole call, every attempt and wait included, in ms (default 60000): an endpoint that accepts and
   * never answers, or asks to retry after a long `Retry-After`, fails the call with its reason by then.
   */
  deadlineMs?: number;
  backoff?: BackoffOptions;
  /** Random numbers in [0, 1) for the jitter (default: seedrandom seeded 'hsa-client'). */
  random?: () => number;
  /** Send `developer` messages as `system`, which open-model chat templates understand (default true). */
  mapDeveloperToSystem?: boolean;
  /** The wait between attempts (default: an abortable setTimeout); tests inject one that records. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onRetry?: (info: RetryInfo) => void;
  /** The full URL of `/tokenize` (default: baseURL without its trailing `/v1`, plus `/tokenize`, as vLLM serves it). */
  tokenizeURL?: string;
  /**
   * The largest response body read, in bytes (default 16 MiB): a larger one is cut off as soon as it
   * passes the limit (never buffered whole) and fails as `invalid_response`, not retried.
   */
  maxResponseBytes?: number;
  /** The largest single Server-Sent Event of a stream, in bytes (default 16 MiB); a larger one fails the same way. */
  maxEventBytes?: number;
}

/** The default of `maxResponseBytes` and `maxEventBytes`: 16 MiB. */
export const defaultMaxResponseBytes = 16 * 1024 * 1024;

/** A ChatModel over an OpenAI-compatible endpoint, with streaming and the vLLM extras. */
export interface OpenAICompatibleClient extends ChatModel {
  readonly baseURL: string;
  /** POST /chat/completions, non-streaming. */
  complete(request: ChatRequest, options?: ChatCallOptions): Promise<ChatCompletion>;
  /**
   * POST /chat/completions with `stream: true`: the chunks as they arrive. Failures before the first byte
   * are retried; a stream cut later throws (its chunks were already handed out), use `completeStreaming`
   * to retry whole streams.
   */
  stream(
    request: ChatRequest,
    options?: ChatCallOptions,
  ): AsyncGenerator<ChatCompletionChunk, void, undefined>;
  /** Streams, assembles the chunks and returns the completion; a cut stream is retried from the start. */
  completeStreaming(request: ChatRequest, options?: ChatCallOptions): Promise<ChatCompletion>;
  /** vLLM `POST /tokenize`. */
  tokenize(request: TokenizeRequest, options?: ChatCallOptions): Promise<TokenizeResponse>;
  /** GET /models. */
  models(options?: ChatCallOptions): Promise<ModelList>;
  /**
   * POST a JSON body to another route with the same retries (`/completions` under baseURL, or a full URL
   * such as SGLang's `/generate`); without a body, GET. The parsed JSON is returned unchecked.
   */
  requestJson(route: string, body?: unknown, options?: ChatCallOptions): Promise<unknown>;
  /** A snapshot of the counters. */
  stats(): OpenAICompatibleStats;
}

/** One HTTP attempt: its own abort controller, a restartable timer, and the caller's signal linked in. */
class Attempt {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCallerAbort: () => void;
  timedOut = false;

  constructor(
    readonly timeoutMs: number,
    private readonly caller: AbortSignal | undefined,
  ) {
    // A restartable timer rather than AbortSignal.timeout: a stream's timeout is the silence between reads.
    this.onCallerAbort = () => this.controller.abort(caller?.reason);
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.restartTimer();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  restartTimer(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new DOMException(`no response within ${this.timeoutMs} ms`, 'TimeoutError'));
    }, this.timeoutMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

/** Whatever fetch or a body read threw: the transport failed (as opposed to a bug in our own code). */
class TransportError extends Error {
  constructor(
    readonly original: unknown,
    /** Thrown by fetch itself: no response byte came back. */
    readonly beforeResponse = false,
  ) {
    super('transport failure');
  }
}

async function transport<T>(operation: () => Promise<T>, beforeResponse = false): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof InvalidResponseError) throw error;
    throw new TransportError(error, beforeResponse);
  }
}

/**
 * Sends after a connection closed before any response byte, at most this many per call, that do not count
 * against `maxRetries`.
 */
const staleConnectionResends = 4;

/**
 * Whether fetch failed on a connection the server had closed before answering: the keep-alive race (the
 * server's idle timeout closes a pooled connection just as the client reuses it; undici reports
 * `UND_ERR_SOCKET` "other side closed", or `ECONNRESET`). No response byte came back, so the request is
 * sent again at once: whether a run hits the race must never change what it gets back, even with
 * `maxRetries: 0`. Chat completions, tokenize and models calls are safe to send again.
 */
function closedBeforeResponse(error: unknown): boolean {
  if (!(error instanceof TransportError) || !error.beforeResponse) return false;
  for (let current = error.original, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') break;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return true;
    if (typeof message === 'string' && /other side closed|socket hang up/i.test(message)) return true;
    current = cause;
  }
  return false;
}

/**
 * Reads a body as text, at most `limit` bytes: past it the read is cancelled (the rest is never received)
 * and an InvalidResponseError is thrown, or with `cut` the text so far is returned.
 */
async function readLimited(
  response: Response,
  limit: number,
  options: { cut?: boolean } = {},
): Promise<string> {
  const tooLarge = () =>
    new InvalidResponseError(
      `the response body is larger than the client's limit of ${limit} bytes (maxResponseBytes)`,
    );
  const declared = Number(response.headers.get('content-length'));
  if (!options.cut && Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        if (options.cut) return text + decoder.decode(value.subarray(0, value.byteLength - (size - limit)));
        throw tooLarge();
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    reader.releaseLock();
  }
}

interface Endpoint {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  accept: string;
}

function usage(message: string): HarnessAugmentError {
  return new HarnessAugmentError(message, { kind: 'usage' });
}

function checkOptions(options: OpenAICompatibleOptions): void {
  let url: URL;
  try {
    url = new URL(options.baseURL);
  } catch {
    throw usage(`openai-compatible: baseURL "${options.baseURL}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usage(`openai-compatible: baseURL "${options.baseURL}" must be http or https`);
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0))
    throw usage(`openai-compatible: timeoutMs must be positive, got ${options.timeoutMs}`);
  if (options.deadlineMs !== undefined && !(options.deadlineMs > 0))
    throw usage(`openai-compatible: deadlineMs must be positive, got ${options.deadlineMs}`);
  if (options.maxRetries !== undefined && !(Number.isInteger(options.maxRetries) && options.maxRetries >= 0))
    throw usage(`openai-compatible: maxRetries must be a non-negative integer, got ${options.maxRetries}`);
}

function describeCause(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (typeof current !== 'object') {
      parts.push(String(current));
      break;
    }
    const { message, code, cause } = current as { message?: unknown; code?: unknown; cause?: unknown };
    const text = [typeof code === 'string' ? code : '', typeof message === 'string' ? message : '']
      .filter(Boolean)
      .join(' ');
    if (text && !parts.includes(text)) parts.push(text);
    current = cause;
  }
  return parts.join(': ') || 'unknown error';
}

/** The default deadline of one call, all attempts and waits included. */
export const defaultCallDeadlineMs = 60_000;

/**
 * Creates a client for an OpenAI-compatible endpoint (vLLM, SGLang, a hosted API). It implements the
 * runtime's ChatModel, so an agent loop can use it as is.
 *
 * @example
 * const client = createOpenAICompatible({ baseURL: 'http://127.0.0.1:8000/v1', model: 'Qwen/Qwen3-8B' });
 * const completion = await client.complete({ messages: [{ role: 'user', content: 'hi' }] });
 * completion.choices[0].message.content;
 */
export function createOpenAICompatible(options: OpenAICompatibleOptions): OpenAICompatibleClient {
  checkOptions(options);
  const baseURL = options.baseURL.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxResponseBytes = options.maxResponseBytes ?? defaultMaxResponseBytes;
  const maxEventBytes = options.maxEventBytes ?? defaultMaxResponseBytes;
  const maxRetries = options.maxRetries ?? 4;
  const deadlineMs = options.deadlineMs ?? defaultCallDeadlineMs;
  const backoff = options.backoff ?? {};
  const random = options.random ?? seedrandom('hsa-client');
  const sleep = options.sleep ?? abortableSleep;
  const mapDeveloper = options.mapDeveloperToSystem ?? true;
  const tokenizeURL = options.tokenizeURL ?? `${baseURL.replace(/\/v1$/, '')}/tokenize`;
  const counters = { calls: 0, requests: 0, retries: 0, succeeded: 0, failed: 0, aborted: 0 };
  const retriesByReason = new Map<string, number>();

  function headers(endpoint: Endpoint): Headers {
    const result = new Headers({ accept: endpoint.accept });
    if (endpoint.body !== undefined) result.set('content-type', 'application/json');
    if (options.apiKey) result.set('authorization', `Bearer ${options.apiKey}`);
    for (const [name, value] of Object.entries(options.headers ?? {})) result.set(name, value);
    return result;
  }

  /** Sends one attempt; a non-2xx status becomes an OpenAICompatibleError. */
  async function send(endpoint: Endpoint, attempt: Attempt): Promise<Response> {
    counters.requests++;
    const init: RequestInit = { method: endpoint.method, headers: headers(endpoint), signal: attempt.signal };
    if (endpoint.body !== undefined) init.body = JSON.stringify(endpoint.body);
    const response = await transport(() => fetchImpl(endpoint.url, init), true);
    if (response.ok) return response;
    // An error body is only read for its message: a small piece is enough.
    const body = await readLimited(response, Math.min(maxResponseBytes, 64 * 1024), { cut: true }).catch(
      () => '',
    );
    const said = serverMessage(body) ?? body.slice(0, 200);
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    const requested = retryAfterMs(response.headers);
    throw new OpenAICompatibleError(said ? `${status}: ${said}` : status, {
      code: 'http_error',
      method: endpoint.method,
      url: endpoint.url,
      statusCode: response.status,
      isRetryable: isRetryableStatus(response.status),
      responseBody: body,
      ...(requested === undefined ? {} : { retryAfterMs: requested }),
    });
  }

  /**
   * Turns what an attempt threw into an OpenAICompatibleError; undefined for an error that is neither the
   * transport's nor the server's (a bug), which the caller rethrows as it is.
   */
  function toClientError(
    error: unknown,
    attempt: Attempt,
    endpoint: Endpoint,
  ): OpenAICompatibleError | undefined {
    if (OpenAICompatibleError.isInstance(error)) return error;
    const original = error instanceof TransportError ? error.original : error;
    const where = { method: endpoint.method, url: endpoint.url, cause: original };
    if (attempt.timedOut)
      return new OpenAICompatibleError(`no response within ${attempt.timeoutMs} ms`, {
        ...where,
        code: 'timeout',
        isRetryable: true,
      });
    if (error instanceof InvalidResponseError)
      return new OpenAICompatibleError(error.message, {
        ...where,
        code: 'invalid_response',
        isRetryable: false,
      });
    if (error instanceof IncompleteStreamError)
      return new OpenAICompatibleError(error.message, { ...where, code: 'stream_error', isRetryable: false });
    if (!(error instanceof TransportError)) return undefined;
    // fetch's TypeError and socket errors are worth another try; anything else fetch threw is not.
    const retryable = isConnectionError(original);
    return new OpenAICompatibleError(
      `${retryable ? 'connection failed' : 'request failed'}: ${describeCause(original)}`,
      {
        ...where,
        code: 'connection_error',
        isRetryable: retryable,
      },
    );
  }

  function reasonOf(error: OpenAICompatibleError): RetryReason {
    if (error.code === 'http_error') return `http_${error.statusCode ?? 0}`;
    if (error.code === 'timeout') return 'timeout';
    if (error.code === 'stream_error') return 'stream_cut';
    return 'connection';
  }

  /**
   * Runs `run` until it succeeds, fails for good, or the caller aborts. With `keep`, the successful
   * attempt is handed to the caller, who disposes of it (a stream still being read).
   */
  async function withRetries<T>(
    endpoint: Endpoint,
    signal: AbortSignal | undefined,
    run: (attempt: Attempt) => Promise<T>,
    keep = false,
  ): Promise<{ value: T; attempt: Attempt; attempts: number }> {
    let resends = 0;
    const deadline = Date.now() + deadlineMs;
    for (let number = 1; ; number++) {
      if (signal?.aborted) {
        counters.aborted++;
        throw signal.reason;
      }
      // No attempt outlives the call's deadline.
      const attempt = new Attempt(Math.max(1, Math.min(timeoutMs, deadline - Date.now())), signal);
      let failure: OpenAICompatibleError;
      let resend = false;
      try {
        const value = await run(attempt);
        if (!keep) {
          attempt.dispose();
          counters.succeeded++;
        }
        return { value, attempt, attempts: number };
      } catch (error) {
        attempt.dispose();
        if (signal?.aborted) {
          counters.aborted++;
          throw signal.reason;
        }
        const mapped = toClientError(error, attempt, endpoint);
        if (!mapped) {
          counters.failed++;
          throw error;
        }
        failure = mapped;
        resend = !attempt.timedOut && resends < staleConnectionResends && closedBeforeResponse(error);
      }
      if (resend) resends++;
      else if (!failure.isRetryable || number - resends > maxRetries) {
        counters.failed++;
        throw failure.withAttempts(number);
      }
      const reason = reasonOf(failure);
      // A send again after a closed connection does not wait: the next connection is a fresh one.
      const delayMs = resend ? 0 : backoffDelay(number - resends, backoff, random, failure.retryAfterMs);
      if (Date.now() + delayMs >= deadline) {
        counters.failed++;
        throw failure.pastDeadline(deadlineMs, delayMs).withAttempts(number);
      }
      counters.retries++;
      retriesByReason.set(reason, (retriesByReason.get(reason) ?? 0) + 1);
      options.onRetry?.({ attempt: number, delayMs, reason, error: failure });
      try {
        if (!resend) await sleep(delayMs, signal);
      } catch (error) {
        if (!signal?.aborted) throw error;
      }
    }
  }

  async function readJson(response: Response): Promise<unknown> {
    const text = await transport(() => readLimited(response, maxResponseBytes));
    try {
      return JSON.parse(text);
    } catch {
      throw new InvalidResponseError(`the response is not JSON: ${text.slice(0, 200)}`);
    }
  }

  function chatBody(request: ChatRequest, stream: boolean): Record<string, unknown> {
    const { stream: streamFlag, stream_options: streamOptions, ...rest } = request;
    if (streamFlag === true && !stream)
      throw usage(
        'openai-compatible: complete() sends non-streaming requests; use completeStreaming() or stream()',
      );
    const body: Record<string, unknown> = { model: request.model ?? options.model, ...rest };
    if (body.model === undefined) delete body.model;
    if (mapDeveloper)
      body.messages = request.messages.map((message) =>
        message.role === 'developer' ? { ...message, role: 'system' } : message,
      );
    if (stream) {
      body.stream = true;
      body.stream_options = streamOptions ?? { include_usage: true };
    }
    return body;
  }

  /** Reads the chunks of a streamed response; throws raw errors, the callers map them. */
  async function* readChunks(
    response: Response,
    attempt: Attempt,
    endpoint: Endpoint,
  ): AsyncGenerator<ChatCompletionChunk, void, undefined> {
    if (!response.body) throw new InvalidResponseError('the streamed response has no body');
    let sawDone = false;
    let sawFinish = false;
    const events = readServerSentEvents(response.body, () => attempt.restartTimer(), { maxEventBytes });
    try {
      for (;;) {
        const next = await transport(() => events.next());
        if (next.done) break;
        const event = next.value;
        if (event.data === '[DONE]') {
          sawDone = true;
          break;
        }
        let json: unknown;
        try {
          json = JSON.parse(event.data);
        } catch {
          throw new InvalidResponseError(`a stream event is not JSON: ${event.data.slice(0, 200)}`);
        }
        if (event.event === 'error' || (isRecord(json) && 'error' in json && !('choices' in json)))
          throw streamErrorEvent(json, event.data, endpoint);
        const chunk = parseChatCompletionChunk(json);
        if (chunk.choices.some((choice) => choice.finish_reason)) sawFinish = true;
        yield chunk;
      }
    } finally {
      // Stopped early ([DONE], an error, a consumer that left): release the connection.
      await events.return(undefined);
    }
    // Servers end with [DONE]; a body that ends without it, before any finish reason, was cut short.
    if (!sawDone && !sawFinish)
      throw new OpenAICompatibleError('the stream ended before [DONE]', {
        code: 'stream_error',
        method: endpoint.method,
        url: endpoint.url,
        isRetryable: true,
      });
  }

  function streamErrorEvent(json: unknown, data: string, endpoint: Endpoint): OpenAICompatibleError {
    const error = isRecord(json) && isRecord(json.error) ? json.error : isRecord(json) ? json : {};
    const status = typeof error.code === 'number' ? error.code : undefined;
    const message = typeof error.message === 'string' ? error.message : data.slice(0, 200);
    return new OpenAICompatibleError(`error event in the stream: ${message}`, {
      code: 'stream_error',
      method: endpoint.method,
      url: endpoint.url,
      isRetryable: status !== undefined && isRetryableStatus(status),
      responseBody: data,
      ...(status === undefined ? {} : { statusCode: status }),
    });
  }

  const chatEndpoint = (body: unknown, stream: boolean): Endpoint => ({
    method: 'POST',
    url: `${baseURL}/chat/completions`,
    body,
    accept: stream ? 'text/event-stream' : 'application/json',
  });

  async function call<T>(
    endpoint: Endpoint,
    signal: AbortSignal | undefined,
    parse: (value: unknown) => T,
  ): Promise<T> {
    counters.calls++;
    const { value } = await withRetries(endpoint, signal, async (attempt) =>
      parse(await readJson(await send(endpoint, attempt))),
    );
    return value;
  }

  return {
    baseURL,

    async complete(request, callOptions) {
      return call(chatEndpoint(chatBody(request, false), false), callOptions?.signal, parseChatCompletion);
    },

    async *stream(request, callOptions) {
      const signal = callOptions?.signal;
      const endpoint = chatEndpoint(chatBody(request, true), true);
      counters.calls++;
      const {
        value: response,
        attempt,
        attempts,
      } = await withRetries(endpoint, signal, (attempt) => send(endpoint, attempt), true);
      let outcome: 'succeeded' | 'failed' | 'aborted' = 'aborted';
      try {
        yield* readChunks(response, attempt, endpoint);
        outcome = 'succeeded';
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        outcome = 'failed';
        throw toClientError(error, attempt, endpoint)?.withAttempts(attempts) ?? error;
      } finally {
        attempt.dispose();
        counters[outcome]++;
      }
    },

    async completeStreaming(request, callOptions) {
      const endpoint = chatEndpoint(chatBody(request, true), true);
      counters.calls++;
      const { value } = await withRetries(endpoint, callOptions?.signal, async (attempt) => {
        const accumulator = new ChatCompletionAccumulator();
        for await (const chunk of readChunks(await send(endpoint, attempt), attempt, endpoint))
          accumulator.push(chunk);
        return accumulator.result();
      });
      return value;
    },

    async tokenize(request, callOptions) {
      const body = { ...request, model: request.model ?? options.model };
      if (body.model === undefined) delete body.model;
      const endpoint: Endpoint = { method: 'POST', url: tokenizeURL, body, accept: 'application/json' };
      return call(endpoint, callOptions?.signal, parseTokenizeResponse);
    },

    async models(callOptions) {
      const endpoint: Endpoint = { method: 'GET', url: `${baseURL}/models`, accept: 'application/json' };
      return call(endpoint, callOptions?.signal, parseModelList);
    },

    async requestJson(route, body, callOptions) {
      const url = /^https?:\/\//.test(route)
        ? route
        : `${baseURL}${route.startsWith('/') ? '' : '/'}${route}`;
      const endpoint: Endpoint =
        body === undefined
          ? { method: 'GET', url, accept: 'application/json' }
          : { method: 'POST', url, body, accept: 'application/json' };
      return call(endpoint, callOptions?.signal, (value) => value);
    },

    stats() {
      const byReason: Record<string, number> = {};
      for (const key of [...retriesByReason.keys()].sort()) byReason[key] = retriesByReason.get(key) ?? 0;
      return { ...counters, retriesByReason: byReason };
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
