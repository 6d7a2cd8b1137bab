// The environment server over loopback HTTP with a plain fetch client: 64 concurrent episodes (original,
// augmented with the `hat` preset, with tool faults) replayed step by step give the same trajectories and
// rewards as the simulator in process; and the transport's refusals (400, 401, 404, 405, 409, 413).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EnvServer, startEnvServer } from '../../src/adapters/env-http/server.js';
import { createEnvService } from '../../src/runtime/env/service.js';
import { FIXTURE_EPISODES } from '../../src/scenarios/livestream/plan.js';
import {
  agentMessages,
  type EpisodeSetup,
  expectReplayed,
  harness,
  inProcess,
  scenario,
} from '../support/env-episodes.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the protocol, checked field by field below
type Json = any;

async function call(url: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
}

describe('env HTTP server', () => {
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

  it('listens on 127.0.0.1 and answers /health', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await call(server.url, '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', version: expect.any(String) });
  });

  it('64 concurrent episodes replayed over HTTP give the in-process trajectories and rewards', async () => {
    const setups: EpisodeSetup[] = Array.from({ length: 64 }, (_, i) => ({
      seed: `seed-${i % 5}`,
      index: (i * 37 + 11) % FIXTURE_EPISODES,
      augment: i % 3 === 1,
      ...(i % 4 === 2 ? { faults: 0.3 } : {}),
    }));
    const expected = await Promise.all(setups.map(inProcess));
    const results = await Promise.all(
      setups.map(async (setup, i) => {
        const sim = expected[i]!;
        const reset = await call(server.url, '/reset', {
          seed: setup.seed,
          index: setup.index,
          ...(setup.augment ? { harness: { augment: 'hat' } } : { harness: 'original' }),
          ...(setup.faults !== undefined ? { faults: { rate: setup.faults } } : {}),
        });
        expect(reset.status).toBe(200);
        const seen: unknown[] = [...reset.body.observation.messages];
        let last: Json = reset.body;
        for (const message of agentMessages(sim.trajectory.messages)) {
          expect(last.done).toBe(false);
          const step = await call(server.url, '/step', { episode_id: reset.body.episode_id, message });
          expect(step.status).toBe(200);
          seen.push(...step.body.observation.messages);
          last = step.body;
        }
        return { sim, reset: reset.body, seen, last };
      }),
    );
    for (const { sim, reset, seen, last } of results) {
      expect(reset.info.variant_id).toBe(sim.variant?.id);
      expectReplayed(sim, seen, last);
    }
    // The mix really covered variants, faults and imperfect episodes.
    expect(results.filter(({ sim }) => sim.variant).length).toBeGreaterThan(10);
    expect(results.reduce((sum, { sim }) => sum + sim.faults.failed, 0)).toBeGreaterThan(5);
    expect(new Set(results.map(({ sim }) => sim.rewards.total)).size).toBeGreaterThan(1);
    expect(new Set(results.map(({ reset }) => reset.episode_id)).size).toBe(64);

    const labels = results.map(({ reset }) => reset.episode_id);
    const rewards = await call(server.url, '/get_reward', {
      query: labels.map(() => 'prompt and response'),
      prompts: labels.map(() => 'prompt'),
      labels,
    });
    expect(rewards.status).toBe(200);
    expect(rewards.body.rewards).toEqual(results.map(({ sim }) => sim.rewards.total));
    expect(rewards.body.scores).toEqual(rewards.body.rewards);
    expect(rewards.body.extra_logs.toolRationality).toEqual(
      results.map(({ sim }) => sim.rewards.rewards.toolRationality!),
    );
  });

  it('a malformed step is a 400 with the reason, and the episode then takes a valid step', async () => {
    const setup = { seed: 'bad-step', index: 21, augment: false };
    const sim = await inProcess(setup);
    const reset = await call(server.url, '/reset', { seed: setup.seed, index: setup.index });
    const id = reset.body.episode_id;
    const bad = await call(server.url, '/step', { episode_id: id, message: { role: 'user', content: 'hi' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_step');
    expect(bad.body.error.message).toContain('must be an assistant message');
    const messages = agentMessages(sim.trajectory.messages);
    let last: Json;
    for (const message of messages) {
      const step = await call(server.url, '/step', { episode_id: id, message });
      expect(step.status).toBe(200);
      last = step.body;
    }
    expect(last.reward).toBe(sim.rewards.total);
    const after = await call(server.url, '/step', { episode_id: id, message: messages[0] });
    expect(after.status).toBe(409);
    expect(after.body.error.message).toContain('is done');
  });

  it('refuses unknown episodes, bad bodies, unknown routes and wrong methods', async () => {
    const unknown = await call(server.url, '/step', { episode_id: 'ep-nope', message: { content: 'hi' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('unknown_episode');
    const json = await call(server.url, '/reset', '{"seed": ');
    expect(json.status).toBe(400);
    expect(json.body.error.message).toContain('not valid JSON');
    const shape = await call(server.url, '/step', { message: { content: 'hi' } });
    expect(shape.status).toBe(400);
    expect(shape.body.error.issues[0].path).toEqual(['episode_id']);
    const lengths = await call(server.url, '/get_reward', {
      query: ['a', 'b'],
      prompts: ['a', 'b'],
      labels: ['x'],
    });
    expect(lengths.status).toBe(400);
    const route = await call(server.url, '/v1/chat/completions', {});
    expect(route.status).toBe(404);
    const method = await call(server.url, '/reset');
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('POST');
  });

  it('answers 413 to a body over the limit, declared or streamed', async () => {
    const small = await startEnvServer(service, { port: 0, maxBodyBytes: 4096 });
    try {
      const declared = await call(small.url, '/reset', JSON.stringify({ seed: 'x'.repeat(10_000) }));
      expect(declared.status).toBe(413);
      expect(declared.body.error.code).toBe('body_too_large');
      expect(declared.headers.get('connection')).toBe('close');
      const chunk = new TextEncoder().encode(' '.repeat(1024));
      const streamed = await fetch(`${small.url}/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < 64; i++) controller.enqueue(chunk);
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
      const fits = await call(small.url, '/reset', { seed: 'fits', index: 2 });
      expect(fits.status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('with a token, every route but /health needs the right bearer token', async () => {
    const guarded = await startEnvServer(service, { port: 0, token: 'correct horse' });
    try {
      const missing = await call(guarded.url, '/reset', {});
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer');
      expect((await call(guarded.url, '/reset', {}, { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await call(guarded.url, '/get_reward', { query: [], labels: [] })).status).toBe(401);
      const right = await call(
        guarded.url,
        '/reset',
        { index: 5 },
        { authorization: 'Bearer correct horse' },
      );
      expect(right.status).toBe(200);
      expect(right.body.episode_id).toMatch(/^ep-\d+$/);
      expect((await call(guarded.url, '/health')).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
