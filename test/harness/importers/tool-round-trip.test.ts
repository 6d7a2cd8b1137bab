import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  exportMcpTools,
  exportOpenAITools,
  importMcpTools,
  importOpenAITools,
} from '../../../src/harness/importers/index.js';

/** Harness tools with distinct valid names, unicode descriptions and small object schemas. */
const toolsArbitrary = fc.uniqueArray(
  fc.record(
    {
      name: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
      description: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }),
      parameters: fc
        .dictionary(
          fc.string({ minLength: 1, maxLength: 12 }).filter((key) => key !== '__proto__'),
          fc.record(
            { type: fc.constantFrom('string', 'integer', 'number', 'boolean') },
            { noNullPrototype: true },
          ),
          { maxKeys: 4, noNullPrototype: true },
        )
        .map((properties) => ({ type: 'object', properties }) as Record<string, unknown>),
    },
    { noNullPrototype: true },
  ),
  { selector: (tool) => tool.name, maxLength: 6 },
);

// Compared as JSON text: exact, key order included. (toStrictEqual misreads an own property named
// "constructor", which arbitrary property names produce.)
describe('tool round trips over arbitrary harness tools', () => {
  it('MCP: export then import gives the tools back exactly', () => {
    fc.assert(
      fc.property(toolsArbitrary, (tools) => {
        expect(JSON.stringify(importMcpTools(exportMcpTools(tools)))).toBe(JSON.stringify(tools));
      }),
    );
  });

  it('OpenAI: export then import gives the tools back exactly', () => {
    fc.assert(
      fc.property(toolsArbitrary, (tools) => {
        expect(JSON.stringify(importOpenAITools(exportOpenAITools(tools)))).toBe(JSON.stringify(tools));
      }),
    );
  });
});
