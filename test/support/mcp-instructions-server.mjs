// An MCP server over stdio, made with the MCP TypeScript SDK, that gives `instructions` in its initialize
// answer: the base instructions of GitHub's MCP server, verbatim (github/github-mcp-server,
// pkg/inventory/instructions.go at 64a49f34d076b6f5917dae1424521d43c7bcae84, MIT), followed by a line that
// writes template braces. One tool. For `hsa harness build --mcp-instructions`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export const instructions =
  "The GitHub MCP Server provides tools to interact with GitHub platform.\n\nTool selection guidance:\n\t1. Use 'list_*' tools for broad, simple retrieval and pagination of all items of a type (e.g., all issues, all PRs, all branches) with basic filtering.\n\t2. Use 'search_*' tools for targeted queries with specific criteria, keywords, or complex filters (e.g., issues with certain text, PRs by author, code containing functions).\n\nContext management:\n\t1. Use pagination whenever possible with batches of 5-10 items.\n\t2. Use minimal_output parameter set to true if the full information is not needed to accomplish a task.\n\nTool usage guidance:\n\t1. For 'search_*' tools: Use separate 'sort' and 'order' parameters if available for sorting results - do not include 'sort:' syntax in query strings. Query strings should contain only search criteria (e.g., 'org:google language:python'), not sorting instructions.";

const server = new McpServer(
  { name: 'github-mcp-server', version: '0.0.0-test' },
  { instructions: `${instructions}\n\nWrite {{owner}}/{{repo}} as the repository's full name.` },
);
server.registerTool(
  'get_me',
  { description: 'Get details of the authenticated GitHub user.', inputSchema: {} },
  async () => ({ content: [{ type: 'text', text: '{"login":"octocat"}' }] }),
);
await server.connect(new StdioServerTransport());
