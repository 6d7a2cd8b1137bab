// The real MCP servers from npm the tests start over stdio: @modelcontextprotocol/server-filesystem over
// a folder, and @modelcontextprotocol/server-memory over a file. `rawToolsList` reads a server's tools/list
// response as the bytes it wrote (the SDK client would re-order the fields through its own schema).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createMcpBackend, type McpBackendFactory } from '../../src/adapters/mcp/index.js';
import { projectRoot } from './run-cli.js';

export const filesystemServerScript = join(
  projectRoot,
  'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);
export const memoryServerScript = join(
  projectRoot,
  'node_modules/@modelcontextprotocol/server-memory/dist/index.js',
);

/** A filesystem server over `root`, connected. */
export async function startFilesystemServer(root: string): Promise<McpBackendFactory> {
  const server = createMcpBackend({ command: process.execPath, args: [filesystemServerScript, root] });
  await server.connect();
  return server;
}

/** The `result` of a server's tools/list response, as the exact JSON text it wrote on stdout. */
export function rawToolsList(args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('no tools/list answer within 20 s'));
    }, 20_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      for (const line of buffer.split('\n').slice(0, -1)) {
        const message = JSON.parse(line) as { id?: number };
        if (message.id === 1)
          child.stdin.write(
            `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })}\n`,
          );
        if (message.id === 2) {
          clearTimeout(timer);
          child.kill();
          // The response line is {"result":{…},"jsonrpc":"2.0","id":2}: cut out the result's own text.
          const start = line.indexOf('{', line.indexOf('"result"'));
          const parsed = JSON.parse(line) as { result: unknown };
          const text = JSON.stringify(parsed.result);
          if (line.slice(start, start + text.length) !== text)
            reject(new Error('unexpected response layout'));
          resolve(text);
        }
      }
      buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hsa-test', version: '1' } } })}\n`,
    );
  });
}
