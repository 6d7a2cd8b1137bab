// Text tool results are results, not failures: a replay over the real filesystem MCP server (npm
// @modelcontextprotocol/server-filesystem), whose tools answer in prose, grounds a reply that quotes the
// text it read, labels the call as a successful one, and still reads an MCP `isError` result as a failure.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { McpBackendFactory } from '../../src/adapters/mcp/index.js';
import { isToolError, taskFromTrajectory } from '../../src/runtime/episode-task.js';
import { splitTurns } from '../../src/runtime/rewards/turns.js';
import { createReplayScenario } from '../../src/scenarios/replay/index.js';
import { call, calls, harnessFor, load, recordGolds, reply } from '../support/mcp-replay.js';
import { startFilesystemServer } from '../support/mcp-servers.js';
import { playScenario } from '../support/replay-play.js';

const root = await mkdtemp(join(tmpdir(), 'hsa-fs-'));
await writeFile(join(root, 'server.conf'), 'listen :8080\nupstream_timeout 1200ms\n');
const servers: McpBackendFactory[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await rm(root, { recursive: true, force: true });
});

describe('text tool results of a real MCP server', () => {
  it('ground the reply that quotes them and count as successful calls; isError stays a failure', async () => {
    const server = await startFilesystemServer(root);
    servers.push(server);
    const harness = harnessFor(server.listed, 'files');
    const file = join(root, 'server.conf');
    const [gold] = await recordGolds(harness, server, [
      {
        id: 'fs-1',
        turns: [
          {
            user: 'What port and upstream timeout does server.conf set?',
            script: [
              load('f1'),
              calls(call('f2', 'list_directory', { path: root })),
              calls(call('f3', 'read_text_file', { path: file })),
              // A file that does not exist: the server answers with isError.
              calls(call('f4', 'read_text_file', { path: join(root, 'missing.conf') })),
              reply('It listens on ":8080" with an upstream timeout of 1200ms.'),
            ],
          },
        ],
      },
    ]);
    const results = gold!.messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.content);
    // The listing and the file are prose, not JSON.
    expect(results[1]).toContain('[FILE] server.conf');
    expect(results[2]).toContain('listen :8080');
    expect(() => JSON.parse(results[2]!)).toThrow();
    expect(results.map(isToolError)).toEqual([false, false, false, true]);
    expect(taskFromTrajectory(gold!, harness).turns[0]!.tools).toEqual(['list_directory', 'read_text_file']);
    expect(splitTurns(gold!, harness)[0]!.calls.map((entry) => entry.status)).toEqual([
      'ok',
      'ok',
      'ok',
      'error',
    ]);

    const scenario = createReplayScenario({ trajectories: [gold!], backends: { default: server } });
    const [played] = await playScenario(scenario, harness);
    expect(played!.deviations).toEqual([]);
    expect(played!.score.rewards).toEqual({
      toolCallMatch: 1,
      skillSelection: 1,
      hookCompliance: 1,
      grounding: 1,
    });
  });
});
