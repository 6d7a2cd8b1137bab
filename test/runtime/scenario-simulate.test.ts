// simulate() over a scenario that is not the live-stream shop (the library-desk example): determinism over
// seeds, shards and concurrency; the scenario's check; a scenario without an oracle needs a model; an
// episode with neither gold nor oracle is played under the base harness with the reason.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenario as library } from '../../examples/custom-scenario/library-scenario.js';
import { builtinOperators } from '../../perturbations/index.js';
import { createRegistry } from '../../src/augment/registry.js';
import { resolvePolicy } from '../../src/augment/resolve-policy.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { ChatModel } from '../../src/runtime/chat-model.js';
import type { Scenario } from '../../src/runtime/scenario.js';
import {
  NO_GOLD_TO_CARRY,
  type SimulatedEpisode,
  type SimulateOptions,
  simulate,
} from '../../src/runtime/sim/simulate.js';
import { projectRoot } from '../support/run-cli.js';

const harness = await loadHarnessFile(join(projectRoot, 'examples/custom-scenario/harness.yaml'));

async function collect(options: Omit<SimulateOptions, 'harness'>): Promise<SimulatedEpisode[]> {
  const episodes: SimulatedEpisode[] = [];
  for await (const episode of simulate({ harness, ...options })) episodes.push(episode);
  return episodes;
}

const lines = (episodes: SimulatedEpisode[]) => episodes.map((episode) => JSON.stringify(episode.trajectory));

/** A model that always answers with one short reply. */
const polite: ChatModel = {
  async complete() {
    return {
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: 'polite',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Noted.' } }],
    };
  },
};

describe('simulate with a scenario of its own', () => {
  it('gives the same episodes for the same seed, any shard count and any concurrency', async () => {
    const { plan } = await resolvePolicy('tools-only', { registry: createRegistry(builtinOperators) });
    const options = { scenario: library, seed: 's', episodes: 9, augment: { plan }, faults: { rate: 0.3 } };
    const whole = await collect(options);
    expect(lines(await collect(options))).toEqual(lines(whole));
    const parts = await Promise.all(
      [0, 1, 2].map((index) => collect({ ...options, shard: { index, count: 3 }, concurrency: 3 })),
    );
    expect(lines(parts.flat()).sort()).toEqual(lines(whole).sort());
    expect(whole.some((episode) => episode.variant !== undefined)).toBe(true);
    expect(whole.some((episode) => episode.faults.failed > 0)).toBe(true);
    // Another seed plans other episodes.
    expect(lines(await collect({ ...options, seed: 't' }))).not.toEqual(lines(whole));
  });

  it('refuses a harness the scenario cannot run, with the scenario’s own issue', async () => {
    const lacking = { ...harness, tools: { ...harness.tools, items: harness.tools.items.slice(0, 1) } };
    await expect(
      (async () => {
        for await (const _ of simulate({ scenario: library, harness: lacking })) break;
      })(),
    ).rejects.toThrow(
      /scenario "library-desk" cannot run harness "library-desk": the harness lacks reserve_book/,
    );
  });

  it('needs a model when the scenario has no oracle; without gold an augmented episode says why it ran unaugmented', async () => {
    const { oracle: _oracle, ...withoutOracle } = library;
    const bare: Scenario = withoutOracle;
    await expect(collect({ scenario: bare })).rejects.toThrow(
      /scenario "library-desk" has no oracle: simulate it with a model/,
    );
    const { plan } = await resolvePolicy('tools-only', { registry: createRegistry(builtinOperators) });
    const played = await collect({
      scenario: bare,
      episodes: 2,
      model: { model: polite },
      augment: { plan },
    });
    expect(played.map((episode) => episode.augmentSkipped)).toEqual([NO_GOLD_TO_CARRY, NO_GOLD_TO_CARRY]);
    expect(played[0]!.trajectory.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Noted.' });
    // The default (generic) scorer: no tools called where the labels expect two.
    expect(played[0]!.rewards.rewards.toolCallMatch).toBeLessThan(1);
  });
});
