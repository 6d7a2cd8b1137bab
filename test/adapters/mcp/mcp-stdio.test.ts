// The MCP backend against a real MCP server from npm (@modelcontextprotocol/server-memory) over stdio:
// episodes replayed under variants with renamed tools and parameters leave the server in the same state as
// the same episodes under the base harness.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpBackend, type McpBackendFactory } from '../../../src/adapters/mcp/index.js';
import type { ScenarioVariant } from '../../../src/runtime/scenario.js';
import { validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { harnessFor, readGraph, recordGolds, replayAgainst, variantFor } from '../../support/mcp-replay.js';
import { projectRoot } from '../../support/run-cli.js';

const serverScript = join(projectRoot, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const folder = await mkdtemp(join(tmpdir(), 'hsa-mcp-'));
const memoryServer = (name: string) =>
  createMcpBackend({
    command: process.execPath,
    args: [serverScript],
    env: { MEMORY_FILE_PATH: join(folder, `${name}.jsonl`) },
  });
const started: McpBackendFactory[] = [];
const start = async (name: string) => {
  const server = memoryServer(name);
  started.push(server);
  await server.connect();
  return server;
};

afterAll(async () => {
  await Promise.all(started.map((server) => server.close()));
  await rm(folder, { recursive: true, force: true });
});

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('MCP backend over stdio (server-memory)', () => {
  it('lists the server tools, which import into a harness', async () => {
    const server = await start('list');
    expect(server.tools).toEqual(
      expect.arrayContaining(['create_entities', 'create_relations', 'add_observations', 'read_graph']),
    );
    const harness = harnessFor(server.listed, 'memory');
    expect(harness.tools.items.map((tool) => tool.name)).toEqual(server.listed.map((tool) => tool.name));
  });

  it('replays under renamed tools and parameters to the same server state as under the base harness', async () => {
    const scratch = await start('gold');
    const base = harnessFor(scratch.listed, 'memory');
    const golds = await recordGolds(base, scratch);
    for (const gold of golds) expect(validateTrajectory(gold, base).issues).toEqual([]);
    // The second gold holds a call the argument hook rejected, then the corrected one.
    expect(
      golds[1]!.messages.some(
        (message) => message.role === 'assistant' && message.hsa?.event === 'hook_rejected',
      ),
    ).toBe(true);

    const variants = new Map<string, ScenarioVariant>();
    for (const gold of golds) variants.set(gold.id, await variantFor(base, gold));
    const baseNames = new Set(base.tools.items.map((tool) => tool.name));
    for (const variant of variants.values()) {
      const tools = variant.harness.tools.items;
      // Every tool renamed, and the nested parameters too (entities[].entityType, relations[].relationType).
      expect(tools.filter((tool) => baseNames.has(tool.name))).toEqual([]);
      const schemas = JSON.stringify(tools.map((tool) => tool.parameters));
      expect(schemas).not.toContain('"entityType"');
      expect(schemas).not.toContain('"relationType"');
    }

    const underBase = await start('base');
    const underVariants = await start('variant');
    const playedBase = await replayAgainst(base, golds, underBase, undefined);
    const playedVariants = await replayAgainst(base, golds, underVariants, variants);

    for (const played of [...playedBase, ...playedVariants]) {
      expect(played.deviations).toEqual([]);
      expect(played.score.rewards).toMatchObject({ toolCallMatch: 1, skillSelection: 1, hookCompliance: 1 });
    }
    // The variant episodes called the server's tools by the variant's names only.
    for (const played of playedVariants) {
      const names = played.trajectory.messages.flatMap((message) =>
        message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.function.name) : [],
      );
      expect(names.filter((name) => name !== 'load_skill' && baseNames.has(name))).toEqual([]);
    }

    const graph = await readGraph(underBase, base);
    expect(graph).toMatchObject({
      entities: expect.arrayContaining([
        expect.objectContaining({
          name: 'Grace Hopper',
          observations: ['built the first compiler', 'rear admiral'],
        }),
      ]),
    });
    expect(await readGraph(underVariants, base)).toEqual(graph);
    expect(await readGraph(scratch, base)).toEqual(graph);
  }, 60_000);

  it('ends the child process on close', async () => {
    const server = await start('close');
    const pid = server.pid;
    expect(pid).toBeTypeOf('number');
    expect(isRunning(pid!)).toBe(true);
    await server.close();
    expect(server.pid).toBeNull();
    expect(isRunning(pid!)).toBe(false);
  });

  it('answers a failing call with a tool error result', async () => {
    const server = await start('errors');
    const base = harnessFor(server.listed, 'memory');
    const backend = await server({ id: 'e', context: {}, task: { id: 'e', turns: [] } }, { base, seed: '1' });
    const context = { harness: base, signal: new AbortController().signal, callIndex: 0 };
    const unknown = await backend.call(
      { id: '1', name: 'no_such_tool', arguments: {}, rawArguments: '{}' },
      context,
    );
    expect(unknown.error).toBe('tool_error');
    expect(JSON.parse(unknown.content)).toMatchObject({ error: { type: 'tool_error' } });
  });

  it('says which server it could not start', async () => {
    const server = createMcpBackend({ command: process.execPath, args: [join(folder, 'missing.js')] });
    started.push(server);
    await expect(server.connect()).rejects.toThrow(/cannot connect to the MCP server .*missing\.js/);
  });
});
