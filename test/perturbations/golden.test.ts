// Fixed-seed golden files for every built-in operator: a release that changes what an operator generates
// for a seed must bump the operator's version and update these files on purpose (UPDATE_GOLDEN=1).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { diffJson, formatChanges } from '../../src/augment/json-diff.js';
import { applyOperator, type RegenerateFunction } from '../../src/augment/operator.js';
import { forwardTrajectory } from '../../src/trajectory/relabel.js';
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
      const applied = await applyOperator(operator, harness, {
        rng: 'golden',
        severity: 1,
        trajectory,
        regenerate,
      });
      const summary =
        'skip' in applied
          ? { operator: operator.id, version: operator.version, skip: applied.skip }
          : {
              operator: operator.id,
              version: operator.version,
              record: applied.record,
              changes: formatChanges(diffJson(harness, applied.harness), 160),
              relabel: applied.relabel,
              messages: formatChanges(
                diffJson(
                  trajectory.messages,
                  forwardTrajectory(trajectory, applied.relabel, applied.harness).trajectory.messages,
                ),
                160,
              ),
            };
      const file = join(folder, `${operator.id.replace('/', '__')}.json`);
      const text = `${JSON.stringify(summary, null, 2)}\n`;
      if (update || !existsSync(file)) {
        if (!update)
          throw new Error(
            `no golden file for ${operator.id}; run UPDATE_GOLDEN=1 npx vitest run test/perturbations/golden.test.ts`,
          );
        writeFileSync(file, text);
      }
      expect(text).toBe(readFileSync(file, 'utf8'));
    });
  }
});
