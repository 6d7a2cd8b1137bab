// The environment service in process: episodes replayed step by step give the simulator's trajectories and
// rewards, malformed steps leave the episode intact, and ids, expiry, capacity and get_reward behave as the
// protocol says.
import { describe, expect, it } from 'vitest';
import { EnvError } from '../../src/runtime/env/env-error.js';
import { createEnvService, type EnvService } from '../../src/runtime/env/service.js';
import { toChatMessages } from '../../src/runtime/episode.js';
import type { SimulatedEpisode } from '../../src/runtime/sim/simulate.js';
import { FIXTURE_EPISODES, planEpisodes } from '../../src/scenarios/livestream/plan.js';
import {
  agentMessages,
  type EpisodeSetup,
  expectReplayed,
  harness,
  inProcess,
  scenario,
} from '../support/env-episodes.js';

/** Replays the in-process run's agent messages through the service; returns what the client saw. */
async function replay(
  env: EnvService,
  reset: Awaited<ReturnType<EnvService['reset']>>,
  sim: SimulatedEpisode,
) {
  const seen = [...reset.observation.messages];
  // An episode an input hook ends at once is done at reset, with no step to take.
  let last: { done: boolean; reward: number; rewards?: unknown } = reset;
  for (const message of agentMessages(sim.trajectory.messages)) {
    const step = await env.step(reset.episode_id, message);
    seen.push(...step.observation.messages);
    last = step;
  }
  return { seen, last };
}

async function refusal(promise: Promise<unknown> | (() => unknown)): Promise<EnvError> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    if (EnvError.isEnvError(error)) return error;
    throw error;
  }
  throw new Error('expected an EnvError');
}

const scenarioIndex = (seed: string, name: string) =>
  planEpisodes({ episodes: FIXTURE_EPISODES, seed, idPrefix: 'env-' }).findIndex(
    (entry) => entry.scenario.name === name,
  );

describe('createEnvService', () => {
  it('reset sends the first user message and offers the harness tools', async () => {
    const env = createEnvService({ scenario, harness });
    const reset = await env.reset({ seed: 's', index: scenarioIndex('s', 'price') });
    expect(reset.episode_id).toBe('ep-1');
    expect(reset.done).toBe(false);
    expect(reset.observation.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(reset.observation.messages.some((message) => 'hsa' in message)).toBe(false);
    expect(reset.observation.tools.map((tool) => tool.function.name)).toContain('get_price_and_coupons');
    expect(reset.info).toMatchObject({
      scenario: 'livestream',
      labels: { scenario: 'price' },
      seed: 's',
      entry_id: expect.stringMatching(/^env-\d{4}$/),
    });
    expect(env.health()).toMatchObject({ status: 'ok', episodes: 1, finished: 0 });
  });

  it('the same resets give identical answers on two servers', async () => {
    const requests = [{ seed: 7, index: 11 }, { seed: 7, index: 12, harness: { augment: 'hat' } }, {}];
    const answers = async () => {
      const env = createEnvService({ scenario, harness });
      const out: string[] = [];
      for (const request of requests) out.push(JSON.stringify(await env.reset(request)));
      return out;
    };
    expect(await answers()).toEqual(await answers());
  });

  it('replaying the in-process run gives its trajectory and rewards (original, hat, faults, client variant)', async () => {
    const env = createEnvService({ scenario, harness });
    const setups: EpisodeSetup[] = [
      { seed: 'a', index: scenarioIndex('a', 'multi_turn') },
      { seed: 'a', index: scenarioIndex('a', 'item_qa'), augment: true },
      { seed: 'b', index: scenarioIndex('b', 'stock'), faults: 0.5 },
      { seed: 'c', index: scenarioIndex('c', 'multi_intent'), augment: true, faults: 0.3 },
    ];
    for (const setup of setups) {
      const sim = await inProcess(setup);
      const reset = await env.reset({
        seed: setup.seed,
        index: setup.index,
        ...(setup.augment ? { harness: { augment: 'hat' } } : {}),
        ...(setup.faults !== undefined ? { faults: { rate: setup.faults } } : {}),
      });
      expect(reset.info.variant_id).toBe(sim.variant?.id);
      const { seen, last } = await replay(env, reset, sim);
      expectReplayed(sim, seen, last);
    }
    // The augmented setups really ran under a variant, and the faulted ones met faults.
    expect((await inProcess(setups[1]!)).variant).toBeDefined();
    expect((await inProcess(setups[2]!)).faults.failed).toBeGreaterThan(0);
  });

  it('runs a variant the client brings, scored after mapping back', async () => {
    const env = createEnvService({ scenario, harness });
    const sim = await inProcess({ seed: 'v', index: 9, augment: true });
    expect(sim.variant).toBeDefined();
    const reset = await env.reset({
      seed: 'v',
      index: 9,
      harness: { variant: { harness: sim.harness, relabel: sim.variant!.relabel } },
    });
    expect(reset.observation.tools).toEqual(sim.trajectory.tools);
    const { seen, last } = await replay(env, reset, sim);
    expect(seen).toEqual(toChatMessages(sim.trajectory.messages));
    expect(last.reward).toBe(sim.rewards.total);
  });

  it('refuses an invalid variant harness with its issues, and an unknown policy', async () => {
    const env = createEnvService({ scenario, harness });
    const bad = await refusal(env.reset({ harness: { variant: { harness: { id: 'x' } } } }));
    expect(bad.status).toBe(400);
    expect(bad.code).toBe('invalid_harness');
    expect(bad.issues.length).toBeGreaterThan(0);
    expect(bad.issues[0]!.path.slice(0, 3)).toEqual(['harness', 'variant', 'harness']);
    const unknown = await refusal(env.reset({ harness: { augment: 'nope' } }));
    expect(unknown.status).toBe(400);
    expect(unknown.message).toContain('hat');
    expect((await refusal(env.reset({ index: FIXTURE_EPISODES }))).status).toBe(400);
    const typo = await refusal(env.reset({ sead: 3 }));
    expect(typo.code).toBe('invalid_request');
    expect(typo.issues[0]!.message).toContain('sead');
    expect(env.health().episodes).toBe(0);
  });

  it('a malformed step is a 400 with the reason and leaves the episode as it was', async () => {
    const env = createEnvService({ scenario, harness });
    const setup = { seed: 'm', index: 3 };
    const sim = await inProcess(setup);
    const reset = await env.reset(setup);
    const bad = await refusal(env.step(reset.episode_id, { role: 'assistant', content: 42 }));
    expect(bad.status).toBe(400);
    expect(bad.code).toBe('invalid_step');
    expect(bad.message).toContain('content must be a string');
    const noCalls = await refusal(
      env.step(reset.episode_id, { tool_calls: [{ function: { name: 'x', arguments: 42 } }] }),
    );
    expect(noCalls.message).toContain('arguments');
    const { seen, last } = await replay(env, reset, sim);
    expect(seen).toEqual(toChatMessages(sim.trajectory.messages));
    expect(last.reward).toBe(sim.rewards.total);
  });

  it('unknown episodes are 404, steps after the end 409, and a second concurrent step 409', async () => {
    const env = createEnvService({ scenario, harness });
    const unknown = await refusal(env.step('ep-404', { content: 'hi' }));
    expect([unknown.status, unknown.code]).toEqual([404, 'unknown_episode']);
    const setup = { seed: 'd', index: scenarioIndex('d', 'price') };
    const sim = await inProcess(setup);
    const reset = await env.reset(setup);
    const [first] = agentMessages(sim.trajectory.messages);
    const running = env.step(reset.episode_id, first);
    const busy = await refusal(env.step(reset.episode_id, first));
    expect([busy.status, busy.code]).toEqual([409, 'episode_busy']);
    await running;
    for (const message of agentMessages(sim.trajectory.messages).slice(1))
      await env.step(reset.episode_id, message);
    const after = await refusal(env.step(reset.episode_id, { content: 'again' }));
    expect([after.status, after.code]).toEqual([409, 'episode_done']);
    expect(after.message).toContain('done');
  });

  it('an episode whose only user message an input hook stops is done at reset', async () => {
    const env = createEnvService({ scenario, harness });
    const index = scenarioIndex('i', 'input_spam');
    expect(index).toBeGreaterThanOrEqual(0);
    const sim = await inProcess({ seed: 'i', index });
    const reset = await env.reset({ seed: 'i', index });
    expect(reset.done).toBe(true);
    expect(reset.reward).toBe(sim.rewards.total);
    expect(reset.observation.messages).toEqual(toChatMessages(sim.trajectory.messages));
    expect(reset.info.hook_events.length).toBeGreaterThan(0);
    expect((await refusal(env.step(reset.episode_id, { content: 'hi' }))).status).toBe(409);
  });

  it('idle episodes expire on the injected clock; a request keeps an episode alive', async () => {
    let now = 1_000;
    const env = createEnvService({ scenario, harness, idleMs: 60_000, now: () => now });
    const kept = await env.reset({ seed: 'x', index: 1 });
    const dropped = await env.reset({ seed: 'x', index: 2 });
    now += 59_999;
    expect(env.getReward({ query: [''], prompts: [''], labels: [kept.episode_id] }).rewards).toHaveLength(1);
    now += 1;
    expect(env.health().episodes).toBe(1);
    const gone = await refusal(env.step(dropped.episode_id, { content: 'hi' }));
    expect([gone.status, gone.code]).toEqual([404, 'episode_expired']);
    expect(gone.message).toContain('expired');
    now += 60_000;
    expect(env.health().episodes).toBe(0);
  });

  it('caps episodes: running ones refuse a new reset with 429, finished ones give way', async () => {
    const env = createEnvService({ scenario, harness, maxEpisodes: 2 });
    const setup = { seed: 'k', index: scenarioIndex('k', 'price') };
    const sim = await inProcess(setup);
    const first = await env.reset(setup);
    await env.reset({ seed: 'k', index: 0 });
    const full = await refusal(env.reset({ seed: 'k', index: 1 }));
    expect([full.status, full.code]).toEqual([429, 'too_many_episodes']);
    expect(full.message).toContain('2');
    await replay(env, first, sim);
    expect(env.health()).toMatchObject({ episodes: 1, finished: 1 });
    await env.reset({ seed: 'k', index: 1 });
    expect(env.health()).toMatchObject({ episodes: 2, finished: 0 });
    const evicted = await refusal(() => env.getReward({ query: [''], labels: [first.episode_id] }));
    expect(evicted.status).toBe(404);
  });

  it('get_reward answers in the OpenRLHF shape, running episodes included, and checks lengths', async () => {
    const env = createEnvService({ scenario, harness });
    const setup = { seed: 'r', index: 4 };
    const sim = await inProcess(setup);
    const done = await env.reset(setup);
    const { last } = await replay(env, done, sim);
    const running = await env.reset({ seed: 'r', index: 6 });
    const answer = env.getReward({
      query: ['q1', 'q2', 'q3'],
      prompts: ['p1', 'p2', 'p3'],
      labels: [done.episode_id, running.episode_id, done.episode_id],
    });
    expect(answer.rewards).toEqual([last.reward, answer.rewards[1], last.reward]);
    expect(answer.scores).toEqual(answer.rewards);
    expect(Object.keys(answer.extra_logs).sort()).toEqual(
      ['accuracy', 'done', 'effectiveness', 'skillSelection', 'toolRationality'].sort(),
    );
    expect(answer.extra_logs.done).toEqual([1, 0, 1]);
    expect(answer.extra_logs.accuracy![0]).toBe(sim.rewards.rewards.accuracy);
    for (const values of Object.values(answer.extra_logs)) expect(values).toHaveLength(3);
    // A running episode's missing turns count against it.
    expect(answer.rewards[1]).toBeLessThan(1);
    const mismatch = await refusal(() =>
      env.getReward({ query: ['a', 'b'], prompts: ['a'], labels: ['x', 'y'] }),
    );
    expect([mismatch.status, mismatch.code]).toEqual([400, 'invalid_request']);
    expect(mismatch.message).toContain('2, 1, 2');
    const unknown = await refusal(() => env.getReward({ query: ['a'], prompts: ['a'], labels: ['nope'] }));
    expect(unknown.status).toBe(404);
    expect(unknown.issues[0]!.path).toEqual(['labels', 0]);
  });
});
