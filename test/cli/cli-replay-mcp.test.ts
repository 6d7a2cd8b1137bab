// `hsa sim run --scenario replay --backends` with an MCP server over stdio (server-memory): the CLI spawns
// it from the backends file, replays the logs under tools-only variants (renamed tools and parameters),
// ends the server, and the server's file holds the same graph as after the run under the base harness.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpBackend, type McpBackendFactory } from '../../src/adapters/mcp/index.js';
import { harnessFor, readGraph, recordGolds } from '../support/mcp-replay.js';
import { projectRoot, runCli } from '../support/run-cli.js';

const serverScript = join(projectRoot, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const dir = await mkdtemp(join(tmpdir(), 'hsa-replay-mcp-'));
const opened: McpBackendFactory[] = [];
const memory = async (file: string) => {
  const server = createMcpBackend({
    command: process.execPath,
    args: [serverScript],
    env: { MEMORY_FILE_PATH: file },
  });
  opened.push(server);
  await server.connect();
  return server;
};
afterAll(async () => {
  await Promise.all(opened.map((server) => server.close()));
});

describe('hsa sim run --scenario replay with an MCP backend', () => {
  it('drives the server under variants to the state of the base run, and ends it', async () => {
    const scratch = await memory(join(dir, 'scratch.jsonl'));
    const harness = harnessFor(scratch.listed, 'memory');
    const golds = await recordGolds(harness, scratch);
    const harnessFile = join(dir, 'harness.json');
    const trajectoriesFile = join(dir, 'trajectories.jsonl');
    await writeFile(harnessFile, JSON.stringify(harness));
    await writeFile(trajectoriesFile, golds.map((gold) => `${JSON.stringify(gold)}\n`).join(''));
    const graphs: unknown[] = [];
    for (const [name, extra] of [
      ['base', []],
      ['variants', ['--augment', 'tools-only', '--seed', '5']],
    ] as const) {
      const store = join(dir, `${name}.memory.jsonl`);
      const backends = join(dir, `${name}.backends.yaml`);
      await writeFile(
        backends,
        `default:\n  mcp:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(serverScript)}]\n    env: { MEMORY_FILE_PATH: ${JSON.stringify(store)} }\n`,
      );
      const run = runCli([
        'sim',
        'run',
        '--scenario',
        'replay',
        '--harness',
        harnessFile,
        '--trajectories',
        trajectoriesFile,
        '--backends',
        backends,
        '--out',
        join(dir, `${name}.out.jsonl`),
        ...extra,
      ]);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/toolCallMatch 1\.0000, skillSelection 1\.0000, hookCompliance 1\.0000/);
      if (name === 'variants') {
        expect(run.stdout).toMatch(/episodes without a certified variant: 0/);
        // Where a variant renamed the tools, the episode called the server's tools by the variant's names.
        const baseNames = new Set(harness.tools.items.map((tool) => tool.name));
        const lines = async (file: string) =>
          (await readFile(join(dir, file), 'utf8'))
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line));
        const ops = new Map(
          (await lines(`${name}.out.variants.jsonl`)).map((row) => [row.id as string, row.ops as string[]]),
        );
        let renamed = 0;
        for (const played of await lines(`${name}.out.jsonl`)) {
          if (!ops.get(played.id)?.includes('tools/rename')) continue;
          renamed++;
          const names = (played.messages as { tool_calls?: { function: { name: string } }[] }[]).flatMap(
            (message) => (message.tool_calls ?? []).map((call) => call.function.name),
          );
          expect(names.some((called) => baseNames.has(called))).toBe(false);
        }
        expect(renamed).toBeGreaterThan(0);
      }
      // The run returned: the CLI ended the server it spawned. A fresh server on the same file reads its state.
      graphs.push(await readGraph(await memory(store), harness));
    }
    expect(graphs[0]).toEqual(await readGraph(scratch, harness));
    expect(graphs[1]).toEqual(graphs[0]);
  }, 120_000);
});
