// Fixed-seed golden files for every built-in operator: a release that changes what an operator generates
// for a seed must bump the operator's version and update these files on purpose (UPDATE_GOLDEN=1).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { diffJson, formatChanges } from '../../src/augment/json-diff.js';
import { applyOperator, type RegenerateFunction } from '../../src/augment/operator.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { forwardTrajectory } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { projectRoot } from '../support/run-cli.js';
import { baggageTrajectory, travelHarness, travelHarnessInput } from '../support/travel-harness.js';

const folder = join(projectRoot, 'test/golden/operators');
const update = process.env.UPDATE_GOLDEN === '1';
interface GoldenCase {
  harness: Harness;
  trajectory: Trajectory;
}

const caseOf = (harness: Harness): GoldenCase => ({
  harness,
  trajectory: validateTrajectory(baggageTrajectory(harness), harness).trajectory as Trajectory,
});

const travel = caseOf(travelHarness());

/**
 * The travel harness with what three operators work on and it lacks: a section that renders `{{skillList}}`
 * (prompt/list-style), an unpinned section with a paragraph break (prompt/split-section) and a tool that the
 * trajectory never calls and no text names (tools/drop-unused).
 */
function extendedTravel(): GoldenCase {
  const input = travelHarnessInput();
  const sections = input.prompt.sections.map((section) =>
    section.id === 'passenger'
      ? {
          ...section,
          template: 'Passenger: {{context.passenger.name}}\n\nFlight: {{context.passenger.flight}}',
        }
      : section,
  );
  sections.push({ id: 'catalogue', title: 'Skill catalogue', template: '{{skillList}}' });
  const tools = [
    ...input.tools.items,
    {
      name: 'get_airport_weather',
      description: 'Current weather at an airport.',
      parameters: {
        type: 'object',
        properties: { airport: { type: 'string', pattern: '^[A-Z]{3}$' } },
        required: ['airport'],
        additionalProperties: false,
      },
    },
  ];
  return caseOf(
    parseHarness({
      ...input,
      prompt: { ...input.prompt, sections },
      tools: { ...input.tools, items: tools },
    }),
  );
}

// Every other operator's golden is recorded on the travel harness itself.
const extendedFor = new Set(['prompt/list-style', 'prompt/split-section', 'tools/drop-unused']);
const extended = extendedTravel();
// A deterministic stand-in for a model: swaps a few words and keeps everything else.
const regenerate: RegenerateFunction = async ({ text }) =>
  text.replaceAll('Never', 'Do not ever').replaceAll('before', 'prior to');

describe('operator golden files', () => {
  for (const operator of builtinOperators) {
    it(`${operator.id} at seed "golden"`, async () => {
      const { harness, trajectory } = extendedFor.has(operator.id) ? extended : travel;
      const applied = await applyOperator(operator, harness, {
        rng: 'golden',
        severity: 1,
        trajectory,
        regenerate,
      });
      // A golden file of a skip would not notice a change in what the operator generates.
      expect('skip' in applied ? applied.skip : 'a variant').toBe('a variant');
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
