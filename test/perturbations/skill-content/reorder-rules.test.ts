import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reorderRules } from '../../../perturbations/skill-content/reorder-rules.js';
import { checkContentPreservation } from '../../../src/augment/content-preservation.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { loadHarnessFile, parseHarness } from '../../../src/harness/parse-harness.js';
import type { Skill } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { identityRelabel } from '../../../src/trajectory/relabel.js';
import { lawCases } from '../../support/law-cases.js';
import { projectRoot } from '../../support/run-cli.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const withBody = (body: string) => {
  const input = travelHarnessInput();
  input.skills.items = [{ ...input.skills.items[0]!, body }];
  return parseHarness(input);
};

describe('skill-content/reorder-rules', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(reorderRules, { cases: await lawCases() });
  });

  it('shuffles the rules of a share of the bodies (golden)', async () => {
    const result = applied(await applyOperator(reorderRules, harness, { rng: 'golden', severity: 1 }));
    expect(result.harness.skills.items.map((skill) => skill.body)).toEqual([
      // "before" and two tools named in turn: a procedure, kept as written (version 3).
      '- Call `find_flights` before offering a flight.\n- Quote fares exactly as `find_flights` returns them.\n- Never promise a seat before `hold_seat` succeeds.',
      '- State weights in kilograms.\n- Use `get_baggage_policy` with the fare class.',
      'Apologise once, then move to the fix. Pair it with rebooking.',
    ]);
    expect(result.relabel.steps).toEqual([]);
  });

  // OpenHands' onboarding skill (test/augment/fixtures/public/openhands-onboarding-plan.md, audit 14): version
  // 9 put "How to run them locally and in CI" before "Tests to write", so "them" stood for nothing.
  it('keeps a rule whose pronoun refers back after the rules before it, and moves the others (OpenHands onboarding)', async () => {
    const plan = await readFile(
      join(projectRoot, 'test/augment/fixtures/public/openhands-onboarding-plan.md'),
      'utf8',
    );
    // Sections 4 and 5 of the plan, without the template lead-in (which keeps every list as it is).
    const body = plan.slice(plan.indexOf('### 4. Testing Plan'), plan.indexOf('### 6.')).trimEnd();
    const tests = '- Tests to write, where they live, and example test names.';
    const run = '- How to run them locally and in CI (with exact commands).';
    let moved = 0;
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const lines = applied(
        await applyOperator(reorderRules, withBody(body), { rng: seed }),
      ).harness.skills.items[0]!.body.split('\n');
      expect(lines.indexOf(run)).toBe(lines.indexOf(tests) + 1);
      expect(lines.indexOf(tests)).toBe(1);
      if (lines.join('\n') !== body) moved++;
    }
    // "### 5. Quality Gates & Tooling" holds three independent rules: they still move.
    expect(moved).toBeGreaterThan(0);
    // Under "… in this structure:" the plan is a template: nothing moves.
    expect(await applyOperator(reorderRules, withBody(plan), { rng: 'a' })).toEqual({
      skip: 'no skill body has two independent rules to reorder',
    });
  });

  it('keeps order-sensitive rules in place and renumbers numbered lists marked independent', async () => {
    const body = [
      '# Checks',
      '<!-- hsa: independent -->',
      '1. First resolve the product.',
      '2. Quote the price.',
      '3. Name the coupon.',
      '4. Mention stock.',
      '5. Finally thank the viewer.',
      '6. Keep it short (order-sensitive)',
      '',
    ].join('\n');
    for (const seed of ['a', 'b', 'c', 'd']) {
      const result = applied(await applyOperator(reorderRules, withBody(body), { rng: seed }));
      const lines = result.harness.skills.items[0]!.body.split('\n');
      expect(lines.slice(0, 3)).toEqual([
        '# Checks',
        '<!-- hsa: independent -->',
        '1. First resolve the product.',
      ]);
      expect(lines[6]).toBe('5. Finally thank the viewer.');
      expect(lines[7]).toBe('6. Keep it short (order-sensitive)');
      expect(lines.slice(3, 6).map((line) => line.slice(0, 3))).toEqual(['2. ', '3. ', '4. ']);
      expect(
        lines
          .slice(3, 6)
          .map((line) => line.slice(3))
          .sort(),
      ).toEqual(['Mention stock.', 'Name the coupon.', 'Quote the price.']);
      expect(lines.slice(3, 6).map((line) => line.slice(3))).not.toEqual([
        'Quote the price.',
        'Name the coupon.',
        'Mention stock.',
      ]);
      expect(lines[8]).toBe('');
    }
  });

  it('never reorders a procedure: numbered lists, announced or marked bullet lists', async () => {
    const procedures = [
      // Modelled on a public spreadsheet skill: a plain numbered procedure, no sequencing words.
      '## Workflow\n\n1. Choose the workbook.\n2. Load it with `openpyxl`.\n3. Modify the cells.\n4. Save to `out/report.xlsx`.\n5. Recalculate formulas.\n6. Verify no `#REF!` errors remain.',
      'Follow these steps:\n- Choose the workbook.\n- Load it.\n- Save it.',
      'Do this in order:\n- Choose the workbook.\n- Load it.',
      '<!-- hsa: ordered -->\n- Choose the workbook.\n- Load it.',
      '按以下步骤：\n- 选择文件。\n- 加载文件。',
    ];
    for (const body of procedures) {
      expect(await applyOperator(reorderRules, withBody(body), { rng: 'x', severity: 1 }), body).toEqual({
        skip: 'no skill body has two independent rules to reorder',
      });
    }
  });

  it('reorders a bullet list of independent rules next to a procedure, leaving the procedure', async () => {
    const body =
      '1. Load the file.\n2. Save the file.\n\nRules:\n- Never guess a price.\n- Keep replies short.\n- Quote the `total` field.';
    const result = applied(await applyOperator(reorderRules, withBody(body), { rng: 'r', severity: 1 }));
    const after = result.harness.skills.items[0]!.body;
    expect(after.startsWith('1. Load the file.\n2. Save the file.\n\nRules:\n')).toBe(true);
    expect(after).not.toBe(body);
  });

  it("keeps a rule whose verb acts on the rule before it, and the skill's trigger line, in place (live-stream compliance_guard)", async () => {
    // An audit of certified rows found "Reframe to verifiable facts" moved away from "Never confirm a
    // superlative", and "Load this skill when …" moved to the end.
    const livestream = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
    const guard = livestream.skills.items.find((skill) => skill.id === 'compliance_guard') as Skill;
    const lines = (body: string) => body.split('\n').filter((line) => line.startsWith('- '));
    const base = lines(guard.body);
    expect(base[2]).toMatch(/^- Reframe to/);
    let moved = 0;
    for (let seed = 0; seed < 24; seed++) {
      const result = await applyOperator(reorderRules, livestream, { rng: `guard/${seed}`, severity: 1 });
      if ('skip' in result) continue;
      const body = lines(result.harness.skills.items.find((skill) => skill.id === 'compliance_guard')!.body);
      expect(body[0]).toBe(base[0]);
      expect(body.indexOf(base[2] as string)).toBe(body.indexOf(base[1] as string) + 1);
      if (body.join('\n') !== base.join('\n')) moved++;
    }
    // The other rules of the list still move.
    expect(moved).toBeGreaterThan(0);
  });

  // K-Dense-AI/claude-scientific-skills (test/augment/fixtures/public): an audit found these bullet lists
  // reordered in every row that carried the operator. None names a sequence, yet each is one: a pronoun that
  // needs the item before ("support it"), a scale, a prerequisite first, a pipeline. Their items are
  // fragments, not rules each a sentence of its own, and only such rules are shown independent.
  it('moves no list of fragments (real scientific skills: feedback steps, a scale, a pipeline)', async () => {
    const excerpts = await Promise.all(
      [
        'kdense-critical-thinking-feedback.md',
        'kdense-scholar-evaluation-scale.md',
        'kdense-eda-tabular.md',
        'kdense-schematics-how-it-works.md',
      ].map((file) => readFile(join(projectRoot, 'test/augment/fixtures/public', file), 'utf8')),
    );
    for (const excerpt of excerpts) {
      expect(await applyOperator(reorderRules, withBody(excerpt), { rng: 'x', severity: 1 })).toEqual({
        skip: 'no skill body has two independent rules to reorder',
      });
      // The certificate reads the same rule: the list, moved by hand, no longer keeps its content.
      const lines = excerpt.split('\n');
      const items = lines.filter((line) => line.startsWith('- '));
      const moved = lines
        .map((line) => (line === items[0] ? items[1] : line === items[1] ? items[0] : line))
        .join('\n');
      const base = withBody(excerpt);
      expect(checkContentPreservation(base, withBody(moved), identityRelabel).kept).toBe(false);
    }
  });

  it('skips when no body has two independent rules', async () => {
    expect(
      await applyOperator(reorderRules, withBody('- First do this.\n- Then that.\n\nProse.'), { rng: 'x' }),
    ).toEqual({
      skip: 'no skill body has two independent rules to reorder',
    });
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(reorderRules, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
  });
});
