import { describe, expect, it } from 'vitest';
import { reorderSections } from '../../../perturbations/prompt/reorder-sections.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

describe('prompt/reorder-sections', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(reorderSections, { cases: await lawCases() });
  });

  it('shuffles the unpinned sections at a fixed seed; the pinned one stays first', async () => {
    const applied = await applyOperator(reorderSections, travelHarness(), { rng: 'golden', severity: 1 });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.prompt.sections.map((section) => section.id)).toEqual([
      'role',
      'tools',
      'passenger',
      'skills',
    ]);
    expect(applied.relabel.steps).toEqual([]);
  });

  it('keeps pinned sections in place and every section once, for any seed', async () => {
    const input = travelHarnessInput();
    input.prompt.sections[2] = { ...input.prompt.sections[2]!, pinned: true };
    const harness = parseHarness(input);
    for (let seed = 0; seed < 30; seed++) {
      const applied = await applyOperator(reorderSections, harness, { rng: `s${seed}`, severity: 0.5 });
      // Only `skills` and `passenger` are free, so they always swap.
      if ('skip' in applied) throw new Error(applied.skip);
      expect(applied.harness.prompt.sections.map((section) => section.id)).toEqual([
        'role',
        'passenger',
        'tools',
        'skills',
      ]);
    }
  });

  it('skips when fewer than two sections are unpinned', async () => {
    const input = travelHarnessInput();
    input.prompt.sections = input.prompt.sections.map((section, index) => ({
      ...section,
      pinned: index !== 1,
    }));
    const applied = await applyOperator(reorderSections, parseHarness(input), { rng: 'x', severity: 1 });
    expect(applied).toEqual({ skip: 'fewer than two unpinned prompt sections' });
  });

  it('returns the harness unchanged at severity 0', async () => {
    const harness = travelHarness();
    const applied = await applyOperator(reorderSections, harness, { rng: 'x', severity: 0 });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness).toBe(harness);
    expect(applied.changed).toBe(false);
  });

  it('moves a section and its continuation together, for any seed', async () => {
    const input = travelHarnessInput();
    input.prompt.sections.splice(2, 0, {
      id: 'skills_continued',
      title: 'Skills (continued)',
      template: 'Load one at a time.',
    });
    input.prompt.sections.push({
      id: 'passenger_continued',
      title: 'Passenger (continued)',
      template: '- Be kind.',
    });
    const harness = parseHarness(input);
    let moved = 0;
    for (let seed = 0; seed < 30; seed++) {
      const applied = await applyOperator(reorderSections, harness, { rng: `s${seed}`, severity: 1 });
      if ('skip' in applied) throw new Error(applied.skip);
      const ids = applied.harness.prompt.sections.map((section) => section.id);
      expect(ids.indexOf('skills_continued')).toBe(ids.indexOf('skills') + 1);
      expect(ids.indexOf('passenger_continued')).toBe(ids.indexOf('passenger') + 1);
      expect([...ids].sort()).toEqual(harness.prompt.sections.map((section) => section.id).sort());
      if (ids.indexOf('skills') > ids.indexOf('passenger')) moved += 1;
    }
    expect(moved).toBeGreaterThan(0);
  });
});
