// The MCP backend over Streamable HTTP against a small MCP server built with the SDK's server side and
// started on 127.0.0.1 by the test: episodes replayed under variants with renamed tools and (nested)
// parameters leave the server in the same state as under the base harness.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMcpBackend, type McpBackendFactory } from '../../../src/adapters/mcp/index.js';
import type { ScenarioVariant } from '../../../src/runtime/scenario.js';
import {
  call,
  calls,
  type GoldScript,
  harnessFor,
  load,
  recordGolds,
  replayAgainst,
  reply,
  variantFor,
} from '../../support/mcp-replay.js';

interface Note {
  title: string;
  tags: string[];
  author: { name: string; team: string };
  links: string[];
}

/** A notes server: its state lives in this process, read back with `list_notes`. */
async function startNotesServer(): Promise<{ url: string; notes: Note[]; close(): Promise<void> }> {
  const notes: Note[] = [];
  const mcp = new McpServer({ name: 'notes', version: '1.0.0' });
  mcp.registerTool(
    'add_note',
    {
      description: 'Add a note with tags and its author.',
      inputSchema: {
        title: z.string().min(1),
        tags: z.array(z.string()),
        author: z.object({ name: z.string(), team: z.string() }),
      },
    },
    async ({ title, tags, author }) => {
      if (notes.some((note) => note.title === title))
        return { content: [{ type: 'text', text: `a note "${title}" exists` }], isError: true };
      notes.push({ title, tags, author, links: [] });
      return { content: [{ type: 'text', text: JSON.stringify({ added: title, count: notes.length }) }] };
    },
  );
  mcp.registerTool(
    'link_notes',
    {
      description: 'Link one note to another.',
      inputSchema: { from_title: z.string(), to_title: z.string() },
    },
    async ({ from_title, to_title }) => {
      const from = notes.find((note) => note.title === from_title);
      if (!from || !notes.some((note) => note.title === to_title))
        return { content: [{ type: 'text', text: 'no such note' }], isError: true };
      from.links.push(to_title);
      return { content: [{ type: 'text', text: JSON.stringify({ linked: [from_title, to_title] }) }] };
    },
  );
  mcp.registerTool('list_notes', { description: 'All notes.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: JSON.stringify(notes) }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => 'session-1' });
  await mcp.connect(transport);
  const http: Server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    await transport.handleRequest(request, response, body ? JSON.parse(body) : undefined);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    notes,
    async close() {
      await mcp.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

const scripts: GoldScript[] = [
  {
    id: 'notes-1',
    turns: [
      {
        user: 'Note that the release is on Friday, tag it ops; I am Rui from platform.',
        script: [
          load('n1'),
          calls(
            call('n2', 'add_note', {
              title: 'release',
              tags: ['ops'],
              author: { name: 'Rui', team: 'platform' },
            }),
          ),
          reply('Noted the release for Friday.'),
        ],
      },
      {
        user: 'And a rollback plan, linked to it.',
        script: [
          load('n3'),
          calls(
            call('n4', 'add_note', {
              title: 'rollback',
              tags: ['ops', 'risk'],
              author: { name: 'Rui', team: 'platform' },
            }),
          ),
          calls(call('n5', 'link_notes', { from_title: 'rollback', to_title: 'release' })),
          reply('Added the rollback plan and linked it.'),
        ],
      },
    ],
  },
  {
    id: 'notes-2',
    turns: [
      {
        user: 'Add a postmortem note by Mei from sre, tagged incident.',
        script: [
          load('p1'),
          calls(
            call('p2', 'add_note', {
              title: 'postmortem',
              tags: ['incident'],
              author: { name: 'Mei', team: 'sre' },
            }),
          ),
          calls(call('p3', 'link_notes', { from_title: 'postmortem', to_title: 'rollback' })),
          reply('Added the postmortem note.'),
        ],
      },
    ],
  },
];

const servers: Awaited<ReturnType<typeof startNotesServer>>[] = [];
const backends: McpBackendFactory[] = [];
afterAll(async () => {
  await Promise.all(backends.map((backend) => backend.close()));
  await Promise.all(servers.map((server) => server.close()));
});

async function connected() {
  const server = await startNotesServer();
  servers.push(server);
  const backend = createMcpBackend({ url: server.url });
  backends.push(backend);
  await backend.connect();
  return { server, backend };
}

describe('MCP backend over Streamable HTTP', () => {
  it('replays under renamed tools and nested parameters to the same server state as under the base harness', async () => {
    const scratch = await connected();
    expect(scratch.backend.tools).toEqual(['add_note', 'link_notes', 'list_notes']);
    const base = harnessFor(scratch.backend.listed, 'notes');
    const golds = await recordGolds(base, scratch.backend, scripts);
    const variants = new Map<string, ScenarioVariant>();
    for (const gold of golds) variants.set(gold.id, await variantFor(base, gold));
    for (const variant of variants.values()) {
      const schemas = JSON.stringify(variant.harness.tools.items.map((tool) => tool.parameters));
      expect(variant.harness.tools.items.map((tool) => tool.name)).not.toContain('add_note');
      expect(schemas).not.toContain('"team"');
    }
    const underBase = await connected();
    const underVariants = await connected();
    const playedBase = await replayAgainst(base, golds, underBase.backend, undefined);
    const playedVariants = await replayAgainst(base, golds, underVariants.backend, variants);
    for (const played of [...playedBase, ...playedVariants]) {
      expect(played.deviations).toEqual([]);
      expect(played.score.rewards).toMatchObject({ toolCallMatch: 1, skillSelection: 1, hookCompliance: 1 });
    }
    expect(underBase.server.notes.map((note) => note.title)).toEqual(['release', 'rollback', 'postmortem']);
    expect(underVariants.server.notes).toEqual(underBase.server.notes);
    expect(scratch.server.notes).toEqual(underBase.server.notes);
  }, 60_000);

  it('answers a result marked isError with a tool error result', async () => {
    const { backend } = await connected();
    const base = harnessFor(backend.listed, 'notes');
    const episodeBackend = await backend(
      { id: 'e', context: {}, task: { id: 'e', turns: [] } },
      { base, seed: '1' },
    );
    const outcome = await episodeBackend.call(
      { id: '1', name: 'link_notes', arguments: { from_title: 'a', to_title: 'b' }, rawArguments: '{}' },
      { harness: base, signal: new AbortController().signal, callIndex: 0 },
    );
    expect(outcome.error).toBe('tool_error');
    expect(JSON.parse(outcome.content)).toEqual({ error: { type: 'tool_error', message: 'no such note' } });
  });
});
