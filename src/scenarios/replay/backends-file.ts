// The replay scenario's files: a trajectories JSONL file (every line validated under the harness) and a
// backends file choosing the tool backends: `recorded`, `{ module: ./tools.ts }`,
// `{ mcp: { command, args, env } }` or `{ mcp: { url } }`, as the default and per base tool name, and
// `servers:` — MCP servers that each answer all their tools (`tools: all`, or a list). One connection per
// server for the whole run (the same server written twice is started once). The MCP client is injected
// (`connectMcp`): a scenario never opens the network itself.
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { canonicalJson } from '../../harness/canonical-json.js';
import { locateIssues, readDocument } from '../../harness/documents.js';
import type { HookCheckRegistry } from '../../harness/hook-checks.js';
import { HarnessAugmentError, type Issue } from '../../harness/issues.js';
import { fromZodIssues } from '../../harness/parse-harness.js';
import type { Harness } from '../../harness/schema.js';
import type { ToolBackendFactory } from '../../runtime/backends/backend-factory.js';
import { moduleBackend, type ToolModule } from '../../runtime/backends/module.js';
import { readJsonl } from '../../trajectory/read-jsonl.js';
import type { Trajectory } from '../../trajectory/schema.js';
import { validateTrajectory } from '../../trajectory/validate-trajectory.js';
import { type ReplayPlayer, replayPlayers } from './replay-oracle.js';
import type { ToolBackendChoice } from './replay-scenario.js';

const McpStdioSchema = z.strictObject({
  command: z.string().min(1).describe('The program that starts the server, e.g. `node` or `npx`.'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}).describe('Added to the default environment.'),
  cwd: z.string().min(1).optional().describe('Relative to the backends file.'),
});
const McpHttpSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' })
    .describe('The Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp.'),
  headers: z.record(z.string(), z.string()).default({}),
});

/**
 * One backend choice of a backends file: `recorded`, `{ module }` or `{ mcp }`.
 *
 * @example
 * BackendChoiceSchema.parse({ module: './tools.ts' });
 */
export const BackendChoiceSchema = z.union(
  [
    z.literal('recorded').describe('Answer from the logged results (the default).'),
    z.strictObject({
      module: z.string().min(1).describe('A JS/TS module exporting one function per tool, or createTools().'),
    }),
    z.strictObject({
      mcp: z.union([McpStdioSchema, McpHttpSchema], {
        error: 'expected { command, args?, env?, cwd? } (stdio) or { url, headers? } (Streamable HTTP)',
      }),
    }),
  ],
  { error: 'expected recorded, { module: <path> } or { mcp: { command, args, env } | { url } }' },
);

/**
 * One MCP server of a backends file: started once, it answers every tool it is given.
 *
 * @example
 * McpServerEntrySchema.parse({ mcp: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } });
 */
export const McpServerEntrySchema = z.strictObject({
  mcp: z.union([McpStdioSchema, McpHttpSchema], {
    error: 'expected { command, args?, env?, cwd? } (stdio) or { url, headers? } (Streamable HTTP)',
  }),
  tools: z
    .union([z.literal('all'), z.array(z.string().min(1)).min(1)])
    .default('all')
    .describe('The base tools it answers: `all` (every tool it lists) or a list of names it lists.'),
});

/**
 * A `--backends` file: MCP servers (each one process, answering all its tools), the default backend, and
 * backends per base tool name. A tool is answered by the one entry that names it, else by the default.
 *
 * @example
 * BackendsFileSchema.parse({ default: 'recorded', tools: { search_kb: { module: './kb.ts' } } });
 */
export const BackendsFileSchema = z.strictObject({
  servers: z.record(z.string().min(1), McpServerEntrySchema).default({}),
  default: BackendChoiceSchema.default('recorded'),
  tools: z.record(z.string().min(1), BackendChoiceSchema).default({}),
});

/**
 * One backend choice of a backends file, as `BackendChoiceSchema` parses it: `recorded`, `{ module }` or
 * `{ mcp }`.
 */
export type BackendChoice = z.infer<typeof BackendChoiceSchema>;
/**
 * A `--backends` file as `readBackendsFile` returns it, defaults filled; `buildBackends` turns it into
 * backends.
 */
export type BackendsFile = z.infer<typeof BackendsFileSchema>;

const usage = (message: string) => new HarnessAugmentError(message, { kind: 'usage' });

/**
 * Reads a trajectories JSONL file and validates every line under the harness; throws one error listing
 * every bad line (file, line, path, rule).
 *
 * @example
 * const trajectories = await readReplayTrajectories('fixtures/helpdesk/trajectories.jsonl', harness);
 */
export async function readReplayTrajectories(
  file: string,
  harness: Harness,
  hookChecks?: HookCheckRegistry,
): Promise<Trajectory[]> {
  const trajectories: Trajectory[] = [];
  const issues: Issue[] = [];
  const lines = new Map<string, number>();
  for await (const record of readJsonl(file)) {
    if ('issue' in record) {
      issues.push({ ...record.issue, file, line: record.line });
      continue;
    }
    const validation = validateTrajectory(record.value, harness, { hookChecks });
    const located = (issue: Issue) => ({ ...issue, file, line: record.line });
    if (!validation.valid || !validation.trajectory) {
      issues.push(...validation.issues.map(located));
      continue;
    }
    const id = validation.trajectory.id;
    const earlier = lines.get(id);
    if (earlier !== undefined) {
      issues.push(
        located({
          code: 'duplicate_id',
          path: ['id'],
          message: `trajectory id "${id}" already appears on line ${earlier}`,
        }),
      );
      continue;
    }
    lines.set(id, record.line);
    trajectories.push(validation.trajectory);
  }
  if (issues.length > 0)
    throw new HarnessAugmentError(
      `${file}: ${new Set(issues.map((issue) => issue.line)).size} line(s) are not valid trajectories under harness "${harness.id}"`,
      { issues },
    );
  if (trajectories.length === 0) throw usage(`${file}: no trajectories`);
  return trajectories;
}

/**
 * Reads and checks a `--backends` file; issues carry the file and line.
 *
 * @example
 * const backends = await readBackendsFile('backends.yaml');
 */
export async function readBackendsFile(file: string): Promise<BackendsFile> {
  const document = await readDocument(file);
  const parsed = BackendsFileSchema.safeParse(document.value ?? {});
  if (!parsed.success)
    throw new HarnessAugmentError(`${file}: invalid backends file`, {
      issues: locateIssues(fromZodIssues(parsed.error.issues), document),
    });
  return parsed.data;
}

async function importToolModule(file: string, where: string): Promise<ToolModule> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw usage(`${where}: cannot import ${file}: ${(error as Error).message}`);
  }
  if (typeof module.createTools === 'function') return module as ToolModule;
  const candidate = typeof module.default === 'object' && module.default !== null ? module.default : module;
  if (typeof (candidate as { createTools?: unknown }).createTools === 'function')
    return candidate as ToolModule;
  const functions = Object.entries(candidate as Record<string, unknown>).filter(
    ([, value]) => typeof value === 'function',
  );
  if (functions.length === 0)
    throw usage(
      `${where}: ${file} exports no tool function (export one function per tool, or createTools())`,
    );
  return candidate as ToolModule;
}

/** How to reach one MCP server of a backends file: stdio (a command) or Streamable HTTP (a URL). */
export type McpServerSpec =
  | { command: string; args?: readonly string[]; env?: Readonly<Record<string, string>>; cwd?: string }
  | { url: string; headers?: Readonly<Record<string, string>> };

/** A backend factory for one MCP server that connects once and then knows the tools it lists. */
export interface McpConnection extends ToolBackendFactory {
  connect(): Promise<void>;
  readonly tools: readonly string[];
  close(): Promise<void>;
}

/** Options of `buildBackends`: the harness's tools, and how to start the MCP servers the file names. */
export interface BuildBackendsOptions<Connection extends McpConnection = McpConnection> {
  /** The harness's tools: a server's `tools: all` answers those of them it lists. */
  harnessTools?: ReadonlySet<string>;
  /**
   * Starts an MCP server's backend; needed when the file names one. Pass `createMcpBackend` from
   * `harness-augment/adapters` (the scenarios never open a connection themselves).
   */
  connectMcp?: (server: McpServerSpec) => Connection;
}

/**
 * The backend factories a backends file names, built (modules imported, MCP servers connected so that
 * their tools are known); factories that open something are returned in `opened` to close on failure.
 *
 * @example
 * const built = await buildBackends('backends.yaml', await readBackendsFile('backends.yaml'), {
 *   connectMcp: createMcpBackend,
 * });
 */
export async function buildBackends<Connection extends McpConnection = McpConnection>(
  file: string,
  backends: BackendsFile,
  options: BuildBackendsOptions<Connection> = {},
): Promise<{
  default: ToolBackendChoice;
  tools: Record<string, ToolBackendChoice>;
  opened: Connection[];
}> {
  const { harnessTools, connectMcp } = options;
  const folder = dirname(resolve(file));
  const opened: Connection[] = [];
  const modules = new Map<string, ToolBackendFactory>();
  // One process per server: the same server written twice (per tool, in the old one-entry-per-tool style)
  // is started once.
  const servers = new Map<string, Connection>();
  const mcpServer = async (server: Extract<BackendChoice, { mcp: unknown }>['mcp']) => {
    if (!connectMcp)
      throw usage(
        `${file}: names an MCP server; pass connectMcp (createMcpBackend from harness-augment/adapters) to start it`,
      );
    const serverOptions: McpServerSpec =
      'url' in server
        ? { url: server.url, headers: server.headers }
        : {
            command: server.command,
            args: server.args,
            env: server.env,
            ...(server.cwd ? { cwd: resolve(folder, server.cwd) } : {}),
          };
    const key = canonicalJson(serverOptions);
    let factory = servers.get(key);
    if (!factory) {
      factory = connectMcp(serverOptions);
      servers.set(key, factory);
      opened.push(factory);
      await factory.connect();
    }
    return factory;
  };
  const build = async (choice: BackendChoice, where: string): Promise<ToolBackendChoice> => {
    if (choice === 'recorded') return 'recorded';
    if ('module' in choice) {
      const path = resolve(folder, choice.module);
      // One module file is one backend, whatever the number of tools routed to it.
      let factory = modules.get(path);
      if (!factory) {
        factory = moduleBackend(await importToolModule(path, where));
        modules.set(path, factory);
      }
      return factory;
    }
    return mcpServer(choice.mcp);
  };
  try {
    const fallback = await build(backends.default, `${file}: default`);
    const tools: Record<string, ToolBackendChoice> = {};
    const claimedBy = new Map<string, string>();
    for (const name of Object.keys(backends.servers).sort()) {
      const entry = backends.servers[name]!;
      const factory = await mcpServer(entry.mcp);
      const listed = factory.tools;
      const wanted =
        entry.tools === 'all'
          ? listed.filter((tool) => !harnessTools || harnessTools.has(tool))
          : [...entry.tools].sort();
      const missing = wanted.filter((tool) => !listed.includes(tool));
      if (missing.length > 0)
        throw usage(
          `${file}: servers.${name}: the server does not list ${missing.map((tool) => `"${tool}"`).join(', ')} (it lists ${listed.join(', ') || 'no tool'})`,
        );
      for (const tool of wanted) {
        const earlier = claimedBy.get(tool) ?? (Object.hasOwn(backends.tools, tool) ? 'tools' : undefined);
        if (earlier !== undefined)
          throw usage(
            `${file}: tool "${tool}" is answered by both servers.${name} and ${earlier === 'tools' ? `tools.${tool}` : `servers.${earlier}`}; name it in one place`,
          );
        claimedBy.set(tool, name);
        tools[tool] = factory;
      }
    }
    for (const name of Object.keys(backends.tools).sort())
      tools[name] = await build(backends.tools[name]!, `${file}: tools.${name}`);
    return { default: fallback, tools, opened };
  } catch (error) {
    await Promise.all(opened.map((factory) => factory.close().catch(() => {})));
    throw error;
  }
}

/**
 * Reads `--player`: which scripted policy the oracle plays.
 *
 * @example
 * parsePlayer('base-names') // 'base-names'
 */
export function parsePlayer(text: string | undefined): ReplayPlayer {
  if (text === undefined) return 'gold';
  if (!(replayPlayers as readonly string[]).includes(text))
    throw usage(`--player must be ${replayPlayers.join(' or ')}, got "${text}"`);
  return text as ReplayPlayer;
}
