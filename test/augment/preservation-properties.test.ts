// Property: over generated skills with numbered procedures, paths, URLs, code blocks and hyphenated ids, no
// certified row of any built-in operator changes the order of an ordered list, a path, a URL or a code
// span (beyond consistent renames of identifiers).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { certify } from '../../src/augment/certificate.js';
import { applyOperator } from '../../src/augment/operator.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { forwardTrajectory, type Relabel } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { rederiveTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { baggageTrajectory, travelHarnessInput } from '../support/travel-harness.js';

const words = ['skill', 'creator', 'pdf', 'xlsx', 'docs', 'forms', 'brand', 'guide', 'web', 'test'];
const verbs = ['Choose', 'Load', 'Modify', 'Save', 'Recalculate', 'Verify', 'Export', 'Review'];

interface GeneratedSkill {
  id: string;
  procedure: string[];
  /** Content that must survive verbatim (paths, URLs, code blocks without identifiers). */
  verbatim: string[];
  body: string;
}

const skillArbitrary = (index: number) =>
  fc
    .record({
      first: fc.constantFrom(...words),
      second: fc.constantFrom(...words),
      steps: fc.shuffledSubarray(verbs, { minLength: 3, maxLength: 6 }),
      file: fc.constantFrom('init.py', 'recalc.py', 'forms.md', 'report.xlsx'),
      count: fc.integer({ min: 2, max: 90 }),
      rules: fc.shuffledSubarray(['Never guess a value.', 'Keep replies short.', 'Quote numbers exactly.'], {
        minLength: 2,
        maxLength: 3,
      }),
    })
    .map(({ first, second, steps, file, count, rules }): GeneratedSkill => {
      const id = `${first}-${second}-${index}`;
      const path = `./${id}/scripts/${file}`;
      const url = `https://github.com/example/skills/tree/main/${id}`;
      const block = `\`\`\`bash\npython ${id}/scripts/${file} --pages ${count}\n\`\`\``;
      const procedure = steps.map((verb, step) =>
        step === 0
          ? `${verb} the input from \`${id}\` in ${path}.`
          : step === 1
            ? `${verb} it as described at ${url}.`
            : `${verb} the result ${step} time(s) in <${id}-path>/out/.`,
      );
      const body = [
        `Use \`${id}\` for ${first} ${second} work; its files live in the ${id} directory.`,
        '',
        ...procedure.map((item, step) => `${step + 1}. ${item}`),
        '',
        block,
        '',
        'Rules:',
        ...rules.map((rule) => `- ${rule}`),
      ].join('\n');
      return { id, procedure, verbatim: [path, url, block, `<${id}-path>/out/`, `${id} directory`], body };
    });

const casesArbitrary = fc.tuple(skillArbitrary(1), skillArbitrary(2));

function harnessOf(skills: readonly GeneratedSkill[]): Harness {
  const input = travelHarnessInput();
  input.skills.items = [
    ...input.skills.items,
    ...skills.map((skill) => ({
      id: skill.id,
      kind: 'reply' as const,
      description: `Work with ${skill.id.replace(/-\d$/u, '')} files`,
      body: skill.body,
    })),
  ];
  return parseHarness(input);
}

/** Where each base skill id ended up: renames and merges, in the order of the relabel's steps. */
function skillIdAfter(relabel: Relabel, id: string): string {
  return relabel.steps.reduce((current, step) => {
    if (step.type === 'rename_skills') return step.map[current] ?? current;
    if (step.type === 'merge_skills' && step.sources.includes(current)) return step.into;
    return current;
  }, id);
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('certified rows keep procedures, paths, URLs and code', () => {
  const operators = builtinOperators.filter((operator) => operator.mode === 'exact');

  it('for every built-in operator', async () => {
    let certifiedRows = 0;
    await fc.assert(
      fc.asyncProperty(
        casesArbitrary,
        fc.constantFrom(...operators),
        fc.string({ minLength: 1, maxLength: 6 }),
        fc.constantFrom(0.25, 0.5, 1),
        async (skills, operator, seed, severity) => {
          const harness = harnessOf(skills);
          const original = rederiveTrajectory(baggageTrajectory(), harness).trajectory as Trajectory;
          const applied = await applyOperator(operator, harness, {
            rng: seed,
            severity,
            trajectory: original,
          });
          if ('skip' in applied) return;
          const rewritten = forwardTrajectory(original, applied.relabel, applied.harness).trajectory;
          const certificate = certify({
            base: harness,
            variant: applied.harness,
            original,
            rewritten,
            relabel: applied.relabel,
          });
          if (!certificate.certified) return;
          certifiedRows++;
          const bodies = applied.harness.skills.items.map((skill) => skill.body);
          const all = bodies.join('\n\u0000\n');
          for (const skill of skills) {
            for (const part of skill.verbatim)
              expect(occurrences(all, part), `${operator.id}: ${part}`).toBeGreaterThanOrEqual(1);
            // The procedure's items, with the consistent rename of the code-span mention, in order in one body.
            const renamed = skillIdAfter(applied.relabel, skill.id);
            const items = skill.procedure.map((item) => item.replace(`\`${skill.id}\``, `\`${renamed}\``));
            const body = bodies.find((text) => items.some((item) => text.includes(item)));
            if (body === undefined) continue;
            const positions = items.map((item) => body.indexOf(item)).filter((position) => position >= 0);
            expect(positions, `${operator.id}: procedure order`).toEqual(
              [...positions].sort((a, b) => a - b),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(certifiedRows).toBeGreaterThan(150);
  }, 120_000);
});
