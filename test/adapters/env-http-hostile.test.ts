// The env server against hostile bodies: a repeated JSON key or invalid UTF-8 is a 400 naming it (as in a
// harness file), a body over the limit is a 413 the service never sees, and a client's own variant costs
// one compile per schema the server has not seen, refused before any compile when a schema is too large.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EnvServer, startEnvServer } from '../../src/adapters/env-http/server.js';
import {
  compiledSchemaCount,
  maxSchemaNodes,
  schemaCompilations,
} from '../../src/harness/json-schema-validator.js';
import type { Harness } from '../../src/harness/schema.js';
import { createEnvService, type EnvService } from '../../src/runtime/env/service.js';
import { harness, scenario } from '../support/env-episodes.js';

let server: EnvServer;
let service: EnvService;
/** Bodies that reached the service's /reset. */
let resets = 0;

beforeAll(async () => {
  const real = createEnvService({ scenario, harness });
  // The real service, counting the resets that get past the transport.
  service = {
    ...real,
    reset: (request) => {
      resets++;
      return real.reset(request);
    },
  };
  server = await startEnvServer(service, { port: 0, maxBodyBytes: 512 * 1024 });
});

afterAll(async () => {
  await server.close();
  service.close();
});

async function post(body: string | Uint8Array) {
  const response = await fetch(`${server.url}/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      error?: { code: string; message: string; issues?: { path: unknown[]; message: string }[] };
    } & Record<string, unknown>,
  };
}

/** The base harness with its first tool's parameters replaced. */
function variantWith(parameters: Record<string, unknown>): Harness {
  const variant = structuredClone(harness);
  variant.tools.items[0]!.parameters = parameters;
  return variant;
}

describe('env server: hostile bodies', () => {
  it('refuses a repeated key with 400 and the key, before the service reads the body', async () => {
    const before = resets;
    const duplicate = await post('{"seed": "a",\n "index": 1, "seed": "b"}');
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.error?.code).toBe('invalid_request');
    expect(duplicate.body.error?.message).toBe(
      'request body is not valid JSON: duplicate key "seed" at line 2, column 14',
    );
    const nested = await post('{"harness": {"augment": "hat", "augment": "hat"}}');
    expect(nested.status).toBe(400);
    expect(nested.body.error?.message).toContain('duplicate key "augment"');
    expect(resets).toBe(before);
    expect((await post('{"seed": "a", "index": 1}')).status).toBe(200);
    expect(resets).toBe(before + 1);
  });

  it('refuses invalid UTF-8 with 400 rather than reading it as U+FFFD', async () => {
    const before = resets;
    const bytes = new Uint8Array([...new TextEncoder().encode('{"seed": "'), 0xff, 0xfe, 0x22, 0x7d]);
    const invalid = await post(bytes);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error?.message).toBe('request body is not valid UTF-8');
    expect(resets).toBe(before);
  });

  it('answers 413 to a body over the limit without handing it to the service', async () => {
    const before = resets;
    const big = await post(JSON.stringify({ seed: 'x'.repeat(600 * 1024) }));
    expect(big.status).toBe(413);
    expect(big.body.error?.code).toBe('body_too_large');
    expect(resets).toBe(before);
  });
});

describe('env server: a client variant costs linear work', () => {
  it('a fresh 5,000-value enum compiles one schema; the same variant again compiles none', async () => {
    const enumSchema = (tag: string) =>
      variantWith({
        type: 'object',
        properties: {
          link_id: { type: 'string', enum: Array.from({ length: 5000 }, (_, i) => `${tag}-${i}`) },
        },
        required: ['link_id'],
      });
    // The compiled validators are cached by content across the worker, in generations: a full one is dropped
    // whole and a fresh one starts. The base harness's schemas are put back by a reset under the base; if the
    // generation, filled by other files' work, is dropped while the variant compiles, the base's schemas are
    // compiled again with it, so that window does not count and the test runs again with other values, in the
    // fresh generation. Values no other test file sends.
    for (const attempt of [0, 1]) {
      const variant = enumSchema(`fresh-${attempt}-${import.meta.url.split('/').at(-1)}`);
      const body = JSON.stringify({ seed: 'v', index: 0, harness: { variant: { harness: variant } } });
      expect((await post(JSON.stringify({ seed: 'v', index: 0 }))).status).toBe(200);
      const before = schemaCompilations();
      const held = compiledSchemaCount();
      const first = await post(body);
      expect(first.status).toBe(200);
      if (attempt === 0 && compiledSchemaCount() <= held) continue;
      // Only the changed tool's schema is new: the base harness's are cached by content.
      expect(schemaCompilations()).toBe(before + 1);
      expect((await post(body)).status).toBe(200);
      expect(schemaCompilations()).toBe(before + 1);
      return;
    }
  });

  it(`a tool schema over ${maxSchemaNodes} nodes is a 400 naming the tool, with nothing compiled`, async () => {
    const properties = Object.fromEntries(
      Array.from({ length: maxSchemaNodes }, (_, i) => [`p${i}`, { type: 'string' }]),
    );
    const variant = variantWith({ type: 'object', properties });
    const before = schemaCompilations();
    const response = await fetch(`${server.url}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ harness: { variant: { harness: variant } } }),
    });
    const answer = (await response.json()) as {
      error: { code: string; issues: { path: unknown[]; message: string }[] };
    };
    expect(response.status).toBe(400);
    expect(answer.error.code).toBe('invalid_harness');
    const issue = answer.error.issues.find((entry) => entry.message.includes('nodes'));
    expect(issue?.path).toEqual(['harness', 'variant', 'harness', 'tools', 'items', 0, 'parameters']);
    expect(issue?.message).toContain(`more than ${maxSchemaNodes} nodes`);
    expect(schemaCompilations()).toBe(before);
  });
});
