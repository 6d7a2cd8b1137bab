// Fixed cases for the operator laws: the live-stream fixture (a varied sample of its trajectories) and the
// travel harness from another domain. Random harnesses are added by the law suite itself.
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { LawCase } from '../../src/kit/laws.js';
import { readJsonl } from '../../src/trajectory/read-jsonl.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { resetTrajectory, scopedHarness, scopedHookChecks } from './scoped-hook-harness.js';
import { baggageTrajectory, travelHarness } from './travel-harness.js';

let cached: Promise<LawCase[]> | undefined;

async function fixtureCase(): Promise<LawCase> {
  const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
  const all: Trajectory[] = [];
  for await (const record of readJsonl('fixtures/livestream/trajectories.jsonl')) {
    if (!('value' in record)) throw new Error(`fixture line ${record.line} is not JSON`);
    const validation = validateTrajectory(record.value, harness);
    if (!validation.trajectory || !validation.valid)
      throw new Error(`fixture line ${record.line} is invalid`);
    all.push(validation.trajectory);
  }
  // Every trajectory with a hook event, plus every seventh one, keeps the sample varied and small.
  const withHooks = all.filter((trajectory) =>
    trajectory.messages.some((message) => 'hsa' in message && message.hsa),
  );
  const sample = [...withHooks.slice(0, 25), ...all.filter((_, index) => index % 7 === 0)];
  const unique = [...new Map(sample.map((trajectory) => [trajectory.id, trajectory])).values()];
  return { name: 'livestream', harness, trajectories: unique };
}

/**
 * The fixed law cases, loaded once per test file.
 *
 * @example
 * await checkOperatorLaws(operator, { cases: await lawCases() });
 */
export function lawCases(): Promise<LawCase[]> {
  cached ??= (async () => {
    const travel = travelHarness();
    const trajectory = validateTrajectory(baggageTrajectory(), travel).trajectory as Trajectory;
    // Policy hooks scoped to tools, a named skill and a registered custom check.
    const scoped: LawCase = {
      name: 'scoped-hooks',
      harness: scopedHarness(),
      trajectories: [resetTrajectory()],
      hookChecks: scopedHookChecks,
    };
    return [await fixtureCase(), { name: 'travel', harness: travel, trajectories: [trajectory] }, scoped];
  })();
  return cached;
}
