// A backends file over two real MCP servers from npm (server-filesystem: 14 tools, server-memory: 9): each
// `servers:` entry is one process that answers every tool it lists, for every episode of the run; the
// replay through them is the log with every reward 1, and closing the scenario ends both processes.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { McpBackendFactory } from '../../src/adapters/mcp/index.js';
import { createMcpBackend } from '../../src/adapters/mcp/index.js';
import { routeBackends } from '../../src/runtime/backends/route.js';
import { buildBackends, createReplayScenario, readBackendsFile } from '../../src/scenarios/replay/index.js';
import { call, calls, harnessFor, load, recordGolds, reply } from '../support/mcp-replay.js';
import { filesystemServerScript, memoryServerScript, startFilesystemServer } from '../support/mcp-servers.js';
import { playScenario } from '../support/replay-play.js';

const dir = await mkdtemp(join(tmpdir(), 'hsa-mcp-servers-'));
const root = join(dir, 'root');
await (await import('node:fs/promises')).mkdir(root);
await writeFile(join(root, 'notes.txt'), 'meeting moved to 15:30 in room 4B\n');
const opened: McpBackendFactory[] = [];
afterAll(async () => {
  await Promise.all(opened.map((server) => server.close()));
});

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const yamlServer = (script: string, extra: string[], env: Record<string, string> = {}) =>
  `    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: ${JSON.stringify([script, ...extra])}\n      env: ${JSON.stringify(env)}\n`;

describe('backends file servers', () => {
  it('one process per server answers all its tools, and closes with the scenario', async () => {
    const files = await startFilesystemServer(root);
    const memory = createMcpBackend({
      command: process.execPath,
      args: [memoryServerScript],
      env: { MEMORY_FILE_PATH: join(dir, 'scratch.jsonl') },
    });
    opened.push(files, memory);
    await memory.connect();
    const harness = harnessFor([...files.listed, ...memory.listed], 'desk');
    expect(harness.tools.items.length).toBe(23);
    // The golds, recorded against scratch servers.
    const scratch = Object.assign(
      () =>
        routeBackends(
          files(undefined as never, undefined as never) as never,
          Object.fromEntries(
            memory.tools.map((name) => [name, memory(undefined as never, undefined as never) as never]),
          ),
        ),
      { listed: [] },
    ) as unknown as McpBackendFactory;
    const golds = await recordGolds(harness, scratch, [
      {
        id: 'desk-1',
        turns: [
          {
            user: 'When is the meeting? Note it for Ada.',
            script: [
              load('g1'),
              calls(call('g2', 'read_text_file', { path: join(root, 'notes.txt') })),
              calls(
                call('g3', 'create_entities', {
                  entities: [{ name: 'Ada', entityType: 'person', observations: ['meeting 15:30 in 4B'] }],
                }),
              ),
              reply('The meeting is at 15:30 in "room 4B"; noted for Ada.'),
            ],
          },
        ],
      },
    ]);

    const backendsFile = join(dir, 'backends.yaml');
    await writeFile(
      backendsFile,
      `servers:\n  files:\n${yamlServer(filesystemServerScript, [root])}  memory:\n${yamlServer(memoryServerScript, [], { MEMORY_FILE_PATH: join(dir, 'run.jsonl') })}    tools: all\n`,
    );
    const built = await buildBackends(backendsFile, await readBackendsFile(backendsFile), {
      harnessTools: new Set(harness.tools.items.map((tool) => tool.name)),
      connectMcp: createMcpBackend,
    });
    opened.push(...built.opened);
    expect(built.opened).toHaveLength(2);
    const pids = built.opened.map((server) => server.pid!);
    expect(new Set(pids).size).toBe(2);
    expect(pids.every(isRunning)).toBe(true);
    // Every tool of the harness is routed to one of the two.
    expect(Object.keys(built.tools).sort()).toEqual(harness.tools.items.map((tool) => tool.name).sort());
    expect(new Set(Object.values(built.tools))).toEqual(new Set(built.opened));

    const scenario = createReplayScenario({
      trajectories: golds,
      backends: { default: built.default, tools: built.tools },
    });
    expect(scenario.check(harness)).toEqual([]);
    const played = await playScenario(scenario, harness, { episodes: 2 });
    // The first episode is the log; the second runs on the same processes, so the memory server already
    // holds Ada (its create_entities answers []): state lives per server for the run, as documented.
    expect(played[0]!.trajectory.messages).toEqual(golds[0]!.messages);
    expect(played[0]!.score.total).toBe(1);
    for (const episode of played) expect(episode.deviations).toEqual([]);
    // Still the same two processes after two episodes.
    expect(built.opened.map((server) => server.pid)).toEqual(pids);
    await scenario.close?.();
    for (let wait = 0; wait < 50 && pids.some(isRunning); wait++)
      await new Promise((done) => setTimeout(done, 100));
    expect(pids.some(isRunning)).toBe(false);
  });

  it('names a tool the server does not list, and a tool two entries answer', async () => {
    const bad = join(dir, 'bad.yaml');
    await writeFile(
      bad,
      `servers:\n  files:\n${yamlServer(filesystemServerScript, [root])}    tools: [read_text_file, fly]\n`,
    );
    await expect(
      buildBackends(bad, await readBackendsFile(bad), { connectMcp: createMcpBackend }),
    ).rejects.toThrow(/servers\.files: the server does not list "fly"/);
    const twice = join(dir, 'twice.yaml');
    await writeFile(
      twice,
      `servers:\n  files:\n${yamlServer(filesystemServerScript, [root])}    tools: [read_text_file]\ntools:\n  read_text_file: recorded\n`,
    );
    await expect(
      buildBackends(twice, await readBackendsFile(twice), { connectMcp: createMcpBackend }),
    ).rejects.toThrow(/tool "read_text_file" is answered by both servers\.files and tools\.read_text_file/);
  });
});
