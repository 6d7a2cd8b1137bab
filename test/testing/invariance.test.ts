import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { brittleAgent, robustAgent } from '../../examples/agents.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import {
  arbTrajectoryVariant,
  arbVariant,
  checkHarnessInvariance,
  harnessInvarianceProperty,
  type InvarianceCase,
  InvarianceError,
} from '../../src/testing/index.js';
import { readJsonl } from '../../src/trajectory/read-jsonl.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';

let harness: Harness;
const cases: InvarianceCase[] = [];

beforeAll(async () => {
  harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
  for await (const record of readJsonl('fixtures/livestream/trajectories.jsonl')) {
    if (!('value' in record)) continue;
    const trajectory = record.value as Trajectory;
    if ((trajectory.meta as { scenario?: string } | undefined)?.scenario !== 'price') continue;
    const user = trajectory.messages.find((message) => message.role === 'user');
    if (user) cases.push({ id: trajectory.id, input: [user], trajectory });
    if (cases.length === 8) break;
  }
});

describe('arbVariant', () => {
  it('shrinks to the identity, the smallest value', () => {
    const details = fc.check(
      fc.property(arbVariant(harness), (_variant) => false),
      { seed: 1 },
    );
    expect(details.failed).toBe(true);
    expect(details.counterexample?.[0].ops).toEqual([]);
  });

  it('shrinks toward fewer operators: the minimal variant that renames a tool is one rename', () => {
    const renamesPriceTool = (variant: { harness: Harness }) =>
      !variant.harness.tools.items.some((tool) => tool.name === 'get_price_and_coupons');
    const details = fc.check(
      fc.property(arbVariant(harness), (variant) => !renamesPriceTool(variant)),
      { seed: 7, numRuns: 300 },
    );
    expect(details.failed).toBe(true);
    expect(details.counterexample?.[0].ops.map((record) => record.name)).toEqual(['tools/rename']);
    expect(details.counterexample?.[0].ops[0]?.severity).toBe(0.25);
  });

  it('arbTrajectoryVariant gives trajectories that validate under their variant', () => {
    const trajectory = cases[0]?.trajectory as Trajectory;
    fc.assert(
      fc.property(arbTrajectoryVariant(harness, trajectory), (variant) => {
        expect(validateTrajectory(variant.trajectory, variant.harness).issues).toEqual([]);
      }),
      { numRuns: 40, seed: 3 },
    );
  });
});

describe('checkHarnessInvariance', () => {
  it('fails the brittle agent with a single rename as the minimal counterexample, and replays it', async () => {
    const error = await checkHarnessInvariance(brittleAgent, harness, cases, {
      numRuns: 100,
      seed: 20261130,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvarianceError);
    const { counterexample } = error as InvarianceError;
    expect(counterexample.ops.map((record) => record.name)).toEqual(['tools/rename']);
    expect(counterexample.reason).toContain(
      'calls "get_price_and_coupons", which the variant does not offer',
    );
    expect((error as Error).message).toMatch(
      /minimal perturbation: tools\/rename .*\n.*\n {2}replay: \{ seed: -?\d+, path: "[\d:]+" \}/,
    );

    const replayed = await checkHarnessInvariance(brittleAgent, harness, cases, {
      seed: counterexample.seed,
      path: counterexample.path,
    }).catch((caught: unknown) => caught);
    expect(replayed).toBeInstanceOf(InvarianceError);
    expect((replayed as InvarianceError).counterexample).toMatchObject({
      caseId: counterexample.caseId,
      ops: counterexample.ops,
      reason: counterexample.reason,
    });
  });

  it('passes the robust agent over 200 runs', async () => {
    expect(await checkHarnessInvariance(robustAgent, harness, cases, { numRuns: 200 })).toEqual({
      runs: 200,
    });
  });

  it('works inside fc.assert', async () => {
    await fc.assert(harnessInvarianceProperty(robustAgent, harness, cases), { numRuns: 20, seed: 5 });
    await expect(
      fc.assert(harnessInvarianceProperty(brittleAgent, harness, cases), { numRuns: 100, seed: 20261130 }),
    ).rejects.toThrow(/Property failed/);
  });
});
