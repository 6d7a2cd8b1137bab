// The laws every scenario obeys, as a reusable suite: the bundled scenarios run it, and so can third-party
// ones. Over random run seeds, shard counts and concurrencies: the plan is well formed (unique ids, stable
// for a seed), the episodes are the same whatever the shards and the concurrency (and the same when run
// again), every gold trajectory is valid under the base harness, and every reward lies in [0, 1].
import fc from 'fast-check';
import { canonicalJson } from '../harness/canonical-json.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { Harness } from '../harness/schema.js';
import type { Scenario } from '../runtime/scenario.js';
import { type SimulatedEpisode, type SimulateOptions, simulate } from '../runtime/sim/simulate.js';
import { validateTrajectory } from '../trajectory/validate-trajectory.js';

/**
 * The laws, by the names their failures carry.
 *
 * @example
 * scenarioLaws[0] // 'plan well formed'
 */
export const scenarioLaws = [
  'plan well formed',
  'deterministic across shards and concurrency',
  'gold episodes valid',
  'rewards in range',
] as const;
/** The name of one scenario law (an entry of `scenarioLaws`), as a broken law's error message names it. */
export type ScenarioLaw = (typeof scenarioLaws)[number];

/**
 * Options of `checkScenarioLaws`: the harness, the episodes and fast-check runs, and how the episodes are
 * played.
 */
export interface ScenarioLawOptions {
  /** The base harness the scenario runs. */
  harness: Harness;
  /** Episodes per run (default: the scenario's `defaultEpisodes`, at most 6). */
  episodes?: number;
  /** fast-check runs, each a run seed, a shard count (2–4) and a concurrency (1–4) (default 3). */
  runs?: number;
  /** fast-check seed, to replay a failure. */
  seed?: number;
  /** Play every episode under a certified variant of this plan, as `simulate({ augment })` does. */
  augment?: SimulateOptions['augment'];
  /** Seeded tool faults, as `simulate({ faults })` takes them. */
  faults?: SimulateOptions['faults'];
  /** Play with a model instead of the scenario's oracle (a scenario without one needs it). */
  model?: SimulateOptions['model'];
  /** The custom hook checks the harness names (default: none). */
  hookChecks?: HookCheckRegistry | undefined;
}

/**
 * What `checkScenarioLaws` returns once every law held: how many runs, episodes and gold trajectories it
 * checked.
 */
export interface ScenarioLawReport {
  /** fast-check runs made. */
  runs: number;
  /** Episodes simulated over all runs (each run counts its whole plan once). */
  episodes: number;
  /** Gold trajectories checked. */
  golds: number;
}

class LawViolation extends Error {
  constructor(law: ScenarioLaw, detail: string) {
    super(`law "${law}" broken: ${detail}`);
    this.name = 'LawViolation';
  }
}

/** What must not depend on shards or concurrency: everything but the harness object (its id is kept). */
function fingerprint(episode: SimulatedEpisode): string {
  const { harness, ...rest } = episode;
  return canonicalJson({ ...rest, harness: harness.id });
}

const inRange = (value: number) => Number.isFinite(value) && value >= 0 && value <= 1;

/**
 * Runs the scenario laws and throws a readable error naming the broken law, the run seed, the shard count
 * and the concurrency, wrapped by fast-check with its seed to replay. Also fails when a run plans no
 * episode, since then nothing was tested.
 *
 * @example
 * it('obeys the scenario laws', async () => { await checkScenarioLaws(myScenario, { harness }); });
 */
export async function checkScenarioLaws(
  scenario: Scenario,
  options: ScenarioLawOptions,
): Promise<ScenarioLawReport> {
  const { harness } = options;
  const report: ScenarioLawReport = { runs: 0, episodes: 0, golds: 0 };
  const checks = { hookChecks: options.hookChecks };
  const simulateOptions = {
    scenario,
    harness,
    ...(options.augment ? { augment: options.augment } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...checks,
  };
  const collect = async (extra: Partial<SimulateOptions> & { seed: string; episodes: number }) => {
    const episodes: SimulatedEpisode[] = [];
    for await (const episode of simulate({ ...simulateOptions, ...extra })) episodes.push(episode);
    return episodes;
  };

  await fc.assert(
    fc.asyncProperty(
      fc.nat({ max: 1_000_000 }).map((value) => `law-${value}`),
      fc.integer({ min: 2, max: 4 }),
      fc.integer({ min: 1, max: 4 }),
      async (seed, shards, concurrency) => {
        report.runs++;
        const where = `seed ${seed}, ${shards} shards, concurrency ${concurrency}`;
        const context = { base: harness, seed };
        const episodes = options.episodes ?? Math.min(6, scenario.defaultEpisodes(context));

        const plan = await scenario.plan({ ...context, episodes });
        if (plan.length === 0) throw new LawViolation('plan well formed', `the plan is empty (${where})`);
        const ids = plan.map((planned) => planned.id);
        const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
        if (repeated.length > 0)
          throw new LawViolation(
            'plan well formed',
            `ids repeat: ${[...new Set(repeated)].join(', ')} (${where})`,
          );
        const misplaced = plan.findIndex((planned, index) => planned.index !== index);
        if (misplaced >= 0)
          throw new LawViolation(
            'plan well formed',
            `episode ${plan[misplaced]!.id} at position ${misplaced} says index ${plan[misplaced]!.index} (${where})`,
          );
        const again = (await scenario.plan({ ...context, episodes })).map((planned) => planned.id);
        if (canonicalJson(again) !== canonicalJson(ids))
          throw new LawViolation('plan well formed', `two plans of the same seed differ (${where})`);

        for (const planned of plan) {
          const episode = await scenario.episode(planned, context);
          if (!episode.gold) continue;
          report.golds++;
          const validation = validateTrajectory(episode.gold, harness, checks);
          if (!validation.valid) {
            const detail = validation.issues
              .slice(0, 3)
              .map((issue) => `${issue.path.join('.')}: ${issue.message}`);
            throw new LawViolation(
              'gold episodes valid',
              `the gold of ${episode.id} is not valid under harness "${harness.id}": ${detail.join('; ')} (${where})`,
            );
          }
        }

        const whole = await collect({ seed, episodes, concurrency: 1 });
        report.episodes += whole.length;
        const expected = whole.map(fingerprint);
        const rerun = (await collect({ seed, episodes, concurrency })).map(fingerprint);
        const firstDiffering = (actual: string[]) =>
          actual.findIndex((line, index) => line !== expected[index]);
        if (rerun.length !== expected.length || firstDiffering(rerun) >= 0)
          throw new LawViolation(
            'deterministic across shards and concurrency',
            `concurrency ${concurrency} gives other episodes than concurrency 1 (first at position ${Math.max(0, firstDiffering(rerun))}) (${where})`,
          );
        // One shard after the other, as separate machines run them: no shard sees another's episodes.
        const sharded: string[] = [];
        for (let index = 0; index < shards; index++)
          for (const episode of await collect({
            seed,
            episodes,
            concurrency,
            shard: { index, count: shards },
          }))
            sharded.push(fingerprint(episode));
        sharded.sort();
        if (canonicalJson(sharded) !== canonicalJson([...expected].sort()))
          throw new LawViolation(
            'deterministic across shards and concurrency',
            `${shards} shards together give other episodes than one run (${where})`,
          );

        for (const episode of whole) {
          const { rewards } = episode;
          const outside = Object.entries(rewards.rewards).filter(([, value]) => !inRange(value));
          if (!inRange(rewards.total)) outside.unshift(['total', rewards.total]);
          if (outside.length > 0)
            throw new LawViolation(
              'rewards in range',
              `episode ${episode.id}: ${outside.map(([name, value]) => `${name} = ${value}`).join(', ')} outside [0, 1] (${where})`,
            );
        }
      },
    ),
    {
      numRuns: options.runs ?? 3,
      // Every run simulates the plan several times over: report the first failure rather than shrink it.
      endOnFailure: true,
      // The report then names the broken law beside the seed to replay it with.
      includeErrorInReport: true,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    },
  );
  return report;
}
