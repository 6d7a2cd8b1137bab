// MCP servers as tool backends (stdio or Streamable HTTP), through the official SDK client.
export {
  createMcpBackend,
  type McpBackendFactory,
  type McpBackendOptions,
  type McpServerOptions,
} from './mcp-backend.js';
export { type McpCallResult, toToolOutcome } from './to-tool-outcome.js';
