// `import mcp` keeps every field of the MCP Tool schema: the tools/list results of real servers from npm
// (server-filesystem: `execution`, `annotations`, `outputSchema`, `title` on every tool; server-memory),
// read as the exact bytes the server wrote, come back byte for byte from exportMcpTools — in process and
// through `hsa import mcp` and the harness file it writes (YAML and JSON).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportMcpTools, importMcpTools } from '../../../src/harness/importers/mcp-tools.js';
import { loadHarnessFile } from '../../../src/harness/parse-harness.js';
import { filesystemServerScript, memoryServerScript, rawToolsList } from '../../support/mcp-servers.js';
import { runCli } from '../../support/run-cli.js';

const dir = await mkdtemp(join(tmpdir(), 'hsa-mcp-listed-'));
const listed = {
  filesystem: await rawToolsList([filesystemServerScript, dir]),
  memory: await rawToolsList([memoryServerScript], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }),
};

describe('MCP tools/list round trip', () => {
  it('the filesystem server lists execution, annotations, outputSchema and title on its tools', () => {
    const tools = JSON.parse(listed.filesystem).tools as Record<string, unknown>[];
    expect(tools.length).toBeGreaterThanOrEqual(14);
    expect(tools.every((tool) => JSON.stringify(tool.execution) === '{"taskSupport":"forbidden"}')).toBe(
      true,
    );
    const imported = importMcpTools(JSON.parse(listed.filesystem));
    expect(
      imported.every(
        (tool) =>
          (tool.mcp?.fields.execution as { taskSupport?: string } | undefined)?.taskSupport === 'forbidden',
      ),
    ).toBe(true);
  });

  for (const server of ['filesystem', 'memory'] as const)
    it(`${server}: export(import(list)) is the list, byte for byte`, () => {
      expect(JSON.stringify(exportMcpTools(importMcpTools(JSON.parse(listed[server]))))).toBe(listed[server]);
    });

  it('through hsa import mcp and the harness file it writes', async () => {
    const input = join(dir, 'filesystem-tools.json');
    await writeFile(input, listed.filesystem);
    for (const out of [join(dir, 'harness.yaml'), join(dir, 'harness.json')]) {
      const run = runCli(['import', 'mcp', input, '--out', out]);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const harness = await loadHarnessFile(out);
      expect(JSON.stringify(exportMcpTools(harness.tools.items))).toBe(listed.filesystem);
      expect(await readFile(out, 'utf8')).toMatch(/taskSupport/);
    }
  });

  it('a renamed tool keeps its other fields and order', () => {
    const [first] = importMcpTools(JSON.parse(listed.filesystem));
    const [back] = exportMcpTools([{ ...first!, name: 'read_any_file' }]).tools;
    const original = (JSON.parse(listed.filesystem).tools as Record<string, unknown>[])[0]!;
    expect(Object.keys(back!)).toEqual(Object.keys(original));
    expect(JSON.stringify({ ...back, name: original.name })).toBe(JSON.stringify(original));
  });
});
