// Fixed-seed golden files for every built-in operator: a release that changes what an operator generates
// for a seed must bump the operator's version and update these files on purpose (UPDATE_GOLDEN=1). The
// harness is the kit's (`checkOperatorGolden`), the one a third-party operator runs too.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { checkOperatorGolden, type RegenerateFunction } from '../../src/kit/index.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { projectRoot } from '../support/run-cli.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

const folder = join(projectRoot, 'test/golden/operators');
const update = process.env.UPDATE_GOLDEN === '1';
const harness = travelHarness();
const trajectory = validateTrajectory(baggageTrajectory(), harness).trajectory as Trajectory;
// A deterministic stand-in for a model: swaps a few words and keeps everything else.
const regenerate: RegenerateFunction = async ({ text }) =>
  text.replaceAll('Never', 'Do not ever').replaceAll('before', 'prior to');

describe('operator golden files', () => {
  for (const operator of builtinOperators) {
    it(`${operator.id} at seed "golden"`, async () => {
      const file = join(folder, `${operator.id.replace('/', '__')}.json`);
      const { actual, expected } = await checkOperatorGolden(
        operator,
        { harness, trajectory, regenerate },
        file,
        { update },
      );
      expect(actual).toBe(expected);
    });
  }
});
