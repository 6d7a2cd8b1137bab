// The environment service on node:http: POST /reset, POST /step, POST /get_reward and GET /health, JSON in
// and out. It translates and decides nothing: routing, bearer-token check, the body size limit and JSON
// parsing happen here; every protocol decision and its error status come from the service (EnvError).
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HarnessAugmentError } from '../../harness/issues.js';
import { findJsonSyntaxError, lineAndColumn } from '../../harness/json-syntax.js';
import { EnvError } from '../../runtime/env/env-error.js';
import { checkStepArguments, parseRequest, StepRequestSchema } from '../../runtime/env/schemas.js';
import type { EnvService } from '../../runtime/env/service.js';

/**
 * Options of `startEnvServer`: where it listens, the bearer token it requires, and the largest body it reads.
 */
export interface EnvServerOptions {
  /** Interface to listen on (default `127.0.0.1`; `0.0.0.0` exposes the server to the network). */
  host?: string;
  /** Port (default 0: any free port; read the chosen one from `url`). */
  port?: number;
  /**
   * When set, every route but GET /health needs `Authorization: Bearer <token>`. Health stays open so that
   * probes and load balancers need no secret; it reveals only the episode counts and the version.
   */
  token?: string;
  /** Largest request body in bytes (default 1 MiB); a larger one is answered 413 and the connection closed. */
  maxBodyBytes?: number;
}

/** A running environment HTTP server, as `startEnvServer` returns it: its base URL and how to stop it. */
export interface EnvServer {
  /** Base URL, e.g. `http://127.0.0.1:8000`. */
  url: string;
  /** Stops accepting connections and resolves once the server is closed. */
  close(): Promise<void>;
}

interface Route {
  method: 'GET' | 'POST';
  /** Whether the bearer token is required (when the server has one). */
  auth: boolean;
  run(service: EnvService, body: unknown): unknown;
}

/**
 * The protocol's routes.
 *
 * @example
 * Object.keys(envRoutes) // the protocol's paths: '/reset', '/step', …
 */
export const envRoutes: Readonly<Record<string, Route>> = Object.freeze({
  '/reset': { method: 'POST', auth: true, run: (service, body) => service.reset(body ?? {}) },
  '/step': {
    method: 'POST',
    auth: true,
    run: (service, body) => {
      const { episode_id, message } = parseRequest(StepRequestSchema, body, '/step');
      checkStepArguments(message);
      return service.step(episode_id, message);
    },
  },
  '/get_reward': { method: 'POST', auth: true, run: (service, body) => service.getReward(body) },
  '/health': { method: 'GET', auth: false, run: (service) => service.health() },
});

/** After close(), connections still busy get this long to finish before they are cut. */
const closeGraceMs = 2000;

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(text);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares the request's bearer token with the server's in constant time. */
function authorized(request: IncomingMessage, expected: Buffer): boolean {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  if (!match) return false;
  return timingSafeEqual(digest(match[1]!), expected);
}

/** Reads the body up to `limit` bytes; a larger body (declared or sent) rejects with a 413 at once. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () =>
    new EnvError(413, 'body_too_large', `request body is larger than the server's limit of ${limit} bytes`);
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop reading: the rest of the body is never buffered.
        request.off('data', onData);
        request.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', reject);
  });
}

function isJson(header: string | undefined): boolean {
  return typeof header === 'string' && /^application\/json\s*(;|$)/i.test(header.trim());
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as JSON, read as harness files are: invalid UTF-8 and a repeated key (which JSON.parse would
 * settle silently, the last one winning) are refused with where they are.
 */
function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new EnvError(400, 'invalid_request', 'request body is not valid UTF-8');
  }
  const syntax = findJsonSyntaxError(text);
  if (syntax) {
    const { line, column } = lineAndColumn(text, syntax.offset);
    throw new EnvError(
      400,
      'invalid_request',
      `request body is not valid JSON: ${syntax.message} at line ${line}, column ${column}`,
    );
  }
  return JSON.parse(text);
}

function errorResponse(error: unknown): { status: number; body: unknown } {
  if (EnvError.isEnvError(error)) return { status: error.status, body: error.toBody() };
  if (HarnessAugmentError.isInstance(error))
    return {
      status: 400,
      body: {
        error: {
          code: 'invalid_request',
          message: error.message,
          ...(error.issues.length > 0 ? { issues: error.issues } : {}),
        },
      },
    };
  const message = error instanceof Error ? error.message : String(error);
  return { status: 500, body: { error: { code: 'internal', message: `internal error: ${message}` } } };
}

/**
 * Serves an environment service over HTTP.
 *
 * @example
 * const server = await startEnvServer(createEnvService({ harness }), { port: 8000, token: process.env.HSA_ENV_TOKEN });
 * console.log(`listening on ${server.url}`);
 * await server.close();
 */
export async function startEnvServer(
  service: EnvService,
  options: EnvServerOptions = {},
): Promise<EnvServer> {
  const host = options.host ?? '127.0.0.1';
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  if (!Number.isInteger(limit) || limit < 1)
    throw new HarnessAugmentError(`maxBodyBytes must be a positive integer, got ${limit}`, { kind: 'usage' });
  if (options.token !== undefined && options.token === '')
    throw new HarnessAugmentError('the token must not be empty', { kind: 'usage' });
  const expected = options.token !== undefined ? digest(options.token) : undefined;
  let closing = false;

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const headers: Record<string, string> = closing ? { connection: 'close' } : {};
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const route = Object.hasOwn(envRoutes, path) ? envRoutes[path] : undefined;
    try {
      if (!route)
        throw new EnvError(
          404,
          'unknown_route',
          `no route ${path}; routes: ${Object.keys(envRoutes).join(', ')}`,
        );
      if (request.method !== route.method) {
        headers.allow = route.method;
        throw new EnvError(405, 'method_not_allowed', `${path} takes ${route.method}, not ${request.method}`);
      }
      if (route.auth && expected && !authorized(request, expected)) {
        headers['www-authenticate'] = 'Bearer';
        throw new EnvError(401, 'unauthorized', `${path} needs the header "Authorization: Bearer <token>"`);
      }
      // A web page may POST text/plain or a form to localhost without asking (no CORS preflight); it can
      // never send application/json that way, so requiring it keeps pages from driving the server.
      if (route.method === 'POST' && !isJson(request.headers['content-type']))
        throw new EnvError(
          415,
          'unsupported_media_type',
          `${path} takes "Content-Type: application/json", not ${request.headers['content-type'] ? JSON.stringify(request.headers['content-type']) : 'none'}`,
        );
      const body = route.method === 'POST' ? parseJson(await readBody(request, limit)) : undefined;
      const result = await route.run(service, body);
      // A health check that fails is a 503, so that a probe or load balancer sees it without reading JSON.
      const unhealthy = path === '/health' && (result as { status?: unknown }).status !== 'ok';
      send(response, unhealthy ? 503 : 200, result, headers);
    } catch (error) {
      const { status, body } = errorResponse(error);
      // After a 413 the rest of the body is unread: close the connection rather than read it.
      if (status === 413 || status === 415) headers.connection = 'close';
      send(response, status, body, headers);
    }
  }

  const server = createServer((request, response) => {
    void handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close() {
      closing = true;
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
        // Busy connections finish their request (answered with `connection: close`); stragglers are cut.
        const timer = setTimeout(() => server.closeAllConnections(), closeGraceMs);
        timer.unref();
        server.once('close', () => clearTimeout(timer));
      });
    },
  };
}
