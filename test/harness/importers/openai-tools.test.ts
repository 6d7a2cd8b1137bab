import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  exportOpenAITools,
  importOpenAITools,
  safeImportOpenAITools,
  skeletonHarness,
} from '../../../src/harness/importers/index.js';
import { HarnessAugmentError, type Issue } from '../../../src/harness/issues.js';
import { HarnessSchema } from '../../../src/harness/schema.js';

const readFixture = (name: string) =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../../fixtures/importers/${name}`, import.meta.url)), 'utf8'),
  );

function issuesOf(value: unknown): Issue[] {
  const result = safeImportOpenAITools(value);
  if (result.success) throw new Error('expected issues');
  return result.issues;
}

const shape = (issues: Issue[]) => issues.map(({ code, path }) => ({ code, path }));

describe('importOpenAITools', () => {
  it('reads the Chat Completions fixture', () => {
    const fixture = readFixture('openai-tools.json');
    const tools = importOpenAITools(fixture);
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_product_info_by_link_id',
      'search_products',
      'get_room_promotions',
      'get_order_status',
      'check_stock',
    ]);
    expect(tools[0]?.parameters).toEqual(fixture[0].function.parameters);
    expect(tools[0]?.parameters).not.toBe(fixture[0].function.parameters);
  });

  it('gives missing parameters an empty object schema', () => {
    const promotions = importOpenAITools(readFixture('openai-tools.json')).find(
      (tool) => tool.name === 'get_room_promotions',
    );
    expect(promotions?.parameters).toStrictEqual({ type: 'object', properties: {} });
  });

  it('reads the flat Responses form to the same tools', () => {
    expect(importOpenAITools(readFixture('openai-responses-tools.json'))).toStrictEqual(
      importOpenAITools(readFixture('openai-tools.json')),
    );
  });

  it('accepts a request body holding the tools', () => {
    const tools = readFixture('openai-tools.json');
    expect(importOpenAITools({ model: 'gpt-4.1', tools })).toStrictEqual(importOpenAITools(tools));
  });

  it('uses the name when the description is missing', () => {
    expect(importOpenAITools([{ type: 'function', function: { name: 'get_time' } }])).toStrictEqual([
      { name: 'get_time', description: 'get_time', parameters: { type: 'object', properties: {} } },
    ]);
  });

  it('builds a valid skeleton harness', () => {
    const harness = skeletonHarness({
      id: 'live-room',
      tools: importOpenAITools(readFixture('openai-tools.json')),
    });
    expect(HarnessSchema.parse(harness)).toStrictEqual(harness);
  });
});

describe('exportOpenAITools', () => {
  it('writes the Chat Completions form', () => {
    expect(
      exportOpenAITools([{ name: 'get_time', description: 'Current time', parameters: { type: 'object' } }]),
    ).toStrictEqual([
      {
        type: 'function',
        function: { name: 'get_time', description: 'Current time', parameters: { type: 'object' } },
      },
    ]);
  });

  it('round-trips exactly: import → export → import', () => {
    for (const name of ['openai-tools.json', 'openai-responses-tools.json']) {
      const imported = importOpenAITools(readFixture(name));
      const exported = exportOpenAITools(imported);
      expect(importOpenAITools(exported)).toStrictEqual(imported);
      expect(exportOpenAITools(importOpenAITools(exported))).toStrictEqual(exported);
    }
  });
});

describe('importOpenAITools on bad input', () => {
  it('rejects tools that are not an array', () => {
    expect(shape(issuesOf({ type: 'function', function: { name: 'x' } }))).toEqual([
      { code: 'invalid_type', path: [] },
    ]);
    expect(shape(issuesOf({ tools: 'x' }))).toEqual([{ code: 'invalid_type', path: ['tools'] }]);
    expect(shape(issuesOf(null))).toEqual([{ code: 'invalid_type', path: [] }]);
  });

  it('collects every broken tool with its path', () => {
    const issues = issuesOf([
      { type: 'function', function: { description: 'no name' } },
      { type: 'function', function: { name: 'get product' } },
      { type: 'function', name: 'flat_bad', parameters: { type: 'array' } },
      { type: 'web_search_preview' },
      { function: { name: 'untyped' } },
      { type: 'function', function: 'get_time' },
      { type: 'function', function: { name: 'x', description: 42 } },
      { type: 'function', function: { name: 'twice' } },
      { type: 'function', name: 'twice' },
      3,
    ]);
    expect(shape(issues)).toEqual([
      { code: 'missing_name', path: [0, 'function', 'name'] },
      { code: 'invalid_tool_name', path: [1, 'function', 'name'] },
      { code: 'invalid_tool_parameters', path: [2, 'parameters', 'type'] },
      { code: 'unsupported_tool_type', path: [3, 'type'] },
      { code: 'unsupported_tool_type', path: [4, 'type'] },
      { code: 'invalid_type', path: [5, 'function'] },
      { code: 'invalid_type', path: [6, 'function', 'description'] },
      { code: 'invalid_type', path: [9] },
      { code: 'duplicate_id', path: [8, 'name'] },
    ]);
  });

  it('throws a HarnessAugmentError carrying the issues', () => {
    try {
      importOpenAITools([{ type: 'function', function: { name: 'a.b' } }]);
      expect.unreachable();
    } catch (error) {
      expect(HarnessAugmentError.isInstance(error)).toBe(true);
      expect(shape((error as HarnessAugmentError).issues)).toEqual([
        { code: 'invalid_tool_name', path: [0, 'function', 'name'] },
      ]);
    }
  });
});
