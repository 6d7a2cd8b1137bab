// Shared by the environment tests (in process and over HTTP): the live-stream harness, the simulator's own
// run of one fixture episode, the agent messages a client replays from it step by step, and the check that
// the replay ended where the simulator did.
import { join } from 'node:path';
import { expect } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { toChatMessages } from '../../src/runtime/episode.js';
import { type SimulatedEpisode, simulate } from '../../src/runtime/sim/simulate.js';
import { createLivestreamScenario, FIXTURE_EPISODES } from '../../src/scenarios/livestream/index.js';
import type { Message } from '../../src/trajectory/schema.js';
import { projectRoot } from './run-cli.js';

/** The live-stream scenario the environment serves. */
export const scenario = createLivestreamScenario();
/** The live-stream fixture harness the environment serves; never mutate it. */
export const harness: Harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
const hat = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));

/** Which fixture episode to play: the seed, its index, augmented with the `hat` preset, the fault rate. */
export interface EpisodeSetup {
  seed: string;
  index: number;
  augment?: boolean;
  faults?: number;
}

/**
 * The same episode played in process by the simulator, as the environment plays it.
 *
 * @example
 * const sim = await inProcess({ seed: 'a', index: 3, augment: true });
 */
export async function inProcess(setup: EpisodeSetup): Promise<SimulatedEpisode> {
  const run = simulate({
    scenario,
    harness,
    seed: setup.seed,
    idPrefix: 'env-',
    shard: { index: setup.index, count: FIXTURE_EPISODES },
    ...(setup.augment ? { augment: { plan: hat, severity: 0.5 } } : {}),
    ...(setup.faults !== undefined ? { faults: { rate: setup.faults } } : {}),
  });
  return (await run.next()).value as SimulatedEpisode;
}

/**
 * The messages the agent wrote: every assistant message but the fallbacks and blocks the episode itself
 * appends, without their markers.
 *
 * @example
 * for (const message of agentMessages(sim.trajectory.messages)) await env.step(episodeId, message);
 */
export function agentMessages(messages: readonly Message[]) {
  return messages.flatMap((message) => {
    if (message.role !== 'assistant') return [];
    if (message.hsa?.event === 'hook_fallback' || message.hsa?.event === 'hook_blocked') return [];
    const { hsa: _marker, ...rest } = message;
    return [rest];
  });
}

/**
 * Asserts that a replay showed the client the simulator's whole trajectory and ended done, with the
 * simulator's total reward and its four parts.
 *
 * @example
 * expectReplayed(sim, seen, last); // seen: every observation message, last: the final step's answer
 */
export function expectReplayed(
  sim: SimulatedEpisode,
  seen: readonly unknown[],
  last: { done: boolean; reward: number; rewards?: unknown },
): void {
  expect(seen).toEqual(toChatMessages(sim.trajectory.messages));
  expect(last.done).toBe(true);
  expect(last.reward).toBe(sim.rewards.total);
  expect(last.rewards).toEqual({
    accuracy: sim.rewards.rewards.accuracy,
    effectiveness: sim.rewards.rewards.effectiveness,
    toolRationality: sim.rewards.rewards.toolRationality,
    skillSelection: sim.rewards.rewards.skillSelection,
  });
}
