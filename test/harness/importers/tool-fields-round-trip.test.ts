// Every field of the source formats survives import → harness file → export: `title`, `annotations` and
// `outputSchema` of MCP tools, `strict` of OpenAI tools.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { serialize } from '../../../src/cli/io.js';
import {
  exportMcpTools,
  exportOpenAITools,
  importMcpTools,
  importOpenAITools,
  skeletonHarness,
} from '../../../src/harness/importers/index.js';
import { validateAgainstSchema } from '../../../src/harness/json-schema-validator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';

const read = (file: string) => JSON.parse(readFileSync(`fixtures/importers/${file}`, 'utf8'));
/** Through a harness file: the tools are written as YAML, read back (as YAML 1.1 too) and parsed. */
const throughHarnessFile = (tools: ReturnType<typeof importMcpTools>) => {
  const text = serialize(skeletonHarness({ id: 'imported', tools }), 'harness.yaml');
  expect(YAML.parse(text, { version: '1.1' })).toEqual(YAML.parse(text));
  return parseHarness(YAML.parse(text)).tools.items;
};

describe('MCP tools/list round trips', () => {
  for (const file of ['mcp-tools-list.json', 'mcp-tools-list-2020-12.json']) {
    it(`${file}: import → harness file → export gives every tool back exactly`, () => {
      const source = read(file);
      const tools = importMcpTools(source);
      expect(tools.some((tool) => tool.title && tool.annotations)).toBe(true);
      expect(exportMcpTools(tools)).toEqual({ tools: source.result.tools });
      expect(exportMcpTools(throughHarnessFile(tools))).toEqual({ tools: source.result.tools });
    });
  }

  it('keeps a 2020-12 inputSchema that the validator reads in its dialect', () => {
    const [createIssue] = importMcpTools(read('mcp-tools-list-2020-12.json'));
    const schema = createIssue?.parameters as Record<string, unknown>;
    const valid = { owner: 'octo', repo: 'hello', title: 'Bug', assignees: [{ login: 'ada' }] };
    expect(validateAgainstSchema(schema, valid)).toEqual([]);
    const errors = validateAgainstSchema(schema, {
      ...valid,
      range: [1, 'x'],
      assignees: [{ login: 'ada', email: 'nope' }],
      priority: 'whenever',
      extra: true,
    }).join('; ');
    for (const part of [
      '/range/1 must be integer',
      'must have property path',
      'must match format "email"',
      'allowed values',
      'unevaluated properties ("extra")',
    ])
      expect(errors).toContain(part);
  });
});

describe('OpenAI tools round trips', () => {
  it('keeps strict, through a harness file too', () => {
    const source = read('openai-tools.json') as Array<{
      function: { name: string; strict?: boolean | null };
    }>;
    const exported = exportOpenAITools(throughHarnessFile(importOpenAITools(source)));
    expect(exported.map((tool) => tool.function.strict)).toEqual(
      source.map((tool) => (typeof tool.function.strict === 'boolean' ? tool.function.strict : undefined)),
    );
    const strictOne = source.findIndex((tool) => tool.function.strict === true);
    expect(exported[strictOne]).toEqual(source[strictOne]);
  });

  it('keeps strict of the Responses form', () => {
    const source = read('openai-responses-tools.json') as Array<{ strict?: boolean | null }>;
    expect(importOpenAITools(source).map((tool) => tool.strict)).toEqual(
      source.map((tool) => (typeof tool.strict === 'boolean' ? tool.strict : undefined)),
    );
  });
});
