// checkScenarioLaws: the bundled scenarios obey it as any third-party one must, and each law can fail — a
// scenario broken in one way is caught by that law, with the law, the run seed and fast-check's seed named.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenario as library } from '../../examples/custom-scenario/library-scenario.js';
import { createRandom } from '../../src/augment/random.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { PlannedEpisode, Scenario, ScenarioEpisode } from '../../src/runtime/scenario.js';
import { createLivestreamScenario, loadHelpdeskScenario } from '../../src/scenarios/index.js';
import { checkScenarioLaws, scenarioLaws } from '../../src/testing/index.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { projectRoot } from '../support/run-cli.js';

const libraryHarness = await loadHarnessFile(join(projectRoot, 'examples/custom-scenario/harness.yaml'));

/** The law's failure as checkScenarioLaws reports it: the law with the run's seed, shards and concurrency, and fast-check's seed to replay it. */
const failure = (law: string) =>
  new RegExp(
    `^(?=[\\s\\S]*law "${law}" broken: [^\\n]*\\(seed law-\\d+, \\d shards, concurrency \\d\\))(?=[\\s\\S]*\\{ seed: -?\\d+, path: )`,
  );

describe('the bundled scenarios obey the scenario laws', () => {
  it('replay on the helpdesk logs and tools', async () => {
    const { scenario, harness } = await loadHelpdeskScenario();
    const report = await checkScenarioLaws(scenario, { harness, episodes: 3, runs: 2 });
    expect(report.runs).toBe(2);
    expect(report.golds).toBe(6);
    await scenario.close?.();
  });

  it('the live-stream shop', async () => {
    const harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
    const report = await checkScenarioLaws(createLivestreamScenario(), {
      harness,
      episodes: 3,
      runs: 2,
      faults: { rate: 0.2 },
    });
    expect(report.episodes).toBe(6);
  });

  it('the library-desk example (a scenario without gold trajectories)', async () => {
    const report = await checkScenarioLaws(library, { harness: libraryHarness, runs: 2 });
    expect(report.episodes).toBe(12);
    expect(report.golds).toBe(0);
  });
});

/** The library-desk scenario with one part replaced. */
const broken = (parts: Partial<Scenario>): Scenario => ({ ...library, ...parts });

describe('each law fails on a scenario that breaks it', () => {
  it('names the four laws', () => {
    expect(scenarioLaws).toEqual([
      'plan well formed',
      'deterministic across shards and concurrency',
      'gold episodes valid',
      'rewards in range',
    ]);
  });

  it('plan well formed: two episodes with one id', async () => {
    const twice = broken({
      plan: ({ episodes = 3 }) => Array.from({ length: episodes }, (_, index) => ({ id: 'lib-1', index })),
    });
    await expect(checkScenarioLaws(twice, { harness: libraryHarness, runs: 1 })).rejects.toThrow(
      failure('plan well formed'),
    );
  });

  it('deterministic across shards and concurrency: episodes drawn from one stream in the order they are made', async () => {
    // The classic slip: one random stream for the run instead of a fork per episode id, so an episode
    // depends on which episodes were made before it (another shard makes others).
    let stream = createRandom('run');
    const inOrder = broken({
      plan: (context) => {
        stream = createRandom(context.seed);
        return library.plan(context);
      },
      episode: async (planned, context) => {
        const episode = await library.episode(planned, context);
        return { ...episode, meta: { ...episode.meta, days: stream.int(7, 21) } };
      },
    });
    await expect(checkScenarioLaws(inOrder, { harness: libraryHarness, runs: 1 })).rejects.toThrow(
      failure('deterministic across shards and concurrency'),
    );
  });

  it('gold episodes valid: a gold trajectory that calls a tool the harness lacks', async () => {
    const withBadGold = broken({
      episode: async (planned: PlannedEpisode, context): Promise<ScenarioEpisode> => {
        const episode = await library.episode(planned, context);
        const played = await library.oracle!.play({
          ...context,
          episode,
          tools: await library.backend(episode, context),
        });
        const gold: Trajectory = structuredClone(played.trajectory);
        for (const message of gold.messages)
          if (message.role === 'assistant')
            for (const call of message.tool_calls ?? [])
              if (call.function.name === 'reserve_book') call.function.name = 'reserve_flight';
        return { ...episode, gold };
      },
    });
    await expect(checkScenarioLaws(withBadGold, { harness: libraryHarness, runs: 1 })).rejects.toThrow(
      failure('gold episodes valid'),
    );
  });

  it('rewards in range: a reward above 1', async () => {
    const generous = broken({
      rewards: () => ({ total: 1, rewards: { accuracy: 1.5 }, findings: [] }),
    });
    await expect(checkScenarioLaws(generous, { harness: libraryHarness, runs: 1 })).rejects.toThrow(
      failure('rewards in range'),
    );
    await expect(checkScenarioLaws(generous, { harness: libraryHarness, runs: 1 })).rejects.toThrow(
      /episode lib-1: accuracy = 1\.5 outside \[0, 1\]/,
    );
  });
});
