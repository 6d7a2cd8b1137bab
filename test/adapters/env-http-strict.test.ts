// The env server's strict edges: tool-call `arguments` must be the JSON text the model wrote (an object is
// a 400 `invalid_step`, as documented), and every POST must say `Content-Type: application/json` (415
// otherwise), so that a web page cannot drive an unauthenticated server on localhost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EnvServer, startEnvServer } from '../../src/adapters/env-http/server.js';
import { createEnvService } from '../../src/runtime/env/service.js';
import { harness, scenario } from '../support/env-episodes.js';

let server: EnvServer;
let service: ReturnType<typeof createEnvService>;

beforeAll(async () => {
  service = createEnvService({ scenario, harness });
  server = await startEnvServer(service, { port: 0 });
});

afterAll(async () => {
  await server.close();
  service.close();
});

async function post(path: string, body: string, contentType?: string) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as { error?: { code: string; message: string } } & Record<string, unknown>,
  };
}

describe('env server: strict requests', () => {
  it('refuses tool-call arguments sent as an object with 400 invalid_step; the episode is unchanged', async () => {
    const reset = await post('/reset', '{}', 'application/json');
    expect(reset.status).toBe(200);
    const episode = reset.body.episode_id as string;
    const step = (args: unknown) =>
      post(
        '/step',
        JSON.stringify({
          episode_id: episode,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'load_skill', arguments: args } }],
          },
        }),
        'application/json',
      );
    const object = await step({ skill_id: 'item_qa' });
    expect(object.status).toBe(400);
    expect(object.body.error?.code).toBe('invalid_step');
    expect(object.body.error?.message).toMatch(
      /arguments must be the JSON text of the arguments \(a string\), not an object/,
    );
    // The same call as a string is taken.
    const text = await step('{"skill_id":"item_qa"}');
    expect(text.status).toBe(200);
  });

  it('answers 415 to a POST without Content-Type: application/json', async () => {
    for (const contentType of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await post('/reset', '{}', contentType);
      expect(response.status, String(contentType)).toBe(415);
      expect(response.body.error?.code).toBe('unsupported_media_type');
    }
    expect((await post('/reset', '{}', 'application/json; charset=utf-8')).status).toBe(200);
  });
});
