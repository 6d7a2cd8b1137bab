// The `mcp` tool backend: a real MCP server, spawned over stdio or reached over Streamable HTTP, through
// the official SDK client. One connection per backend factory, opened on first use and shared by the
// episodes; calls arrive in the base vocabulary (the runtime mapped them back from a variant's) and go to
// the server unchanged; `close` ends the connection and, for stdio, the child process.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpTool } from '../../harness/importers/mcp-tools.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { ToolBackendFactory } from '../../runtime/backends/backend-factory.js';
import type { ToolBackend } from '../../runtime/scenario.js';
import { toolError } from '../../runtime/tool-runtime.js';
import { type McpCallResult, toToolOutcome } from './to-tool-outcome.js';

/** Where the server is: a command to spawn (stdio) or a Streamable HTTP endpoint. */
export type McpServerOptions =
  | {
      command: string;
      args?: readonly string[];
      /** Added to the SDK's default environment (PATH, HOME, …), not replacing it. */
      env?: Readonly<Record<string, string>>;
      cwd?: string;
    }
  | { url: string; headers?: Readonly<Record<string, string>> };

/**
 * Options of `createMcpBackend` beyond the server itself: the client name, the request timeout, call order
 * and restarts.
 */
export interface McpBackendOptions {
  /** The client name sent in `initialize` (default `harness-augment`). */
  clientName?: string;
  /** Milliseconds a request may take before the SDK gives up (default: the SDK's 60 000). */
  requestTimeoutMs?: number;
  /**
   * Send one call at a time, in the order the runtime made them (default true). The runtime runs the calls
   * of one message concurrently; a server without its own locking (server-memory rewrites one file per
   * call) could then lose an update, and the same episodes would not leave the same state on every run.
   */
  serial?: boolean;
  /**
   * Times a server whose connection ended (it crashed, was killed, closed stdout) is started again, for the
   * next episode (default 3). With none left, `health()` says why the backend cannot serve.
   */
  maxRestarts?: number;
}

/** A backend factory holding one MCP connection. */
export interface McpBackendFactory extends ToolBackendFactory {
  /** Connects (once) and reads the server's tools; later calls return at once. */
  connect(): Promise<void>;
  /** The server's tools as `tools/list` gave them (all pages); empty before `connect`. */
  readonly listed: readonly McpTool[];
  /** Tool names the server lists; empty before `connect`. */
  readonly tools: readonly string[];
  /**
   * The server's `instructions` from its `initialize` answer (how to use its tools; a client may put them in
   * the system prompt), and its name; undefined before `connect` or where the server gives none.
   */
  readonly instructions: string | undefined;
  readonly serverName: string | undefined;
  /** The child process id of a stdio server while it runs. */
  readonly pid: number | null;
  /** Why the server cannot serve (its connection ended and no restart is left); undefined while it can. */
  health(): string | undefined;
  close(): Promise<void>;
}

const where = (server: McpServerOptions) =>
  'url' in server ? server.url : [server.command, ...(server.args ?? [])].join(' ');

/**
 * An MCP server as a tool backend factory.
 *
 * @example
 * const memory = createMcpBackend({ command: 'node', args: ['server.js'], env: { MEMORY_FILE_PATH: file } });
 * await memory.connect();
 * const scenario = createReplayScenario({ trajectories, backends: { default: memory } });
 * // … run episodes …
 * await scenario.close(); // closes the connection and ends the child process
 */
export function createMcpBackend(
  server: McpServerOptions,
  options: McpBackendOptions = {},
): McpBackendFactory {
  let client: Client | undefined;
  let transport: StdioClientTransport | StreamableHTTPClientTransport | undefined;
  let connecting: Promise<void> | undefined;
  let listed: McpTool[] = [];
  let instructions: string | undefined;
  let serverName: string | undefined;
  let stderr = '';
  let closed = false;
  /** Why the current connection ended, once it has; calls of the episode that saw it get this reason. */
  let lost: string | undefined;
  let restarts = 0;
  const maxRestarts = options.maxRestarts ?? 3;
  const requestOptions = options.requestTimeoutMs !== undefined ? { timeout: options.requestTimeoutMs } : {};

  const open = async () => {
    if ('url' in server) {
      transport = new StreamableHTTPClientTransport(new URL(server.url), {
        ...(server.headers ? { requestInit: { headers: { ...server.headers } } } : {}),
      });
    } else {
      const stdio = new StdioClientTransport({
        command: server.command,
        args: [...(server.args ?? [])],
        env: { ...getDefaultEnvironment(), ...(server.env ?? {}) },
        ...(server.cwd ? { cwd: server.cwd } : {}),
        stderr: 'pipe',
      });
      // Kept (its tail) for error messages; a pipe nobody reads could fill and stall the server.
      stdio.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-2000);
      });
      transport = stdio;
    }
    const own = new Client({ name: options.clientName ?? 'harness-augment', version: '1' });
    client = own;
    // The SDK then answers every call "Not connected"; say instead what happened, and restart next episode.
    own.onclose = () => {
      if (closed || client !== own || lost !== undefined) return;
      const detail = stderr.trim()
        ? ` (server said: ${stderr.trim().split('\n').slice(-3).join(' | ')})`
        : '';
      lost = `the MCP server ${where(server)} ended its connection${detail}`;
    };
    try {
      await client.connect(transport, requestOptions);
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, requestOptions);
        tools.push(...(page.tools as McpTool[]));
        cursor = page.nextCursor;
      } while (cursor);
      listed = tools;
      instructions = client.getInstructions();
      serverName = client.getServerVersion()?.name;
    } catch (error) {
      await own.close().catch(() => {});
      if (client === own) client = undefined;
      const detail = stderr.trim()
        ? ` (server said: ${stderr.trim().split('\n').slice(-3).join(' | ')})`
        : '';
      throw new HarnessAugmentError(
        `cannot connect to the MCP server ${where(server)}: ${(error as Error).message}${detail}`,
        { kind: 'usage', cause: error },
      );
    }
  };

  const connect = () => {
    if (closed)
      return Promise.reject(new HarnessAugmentError('the MCP backend is closed', { kind: 'usage' }));
    connecting ??= open();
    return connecting;
  };

  const serial = options.serial ?? true;
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    if (!serial) return work();
    const run = queue.then(work, work);
    queue = run.catch(() => {});
    return run;
  };

  const backend: ToolBackend = {
    call: (request, context) =>
      inTurn(async () => {
        if (lost !== undefined)
          return toolError('tool_error', `${lost}; it is restarted for the next episode`);
        try {
          await connect();
        } catch (error) {
          lost = (error as Error).message;
          return toolError('tool_error', lost);
        }
        try {
          const result = await client!.callTool(
            { name: request.name, arguments: request.arguments },
            undefined,
            {
              ...requestOptions,
              signal: context.signal,
            },
          );
          return toToolOutcome(result as McpCallResult);
        } catch (error) {
          if (context.signal.aborted) return toolError('timeout', `"${request.name}" did not answer in time`);
          if (lost !== undefined)
            return toolError('tool_error', `${lost}; it is restarted for the next episode`);
          return toolError('tool_error', (error as Error).message);
        }
      }),
  };

  /** A new episode after the connection ended starts the server again, while restarts remain. */
  const factory = () => {
    if (lost !== undefined && !closed && restarts < maxRestarts) {
      restarts++;
      lost = undefined;
      const old = client;
      client = undefined;
      connecting = undefined;
      void old?.close().catch(() => {});
    }
    return backend;
  };
  const health = () =>
    lost !== undefined
      ? `${lost}; ${restarts === 0 ? 'no restart is allowed' : `restarted ${restarts} time(s), no restart left`}`
      : undefined;
  // Getters, not values: Object.assign would copy what they read before the server is connected.
  return Object.defineProperties(factory, {
    connect: { value: connect },
    health: { value: () => (restarts < maxRestarts ? undefined : health()) },
    listed: { get: () => listed },
    tools: { get: () => listed.map((tool) => tool.name).sort() },
    instructions: { get: () => instructions },
    serverName: { get: () => serverName },
    pid: { get: () => (transport instanceof StdioClientTransport ? transport.pid : null) },
    close: {
      value: async () => {
        closed = true;
        await connecting?.catch(() => {});
        const current = client;
        client = undefined;
        await current?.close();
      },
    },
  }) as unknown as McpBackendFactory;
}
