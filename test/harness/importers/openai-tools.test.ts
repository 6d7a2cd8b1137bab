import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src/harness/documents.js';
import {
  exportMcpTools,
  exportOpenAITools,
  importOpenAITools,
  readOpenAITools,
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

  it('accepts a legacy request body holding `functions`', () => {
    const functions = readFixture('openai-tools.json').map((tool: { function: unknown }) => tool.function);
    expect(importOpenAITools({ model: 'gpt-3.5-turbo', functions })).toStrictEqual(
      importOpenAITools(readFixture('openai-tools.json')),
    );
    expect(shape(issuesOf({ functions: {} }))).toEqual([{ code: 'invalid_type', path: ['functions'] }]);
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
  it('rejects tools that are not an array, nor one tool', () => {
    expect(shape(issuesOf({ model: 'gpt-4.1', messages: [] }))).toEqual([{ code: 'invalid_type', path: [] }]);
    expect(shape(issuesOf({ tools: 'x' }))).toEqual([{ code: 'invalid_type', path: ['tools'] }]);
    expect(shape(issuesOf(null))).toEqual([{ code: 'invalid_type', path: [] }]);
  });

  it('collects every broken tool with its path', () => {
    const issues = issuesOf([
      { type: 'function', function: { description: 'no name' } },
      { type: 'function', function: { name: 'get product' } },
      { type: 'function', name: 'flat_bad', parameters: { type: 'array' } },
      { type: 'web_search_preview' },
      { type: null, function: { name: 'untyped' } },
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

// BFCL's function docs (ShishirPatil/gorilla, fixtures/importers/README.md): one bare function object a line,
// Python type names, a `response` schema beside `parameters`.
describe('importOpenAITools on BFCL function docs', () => {
  const text = readFileSync(
    fileURLToPath(new URL('../../../fixtures/importers/bfcl-travel-booking.json', import.meta.url)),
    'utf8',
  );
  const lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const file = 'bfcl-travel-booking.json';

  it('reads the JSON Lines file as the list of its tools', () => {
    const document = parseDocument(text, { format: 'json', file, jsonLines: true });
    expect(document.recordLines).toEqual([1, 2, 3, 4]);
    expect(importOpenAITools(document.value).map((tool) => tool.name)).toEqual([
      'authenticate_travel',
      'book_flight',
      'cancel_booking',
      'compute_exchange_rate',
    ]);
  });

  it('reads bare function objects (no type) as function tools, one alone too', () => {
    const [first] = importOpenAITools(lines);
    expect(first?.description).toBe(lines[0].description);
    expect(importOpenAITools(lines[0])).toStrictEqual([first]);
  });

  it('reads Python type names as JSON Schema types, and says which and how often', () => {
    const read = readOpenAITools(lines);
    const exchange = read.tools[3];
    expect(exchange?.parameters.type).toBe('object');
    expect(exchange?.parameters).toMatchObject({ properties: { value: { type: 'number' } } });
    expect(read.typeNames).toEqual([
      { name: 'dict', as: 'object', count: 9 },
      { name: 'float', as: 'number', count: 3 },
    ]);
    // Nothing else moves: the rest of each schema is BFCL's, key for key.
    const { type: _given, properties: givenProperties, ...givenRest } = lines[3].parameters;
    const { type: _read, properties: readProperties, ...readRest } = exchange?.parameters ?? {};
    expect(readRest).toStrictEqual(givenRest);
    expect(Object.keys(readProperties as object)).toEqual(Object.keys(givenProperties));
  });

  it('keeps the response schema as the outputSchema, written back by the MCP export', () => {
    const read = readOpenAITools(lines);
    expect(read.responses).toEqual({ kept: lines.map((line) => line.name), leftOut: [] });
    expect(read.tools[0]?.outputSchema).toMatchObject({
      type: 'object',
      properties: { expires_in: { type: 'integer' } },
    });
    expect(exportMcpTools(read.tools).tools[0]?.outputSchema).toStrictEqual(read.tools[0]?.outputSchema);
  });

  it('reads every Python name, `any` as no type, and leaves out a response that is no schema', () => {
    const read = readOpenAITools([
      {
        name: 'move',
        parameters: {
          type: 'dict',
          properties: {
            to: { type: 'tuple', items: { type: 'float' } },
            steps: { type: 'int' },
            label: { type: 'str' },
            fast: { type: 'bool' },
            tags: { type: 'list', items: { type: 'str' } },
            extra: { type: 'any', description: 'anything' },
            type: { type: ['int', 'integer', 'null'] },
          },
        },
        response: 'the new position',
      },
    ]);
    expect(read.tools[0]?.parameters).toStrictEqual({
      type: 'object',
      properties: {
        to: { type: 'array', items: { type: 'number' } },
        steps: { type: 'integer' },
        label: { type: 'string' },
        fast: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        extra: { description: 'anything' },
        type: { type: ['integer', 'null'] },
      },
    });
    expect(read.typeNames.map(({ name, count }) => `${name} ${count}`)).toEqual([
      'dict 1',
      'float 1',
      'int 2',
      'str 2',
      'bool 1',
      'list 1',
      'tuple 1',
      'any 1',
    ]);
    expect(read.tools[0]?.outputSchema).toBeUndefined();
    expect(read.responses.leftOut).toEqual([
      { tool: 'move', path: [0, 'response'], reason: 'not a JSON Schema object but string' },
    ]);
  });

  it('names a type JSON Schema does not know, and the type meant', () => {
    const issues = issuesOf([
      {
        name: 'java',
        parameters: { type: 'dict', properties: { m: { type: 'HashMap' }, s: { type: 'String' } } },
      },
    ]);
    expect(issues.map(({ path, message }) => ({ path, message }))).toEqual([
      {
        path: [0, 'parameters', 'properties', 'm', 'type'],
        message:
          '"HashMap" is not a JSON Schema type (string, number, integer, boolean, object, array, null)',
      },
      {
        path: [0, 'parameters', 'properties', 's', 'type'],
        message:
          '"String" is not a JSON Schema type (string, number, integer, boolean, object, array, null); write "string"',
      },
    ]);
  });

  it('still refuses a type other than "function"', () => {
    expect(shape(issuesOf([{ type: 'code_interpreter', name: 'x' }]))).toEqual([
      { code: 'unsupported_tool_type', path: [0, 'type'] },
    ]);
  });
});
