import { describe, expect, it } from 'vitest';
import { instructionsSection } from '../../src/cli/harness-sources.js';

describe('instructionsSection', () => {
  it('makes a valid section id of any server name, and keeps the text as written', () => {
    expect(instructionsSection('github-mcp-server', 'Use {{owner}}.')).toEqual({
      id: 'github_mcp_server_instructions',
      title: 'github-mcp-server instructions',
      template: 'Use \\{{owner}}.',
      pinned: false,
    });
    expect(instructionsSection('1Password MCP', 'x').id).toBe('mcp_server_1password_mcp_instructions');
    expect(instructionsSection('服务器', 'x')).toMatchObject({
      id: 'mcp_server_instructions',
      title: '服务器 instructions',
    });
    expect(instructionsSection('  two\nlines ', 'x').title).toBe('two lines instructions');
    expect(instructionsSection(undefined, 'x').id).toBe('mcp_server_instructions');
  });
});
