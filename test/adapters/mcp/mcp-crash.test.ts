// A real MCP server (server-memory over stdio) killed mid-run: the episode that saw it go gets tool errors
// that say so (not the SDK's bare "Not connected"), the next episode starts the server again, and once the
// restarts are spent the env server's /health answers 503 with the reason instead of "ok".
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEnvServer } from '../../../src/adapters/env-http/server.js';
import { createMcpBackend, type McpBackendFactory } from '../../../src/adapters/mcp/index.js';
import type { Harness } from '../../../src/harness/schema.js';
import { createEnvService } from '../../../src/runtime/env/service.js';
import type { ToolBackend } from '../../../src/runtime/scenario.js';
import { createReplayScenario } from '../../../src/scenarios/replay/index.js';
import { goldScripts, harnessFor, recordGolds } from '../../support/mcp-replay.js';
import { memoryServerScript } from '../../support/mcp-servers.js';

const folder = await mkdtemp(join(tmpdir(), 'hsa-mcp-crash-'));
const started: McpBackendFactory[] = [];
async function memoryServer(name: string, maxRestarts: number) {
  const server = createMcpBackend(
    {
      command: process.execPath,
      args: [memoryServerScript],
      env: { MEMORY_FILE_PATH: join(folder, `${name}.jsonl`) },
    },
    { maxRestarts },
  );
  started.push(server);
  await server.connect();
  return server;
}

afterAll(async () => {
  await Promise.all(started.map((server) => server.close()));
  await rm(folder, { recursive: true, force: true });
});

/** Kills the server's process and waits until the backend has seen its connection end. */
async function kill(server: McpBackendFactory, backend: ToolBackend, harness: Harness) {
  const pid = server.pid;
  expect(pid).toEqual(expect.any(Number));
  process.kill(pid as number, 'SIGKILL');
  // Bounded by the test's timeout, decided by what the backend answers, not by a clock.
  for (;;) {
    const outcome = await readGraph(backend, harness);
    if (outcome.error) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function readGraph(backend: ToolBackend, harness: Harness) {
  return backend.call(
    { id: 'read', name: 'read_graph', arguments: {}, rawArguments: '{}' },
    { harness, signal: new AbortController().signal, callIndex: 0 },
  );
}

const episode = (id: string) => ({ id, context: {}, task: { id, turns: [] } });

describe('an MCP server that crashes', () => {
  it('is named in the failing calls, started again for the next episode, and reported once no restart is left', async () => {
    const server = await memoryServer('restart', 1);
    const harness = harnessFor(server.listed, 'memory');
    const first = await server(episode('one'), { base: harness, seed: 's' });
    expect((await readGraph(first, harness)).error).toBeFalsy();
    const firstPid = server.pid;
    const failed = await kill(server, first, harness);
    expect(failed.content).toContain(
      `the MCP server ${process.execPath} ${memoryServerScript} ended its connection`,
    );
    expect(failed.content).toContain('it is restarted for the next episode');
    expect(failed.content).not.toContain('Not connected');
    // One restart is allowed: the next episode has a server again.
    expect(server.health()).toBeUndefined();
    const second = await server(episode('two'), { base: harness, seed: 's' });
    const answered = await readGraph(second, harness);
    expect(answered.error).toBeFalsy();
    expect(JSON.parse(answered.content)).toEqual({ entities: [], relations: [] });
    expect(server.pid).not.toBe(firstPid);
    // The second crash finds no restart left: health says so, and later episodes keep failing with the reason.
    await kill(server, second, harness);
    expect(server.health()).toMatch(/ended its connection.*; restarted 1 time\(s\), no restart left$/s);
    const third = await server(episode('three'), { base: harness, seed: 's' });
    expect((await readGraph(third, harness)).content).toContain('ended its connection');
  });

  it('makes the env server answer /health with 503 and the reason after a crash with no restart left', async () => {
    const scratch = await memoryServer('gold', 0);
    const harness = harnessFor(scratch.listed, 'memory');
    const golds = await recordGolds(harness, scratch, goldScripts.slice(0, 1));
    const server = await memoryServer('served', 0);
    const scenario = createReplayScenario({ trajectories: golds, backends: { default: server } });
    const service = createEnvService({ scenario, harness });
    const http = await startEnvServer(service, { port: 0 });
    try {
      const healthy = await fetch(`${http.url}/health`);
      expect(healthy.status).toBe(200);
      const reset = await fetch(`${http.url}/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(reset.status).toBe(200);
      await kill(server, await server(episode('probe'), { base: harness, seed: 's' }), harness);
      const health = await fetch(`${http.url}/health`);
      expect(health.status).toBe(503);
      const body = (await health.json()) as { status: string; reason: string };
      expect(body.status).toBe('unhealthy');
      expect(body.reason).toMatch(/ended its connection.*; no restart is allowed$/s);
    } finally {
      await http.close();
      service.close();
    }
  });
});
