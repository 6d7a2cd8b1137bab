// The public entry points that start or join a run take the run: what they derive is held in it (its
// trajectory facts), their output is the one they give with a run of their own, and a run given with hook
// checks that are not its own is refused as a usage error before any work.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenario as library } from '../../examples/custom-scenario/library-scenario.js';
import { builtinOperators } from '../../perturbations/index.js';
import { measureLatency } from '../../src/adapters/inference/measure-latency.js';
import { augmentRunIn, augmentRunOf, createAugmentRun } from '../../src/augment/augment-run.js';
import { createRegistry } from '../../src/augment/registry.js';
import { resolvePolicy } from '../../src/augment/resolve-policy.js';
import { generateBench } from '../../src/bench/generate.js';
import { readBenchItems } from '../../src/bench/items.js';
import { nextVersionBench } from '../../src/bench/next-version.js';
import type { BenchItem } from '../../src/bench/schema.js';
import { driftReport } from '../../src/drift/drift.js';
import { createHookCheckRegistry, defineHookCheck } from '../../src/harness/hook-checks.js';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { loadHarnessFile, parseHarness } from '../../src/harness/parse-harness.js';
import { createRunContext, defineRunMemo, runContextOf } from '../../src/harness/run-context.js';
import { reviewRow } from '../../src/review/review-row.js';
import { runAgent } from '../../src/runtime/agent-loop.js';
import type { ChatCompletionMessage, ChatModel } from '../../src/runtime/chat-model.js';
import { createEnvService } from '../../src/runtime/env/service.js';
import { replayLatency } from '../../src/runtime/latency.js';
import type { OracleInput, Scenario, ScenarioOracle } from '../../src/runtime/scenario.js';
import { playScenarioEpisode } from '../../src/runtime/sim/play.js';
import { simulate } from '../../src/runtime/sim/simulate.js';
import { createReplayScenario } from '../../src/scenarios/replay/index.js';
import { forwardFacts, knownForward } from '../../src/trajectory/facts.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import { airlineGolds, airlineHarnessInput, airlineTools } from '../support/airline.js';
import { userConfirmed } from '../support/airline-checks.js';
import { projectRoot } from '../support/run-cli.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

const livestream = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
const libraryHarness = await loadHarnessFile(join(projectRoot, 'examples/custom-scenario/harness.yaml'));
const registry = createRegistry(builtinOperators);
const { plan, policy } = await resolvePolicy('hat', { registry });
const items: BenchItem[] = [];
for await (const record of readBenchItems(join(projectRoot, 'fixtures/livestream/bench/items.jsonl'))) {
  if ('item' in record) items.push(record.item);
  if (items.length === 2) break;
}

/** Two registries with no checks: not the same registry, so a run of one refuses the other. */
const ownChecks = createHookCheckRegistry([]);
const otherChecks = createHookCheckRegistry([]);

async function usageErrorOf(work: () => Promise<unknown>): Promise<HarnessAugmentError> {
  try {
    await work();
  } catch (error) {
    if (HarnessAugmentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a usage error');
}

async function drain<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

describe('a run and hook checks together', () => {
  it('takes the run with its own hook checks, and refuses hook checks that are not its own', () => {
    const run = createRunContext({ hookChecks: ownChecks });
    expect(runContextOf(run, ownChecks)).toBe(run);
    expect(runContextOf(run, undefined)).toBe(run);
    expect(() => runContextOf(run, otherChecks)).toThrow(/not the run's/);
    const base = travelHarness();
    expect(() => augmentRunOf(base, { run, hookChecks: otherChecks })).toThrow(/not the run's/);
    expect(augmentRunOf(base, { run, hookChecks: ownChecks }).hookChecks).toBe(ownChecks);
  });

  it('makes a plain run the augmentation run of a base, sharing its memos', () => {
    const harness = travelHarness();
    const trajectory = baggageTrajectory(harness);
    const run = createRunContext();
    const augmentation = augmentRunIn(harness, run);
    expect(augmentRunOf(harness, { run }).base).toBe(harness);
    const moved = forwardFacts(trajectory, identityRelabel, harness, augmentation);
    expect(knownForward(trajectory, identityRelabel, harness, run)).toBe(moved);
    // An augmentation run over another base is still refused.
    expect(() => augmentRunOf(travelHarness(), { run: createAugmentRun(harness) })).toThrow(/another base/);
  });

  it('is refused by every entry point as a usage error, before any work', async () => {
    const run = createRunContext({ hookChecks: ownChecks });
    const both = { run, hookChecks: otherChecks };
    const errors = [
      await usageErrorOf(() =>
        drain(generateBench(livestream, items, { plan, variants: 1, seed: 1, ...both })),
      ),
      await usageErrorOf(() => drain(nextVersionBench(livestream, livestream, items, both))),
      await usageErrorOf(() =>
        drain(simulate({ scenario: library, harness: libraryHarness, episodes: 1, ...both })),
      ),
      await usageErrorOf(async () =>
        createEnvService({ scenario: library, harness: libraryHarness, ...both }),
      ),
      await usageErrorOf(() =>
        driftReport(
          [
            { label: 'v1', source: 'v1.yaml', harness: livestream },
            { label: 'v2', source: 'v2.yaml', harness: livestream },
          ],
          { policy, plan, severity: 0.5, seed: 'd', samples: 1, ...both },
        ),
      ),
    ];
    for (const error of errors) {
      expect(error.kind).toBe('usage');
      expect(error.message).toMatch(/not the run's/);
    }
  });
});

describe('entry points given a run', () => {
  it('generateBench derives in the run given, with the rows of a run of its own', async () => {
    const run = createRunContext();
    const options = { plan, variants: 2, seed: 7 };
    const inRun = await drain(generateBench(livestream, items, { ...options, run }));
    const alone = await drain(generateBench(livestream, items, options));
    expect(inRun.length).toBeGreaterThan(items.length);
    expect(JSON.stringify(inRun)).toBe(JSON.stringify(alone));
    expect(run.memoryReport().caches).toContain('trajectory forward facts');
  });

  it('simulate plays its variants in the run given, with the episodes of a run of its own', async () => {
    const run = createRunContext();
    const options = { scenario: library, harness: libraryHarness, episodes: 2, seed: 's', augment: { plan } };
    const inRun = await drain(simulate({ ...options, run }));
    const alone = await drain(simulate(options));
    expect(inRun.some((episode) => episode.variant)).toBe(true);
    expect(JSON.stringify(inRun)).toBe(JSON.stringify(alone));
    expect(run.memoryReport().caches).toContain('trajectory forward facts');
  });
});

/** The airline policy's check, counting its calls: a play that consults these hook checks moves the count. */
function countingChecks() {
  const counted = { calls: 0 };
  const registry = createHookCheckRegistry([
    defineHookCheck({
      ...userConfirmed,
      run: (step, params, harness) => {
        counted.calls++;
        return userConfirmed.run(step, params, harness);
      },
    }),
  ]);
  return { registry, counted };
}

/** Asks to change booking R100 whenever the last message is not a tool result; then replies. */
const changingModel: ChatModel = {
  async complete(request) {
    const toolAnswered = request.messages.at(-1)?.role === 'tool';
    const message: ChatCompletionMessage = toolAnswered
      ? { role: 'assistant', content: 'Done.' }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call-${request.messages.length}`,
              type: 'function',
              function: {
                name: 'update_reservation_flights',
                arguments: JSON.stringify({ reservation_id: 'R100', flight_number: 'HAT107' }),
              },
            },
          ],
        };
    return {
      id: 'changing',
      object: 'chat.completion',
      created: 0,
      model: 'changing',
      choices: [{ index: 0, message, finish_reason: toolAnswered ? 'stop' : 'tool_calls' }],
    };
  },
};

/** What a scenario's oracle was given, and the scenario whose oracle records it before playing. */
function recordingScenario(scenario: Scenario, play: ScenarioOracle['play'] = scenario.oracle!.play) {
  const inputs: OracleInput[] = [];
  const recording: Scenario = {
    ...scenario,
    oracle: {
      play(input) {
        inputs.push(input);
        input.run?.memo(playedMemo).push(input.episode.id);
        return play(input);
      },
    },
  };
  return { recording, inputs };
}
const playedMemo = defineRunMemo('episodes played', (): string[] => []);

describe('the plays take the run', () => {
  const { registry, counted } = countingChecks();
  const airline = parseHarness(airlineHarnessInput(), { hookChecks: registry });
  const golds = airlineGolds(airline);
  const goldOf = async (id: string) => (await golds).find((gold) => gold.id === id)!;
  const replay = async () => createReplayScenario({ trajectories: await golds, hookChecks: registry });
  const firstEpisode = async (scenario: Scenario) => {
    const context = { base: airline, seed: '1' };
    const [planned] = await scenario.plan({ ...context, episodes: 1 });
    return scenario.episode(planned!, context);
  };

  it('each refuses a run given with hook checks that are not its own, before any work', async () => {
    const run = createRunContext({ hookChecks: ownChecks });
    const both = { run, hookChecks: otherChecks };
    const scenario = await replay();
    const episode = await firstEpisode(scenario);
    const errors = [
      await usageErrorOf(() => playScenarioEpisode({ scenario, episode, base: airline, seed: '1', ...both })),
      await usageErrorOf(() =>
        runAgent({
          harness: airline,
          tools: airlineTools(),
          model: changingModel,
          userMessages: ['hi'],
          ...both,
        }),
      ),
      await usageErrorOf(() => replayLatency({ scenario, harness: airline, model: changingModel, ...both })),
      await usageErrorOf(() =>
        // No server listens there: the refusal comes before any request.
        measureLatency({
          endpoint: 'http://127.0.0.1:9/v1',
          model: 'agent',
          scenario,
          harness: airline,
          ...both,
        }),
      ),
      await usageErrorOf(() =>
        scenario.oracle!.play({ base: airline, seed: '1', episode, tools: airlineTools(), ...both }),
      ),
      await usageErrorOf(async () => reviewRow({}, 'rows.jsonl:1', both)),
    ];
    for (const error of errors) {
      expect(error.kind).toBe('usage');
      expect(error.message).toMatch(/not the run's/);
    }
  });

  it('playScenarioEpisode plays in the run given: its oracle gets the run, whose hook checks decide', async () => {
    const run = createRunContext({ hookChecks: registry });
    const { recording, inputs } = recordingScenario(await replay());
    const episode = await firstEpisode(recording);
    const before = counted.calls;
    const played = await playScenarioEpisode({ scenario: recording, episode, base: airline, seed: '1', run });
    expect(played.trajectory.messages).toEqual((await goldOf(episode.id)).messages);
    expect(counted.calls).toBeGreaterThan(before);
    expect(inputs[0]!.run).toBe(run);
    expect(inputs[0]!.hookChecks).toBe(registry);
    expect(run.memoNames()).toContain('episodes played');
    expect(run.memo(playedMemo)).toEqual([episode.id]);
  });

  it('simulate hands its plays the run given, so they share what the run holds', async () => {
    const run = createRunContext({ hookChecks: registry });
    const { recording, inputs } = recordingScenario(await replay());
    const episodes = await drain(simulate({ scenario: recording, harness: airline, seed: '1', run }));
    expect(episodes).toHaveLength(2);
    expect(inputs).toHaveLength(2);
    expect(run.memo(playedMemo)).toEqual(episodes.map((episode) => episode.id));
  });

  it('an oracle written before runs, reading only the hook checks, plays as before', async () => {
    const scenario = await replay();
    const oldOracle = scenario.oracle!;
    const { recording } = recordingScenario(scenario, ({ run: _run, ...input }) => oldOracle.play(input));
    const episode = await firstEpisode(recording);
    const run = createRunContext({ hookChecks: registry });
    const before = counted.calls;
    const played = await playScenarioEpisode({ scenario: recording, episode, base: airline, seed: '1', run });
    expect(played.trajectory.messages).toEqual((await goldOf(episode.id)).messages);
    expect(counted.calls).toBeGreaterThan(before);
  });

  it('runAgent and replayLatency decide hooks with the hook checks of the run given', async () => {
    const run = createRunContext({ hookChecks: registry });
    const userMessages = ['yes, please change R100 to HAT107'];
    let before = counted.calls;
    const played = await runAgent({
      harness: airline,
      tools: airlineTools(),
      model: changingModel,
      userMessages,
      run,
    });
    expect(counted.calls).toBeGreaterThan(before);
    expect(played.messages.some((message) => message.role === 'tool')).toBe(true);
    // Without the run, the harness names a check no registry holds: the play cannot decide its hook.
    await expect(
      runAgent({ harness: airline, tools: airlineTools(), model: changingModel, userMessages }),
    ).rejects.toThrow(/user_confirmed/);
    before = counted.calls;
    const report = await replayLatency({
      scenario: await replay(),
      harness: airline,
      model: changingModel,
      run,
    });
    expect(report.errors.episodes).toBe(0);
    expect(counted.calls).toBeGreaterThan(before);
  });

  it('reviewRow reads the row harness with the hook checks of the run given', () => {
    const row = {
      id: 'air-033',
      variantId: 'v1',
      harness: airlineHarnessInput(),
      relabel: { steps: [] },
      provenance: { baseHash: 'h', variantSeed: 1, ops: [] },
    };
    const run = createRunContext({ hookChecks: registry });
    expect(reviewRow(row, 'rows.jsonl:1', { run }).harness.hooks.items[0]!.id).toBe('confirm_writes');
    expect(() => reviewRow(row, 'rows.jsonl:1', { run: createRunContext() })).toThrow(/user_confirmed/);
  });
});
