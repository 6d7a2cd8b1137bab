// The replay scenario served as an RL environment over loopback HTTP: 64 concurrent helpdesk episodes
// (under the base harness and under `hat` variants), stepped with the logged agent messages, end with the
// same trajectories and rewards as the simulator's in-process runs.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinOperators } from '../../../perturbations/index.js';
import { type EnvServer, startEnvServer } from '../../../src/adapters/env-http/server.js';
import { compilePolicy, parsePolicy } from '../../../src/augment/policy.js';
import { presets } from '../../../src/augment/presets.js';
import { createRegistry } from '../../../src/augment/registry.js';
import { loadHarnessFile } from '../../../src/harness/parse-harness.js';
import { createEnvService } from '../../../src/runtime/env/service.js';
import { toChatMessages } from '../../../src/runtime/episode.js';
import { type SimulatedEpisode, simulate } from '../../../src/runtime/sim/simulate.js';
import { createReplayScenario } from '../../../src/scenarios/replay/index.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { agentMessages } from '../../support/env-episodes.js';
import { projectRoot } from '../../support/run-cli.js';

const harness = await loadHarnessFile(join(projectRoot, 'fixtures/helpdesk/harness.yaml'));
const logs = (await readFile(join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl'), 'utf8'))
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Trajectory);
const scenario = createReplayScenario({ trajectories: logs });
const hat = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the protocol, checked field by field below
type Json = any;
async function call(url: string, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function inProcess(seed: string, index: number, augment: boolean): Promise<SimulatedEpisode> {
  const run = simulate({
    scenario,
    harness,
    seed,
    shard: { index, count: logs.length },
    ...(augment ? { augment: { plan: hat, severity: 0.5 } } : {}),
  });
  return (await run.next()).value as SimulatedEpisode;
}

describe('replay scenario as an environment (helpdesk)', () => {
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

  it('64 concurrent loopback episodes give the in-process trajectories and rewards', async () => {
    const setups = Array.from({ length: 64 }, (_, i) => ({
      seed: `seed-${i % 4}`,
      index: (i * 29 + 5) % logs.length,
      augment: i % 3 !== 0,
    }));
    const expected = await Promise.all(
      setups.map((setup) => inProcess(setup.seed, setup.index, setup.augment)),
    );
    const results = await Promise.all(
      setups.map(async (setup, i) => {
        const sim = expected[i]!;
        const reset = await call(server.url, '/reset', {
          seed: setup.seed,
          index: setup.index,
          harness: setup.augment ? { augment: 'hat' } : 'original',
        });
        expect(reset.status).toBe(200);
        const seen: unknown[] = [...reset.body.observation.messages];
        let last: Json = reset.body;
        for (const message of agentMessages(sim.trajectory.messages)) {
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
      expect(seen).toEqual(toChatMessages(sim.trajectory.messages));
      expect(last.done).toBe(true);
      expect(last.reward).toBe(sim.rewards.total);
      expect(last.rewards).toEqual(sim.rewards.rewards);
      expect(sim.rewards.rewards).toMatchObject({ toolCallMatch: 1, skillSelection: 1, hookCompliance: 1 });
    }
    expect(results.filter(({ sim }) => sim.variant).length).toBeGreaterThan(30);
  }, 120_000);
});
