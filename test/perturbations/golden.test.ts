// Fixed-seed golden files for every built-in operator: a release that changes what an operator generates
// for a seed must bump the operator's version and update these files on purpose (UPDATE_GOLDEN=1). The
// harness is the kit's (`checkOperatorGolden`), the one a third-party operator runs too.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { checkOperatorGolden, type RegenerateFunction } from '../../src/kit/index.js';
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
 * The travel harness with what four operators work on and it lacks: a section that renders `{{skillList}}`
 * (prompt/list-style), an unpinned section with a paragraph break (prompt/split-section), a tool that the
 * trajectory never calls and no text names (tools/drop-unused) and a rule in lexicon phrases
 * (skill-content/paraphrase-lexicon).
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
  const items = input.skills.items.map((skill) =>
    skill.id === 'baggage'
      ? { ...skill, body: `${skill.body}\n- Make sure the fare class is known; do not guess it.` }
      : skill,
  );
  return caseOf(
    parseHarness({
      ...input,
      skills: { ...input.skills, items },
      prompt: { ...input.prompt, sections },
      tools: { ...input.tools, items: tools },
    }),
  );
}

// Every other operator's golden is recorded on the travel harness itself.
const extendedFor = new Set([
  'prompt/list-style',
  'prompt/split-section',
  'tools/drop-unused',
  'skill-content/paraphrase-lexicon',
]);
const extended = extendedTravel();
// A deterministic stand-in for a model: swaps a few words and keeps everything else.
const regenerate: RegenerateFunction = async ({ text }) =>
  text.replaceAll('Never', 'Do not ever').replaceAll('before', 'prior to');

describe('operator golden files', () => {
  for (const operator of builtinOperators) {
    it(`${operator.id} at seed "golden"`, async () => {
      const { harness, trajectory } = extendedFor.has(operator.id) ? extended : travel;
      const file = join(folder, `${operator.id.replace('/', '__')}.json`);
      const { actual, expected } = await checkOperatorGolden(
        operator,
        { harness, trajectory, regenerate },
        file,
        { update },
      );
      // A golden file of a skip would not notice a change in what the operator generates.
      expect((JSON.parse(actual) as { skip?: string }).skip ?? 'a variant').toBe('a variant');
      expect(actual).toBe(expected);
    });
  }
});
