import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  exportMcpTools,
  importMcpTools,
  safeImportMcpTools,
  skeletonHarness,
} from '../../../src/harness/importers/index.js';
import { HarnessAugmentError, type Issue } from '../../../src/harness/issues.js';
import { HarnessSchema, type Tool } from '../../../src/harness/schema.js';

const fixturePath = fileURLToPath(
  new URL('../../../fixtures/importers/mcp-tools-list.json', import.meta.url),
);
const readFixture = () =>
  JSON.parse(readFileSync(fixturePath, 'utf8')) as { result: { tools: Array<Record<string, unknown>> } };

function issuesOf(value: unknown): Issue[] {
  const result = safeImportMcpTools(value);
  if (result.success) throw new Error('expected issues');
  return result.issues;
}

const shape = (issues: Issue[]) => issues.map(({ code, path }) => ({ code, path }));

describe('importMcpTools', () => {
  it('reads every tool of the filesystem server response in order', () => {
    const fixture = readFixture();
    const tools = importMcpTools(fixture);
    expect(tools.map((tool) => tool.name)).toEqual(fixture.result.tools.map((tool) => tool.name));
    expect(tools).toHaveLength(14);
    const edit = tools.find((tool) => tool.name === 'edit_file');
    expect(edit?.description).toMatch(/^Make line-based edits/);
    expect(edit?.parameters).toEqual(
      fixture.result.tools.find((tool) => tool.name === 'edit_file')?.inputSchema,
    );
  });

  it('copies input schemas instead of sharing them', () => {
    const fixture = readFixture();
    const [first] = importMcpTools(fixture);
    expect(first?.parameters).not.toBe(fixture.result.tools[0]?.inputSchema);
  });

  it('accepts the bare result as well as the JSON-RPC response', () => {
    const fixture = readFixture();
    expect(importMcpTools(fixture.result)).toStrictEqual(importMcpTools(fixture));
  });

  it('falls back from description to title, annotations.title and name', () => {
    const inputSchema = { type: 'object' };
    const tools = importMcpTools({
      tools: [
        { name: 'a', title: 'Title A', inputSchema },
        { name: 'b', description: '', annotations: { title: 'Annotated B' }, inputSchema },
        { name: 'c', inputSchema },
      ],
    });
    expect(tools.map((tool) => tool.description)).toEqual(['Title A', 'Annotated B', 'c']);
  });

  it('builds a valid skeleton harness', () => {
    const harness = skeletonHarness({ id: 'filesystem', tools: importMcpTools(readFixture()) });
    expect(HarnessSchema.parse(harness)).toStrictEqual(harness);
    expect(harness.tools.items).toHaveLength(14);
  });
});

describe('exportMcpTools', () => {
  it('writes name, description and inputSchema', () => {
    const tools: Tool[] = [
      { name: 'fetch', description: 'Fetch a URL', parameters: { type: 'object', properties: {} } },
    ];
    expect(exportMcpTools(tools)).toStrictEqual({
      tools: [{ name: 'fetch', description: 'Fetch a URL', inputSchema: { type: 'object', properties: {} } }],
    });
  });

  it('round-trips exactly: import → export → import', () => {
    const imported = importMcpTools(readFixture());
    const exported = exportMcpTools(imported);
    expect(importMcpTools(exported)).toStrictEqual(imported);
    expect(exportMcpTools(importMcpTools(exported))).toStrictEqual(exported);
  });

  it('refuses tools that break the harness rules, with paths', () => {
    const tools = [
      { name: 'ok', description: 'fine', parameters: { type: 'object' } },
      { name: 'bad name', description: 'x', parameters: { type: 'object' } },
    ] as Tool[];
    try {
      exportMcpTools(tools);
      expect.unreachable();
    } catch (error) {
      expect(HarnessAugmentError.isInstance(error)).toBe(true);
      expect(shape((error as HarnessAugmentError).issues)).toEqual([
        { code: 'invalid_format', path: [1, 'name'] },
      ]);
    }
  });
});

describe('importMcpTools on bad input', () => {
  it('rejects values that are not a tools/list result', () => {
    expect(shape(issuesOf('tools'))).toEqual([{ code: 'invalid_type', path: [] }]);
    expect(shape(issuesOf({ tools: { name: 'x' } }))).toEqual([{ code: 'invalid_type', path: ['tools'] }]);
    expect(shape(issuesOf({ jsonrpc: '2.0', id: 1, result: {} }))).toEqual([
      { code: 'invalid_type', path: ['result', 'tools'] },
    ]);
    expect(shape(issuesOf({ jsonrpc: '2.0', id: 1 }))).toEqual([{ code: 'invalid_type', path: ['result'] }]);
  });

  it('reports a JSON-RPC error response', () => {
    const issues = issuesOf({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } });
    expect(shape(issues)).toEqual([{ code: 'jsonrpc_error', path: ['error'] }]);
    expect(issues[0]?.message).toContain('Method not found');
  });

  it('collects every broken tool with its path', () => {
    const inputSchema = { type: 'object' };
    const issues = issuesOf({
      jsonrpc: '2.0',
      id: 2,
      result: {
        tools: [
          { description: 'no name', inputSchema },
          { name: 'fs.read_file', inputSchema },
          { name: 'no_schema' },
          { name: 'string_schema', inputSchema: { type: 'string' } },
          {
            name: 'broken_schema',
            inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } },
          },
          { name: 7, inputSchema },
          'not a tool',
          { name: 'twice', inputSchema },
          { name: 'twice', inputSchema },
        ],
      },
    });
    expect(shape(issues)).toEqual([
      { code: 'missing_name', path: ['result', 'tools', 0, 'name'] },
      { code: 'invalid_tool_name', path: ['result', 'tools', 1, 'name'] },
      { code: 'missing_input_schema', path: ['result', 'tools', 2, 'inputSchema'] },
      { code: 'invalid_tool_parameters', path: ['result', 'tools', 3, 'inputSchema', 'type'] },
      { code: 'invalid_json_schema', path: ['result', 'tools', 4, 'inputSchema', 'properties', 'a', 'type'] },
      { code: 'invalid_type', path: ['result', 'tools', 5, 'name'] },
      { code: 'invalid_type', path: ['result', 'tools', 6] },
      { code: 'duplicate_id', path: ['result', 'tools', 8, 'name'] },
    ]);
    expect(issues[1]?.message).toContain('"fs.read_file"');
  });

  it('refuses __proto__ keys', () => {
    const value = JSON.parse('{"tools":[{"name":"x","inputSchema":{"type":"object","__proto__":{}}}]}');
    expect(shape(issuesOf(value))).toEqual([
      { code: 'forbidden_key', path: ['tools', 0, 'inputSchema', '__proto__'] },
    ]);
  });

  it('throws a HarnessAugmentError carrying the issues', () => {
    try {
      importMcpTools({ tools: [{ name: 'bad name', inputSchema: { type: 'object' } }] });
      expect.unreachable();
    } catch (error) {
      expect(HarnessAugmentError.isInstance(error)).toBe(true);
      expect(shape((error as HarnessAugmentError).issues)).toEqual([
        { code: 'invalid_tool_name', path: ['tools', 0, 'name'] },
      ]);
    }
  });
});
