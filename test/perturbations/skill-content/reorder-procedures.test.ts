// Bullet lists that are procedures are not reordered, and the certificate's content check catches an
// operator that reorders one. The example is a SKILL.md in the style of public agent skills (a tool-use
// workflow over MCP filesystem tools, and a "Consider this approach:" list); the property runs over
// generated lists that carry a sequence cue.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reorderRules } from '../../../perturbations/skill-content/reorder-rules.js';
import { checkContentPreservation } from '../../../src/augment/content-preservation.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { itemsAreSequenced } from '../../../src/augment/ordered-lists.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { identityRelabel } from '../../../src/trajectory/relabel.js';
import { travelHarnessInput } from '../../support/travel-harness.js';

const skillMd = [
  '# Editing files safely',
  '',
  'Use this skill when the user asks to change a file.',
  '',
  '- Read the file first with `find_flights`.',
  '- Apply the smallest change with `hold_seat`.',
  '- Tell the user what changed.',
  '',
  'Consider this approach:',
  '- Reproduce the problem.',
  '- Fix it and show the diff.',
  '',
  'Rules:',
  '- Never delete a file.',
  '- Keep the user informed.',
  '- Quote paths exactly.',
].join('\n');

const withBody = (body: string) => {
  const input = travelHarnessInput();
  input.skills.items = [{ ...input.skills.items[0]!, body }];
  return parseHarness(input);
};

describe('procedures in bullet lists', () => {
  it('reorders only the independent list of a SKILL.md-style body', async () => {
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const result = await applyOperator(reorderRules, withBody(skillMd), { rng: seed, severity: 1 });
      if ('skip' in result) throw new Error(result.skip);
      const body = result.harness.skills.items[0]!.body;
      expect(body.slice(0, body.indexOf('Rules:'))).toBe(skillMd.slice(0, skillMd.indexOf('Rules:')));
      expect(body).not.toBe(skillMd);
    }
  });

  it('the content check catches a reordered procedure', () => {
    const base = withBody(skillMd);
    const swapped = skillMd.replace(
      '- Reproduce the problem.\n- Fix it and show the diff.',
      '- Fix it and show the diff.\n- Reproduce the problem.',
    );
    const tools = skillMd.replace(
      '- Read the file first with `find_flights`.\n- Apply the smallest change with `hold_seat`.',
      '- Apply the smallest change with `hold_seat`.\n- Read the file first with `find_flights`.',
    );
    for (const body of [swapped, tools]) {
      const result = checkContentPreservation(base, withBody(body), identityRelabel);
      expect(result.issues.map((issue) => issue.code)).toContain('list_order_changed');
    }
    const rules = skillMd.replace(
      '- Never delete a file.\n- Keep the user informed.',
      '- Keep the user informed.\n- Never delete a file.',
    );
    expect(checkContentPreservation(base, withBody(rules), identityRelabel).kept).toBe(true);
  });

  // An audit on obra/superpowers' brainstorming skill: "Documentation:" put "Commit the design document to git"
  // before "Write the validated design (spec) to docs/…", and executing-plans' "Follow that skill to verify
  // tests" before the line that names the skill.
  it('keeps an item that hands on what an earlier one makes after it, and one that names what the item before names', async () => {
    const documentation = [
      'Documentation:',
      '- Write the validated design (spec) to `docs/specs/topic-design.md`',
      '- Use a clear, concise writing style if available',
      '- Commit the design document to git',
    ].join('\n');
    expect(itemsAreSequenced(documentation.split('\n').slice(1))).toBe(true);
    const finishing = [
      'After all tasks complete and verified:',
      '- Announce: "I am using the apology_first skill to complete this work."',
      '- REQUIRED SUB-SKILL: Use apology_first',
      '- Follow that skill to verify tests, present options, execute choice',
      '',
      'Rules:',
      '- Never delete a file.',
      '- Keep the user informed.',
      '- Quote paths exactly.',
    ].join('\n');
    let moved = 0;
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      for (const body of [documentation, finishing]) {
        const result = await applyOperator(reorderRules, withBody(body), { rng: seed, severity: 1 });
        if ('skip' in result) continue;
        const out = result.harness.skills.items[0]!.body;
        if (body === documentation) expect(out).toBe(documentation);
        else {
          const index = (line: string) => out.indexOf(line);
          expect(index('REQUIRED SUB-SKILL')).toBeLessThan(index('Follow that skill'));
          expect(index('Follow that skill') - index('REQUIRED SUB-SKILL')).toBe(
            '- REQUIRED SUB-SKILL: Use apology_first\n'.length,
          );
          if (out !== body) moved++;
        }
      }
    }
    // The other lists still move.
    expect(moved).toBeGreaterThan(0);
    const swapped = documentation.replace(
      '- Write the validated design (spec) to `docs/specs/topic-design.md`\n- Use a clear, concise writing style if available\n- Commit the design document to git',
      '- Use a clear, concise writing style if available\n- Commit the design document to git\n- Write the validated design (spec) to `docs/specs/topic-design.md`',
    );
    const result = checkContentPreservation(withBody(documentation), withBody(swapped), identityRelabel);
    expect(result.issues.map((issue) => issue.code)).toContain('list_order_changed');
  });

  it('property: a bullet list with a sequence cue in any item is never reordered', async () => {
    const plain = fc.constantFrom(
      'Quote the price.',
      'Keep it short.',
      'Use kilograms.',
      'Be polite.',
      'Name the fare.',
    );
    const cue = fc.constantFrom(
      'Check the stock first.',
      'Then confirm the order.',
      'Finally say goodbye.',
      'Step two: pay.',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(plain, { minLength: 2, maxLength: 5 }),
        cue,
        fc.nat(),
        fc.string(),
        async (items, step, at, seed) => {
          const list: string[] = [...items];
          list.splice(at % (list.length + 1), 0, step);
          expect(itemsAreSequenced(list)).toBe(true);
          const body = list.map((item) => `- ${item}`).join('\n');
          const result = await applyOperator(reorderRules, withBody(body), { rng: seed, severity: 1 });
          if (!('skip' in result)) expect(result.harness.skills.items[0]!.body).toBe(body);
        },
      ),
      { numRuns: 60 },
    );
  });
});
