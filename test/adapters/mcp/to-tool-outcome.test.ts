// MCP tool results → tool outcomes, table-driven.
import { describe, expect, it } from 'vitest';
import { toToolOutcome } from '../../../src/adapters/mcp/index.js';

describe('toToolOutcome', () => {
  it.each([
    ['one text part', { content: [{ type: 'text', text: '{"ok":true}' }] }, { content: '{"ok":true}' }],
    [
      'text parts joined',
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { content: 'a\nb' },
    ],
    ['structured content without text', { content: [], structuredContent: { n: 1 } }, { content: '{"n":1}' }],
    [
      'other parts as JSON',
      { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] },
      { content: '[{"type":"image","data":"AA==","mimeType":"image/png"}]' },
    ],
    ['a legacy toolResult', { toolResult: [1, 2] }, { content: '[1,2]' }],
    [
      'isError',
      { content: [{ type: 'text', text: 'denied' }], isError: true },
      { content: '{"error":{"type":"tool_error","message":"denied"}}', error: 'tool_error' },
    ],
  ])('%s', (_name, result, expected) => {
    expect(toToolOutcome(result)).toEqual(expected);
  });
});
