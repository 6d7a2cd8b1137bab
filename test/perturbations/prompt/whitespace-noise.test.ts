import { describe, expect, it } from 'vitest';
import { whitespaceNoise } from '../../../perturbations/prompt/whitespace-noise.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

const code = (template: string) => template.match(/\{\{[\s\S]*?\}\}/g) ?? [];
const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('prompt/whitespace-noise', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(whitespaceNoise, {
      cases: await lawCases(),
      params: [{}, { kinds: ['blank-lines'] }, { kinds: ['title-case'] }],
    });
  });

  it('adds noise at a fixed seed', async () => {
    const applied = await applyOperator(whitespaceNoise, travelHarness(), { rng: 'golden', severity: 1 });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.prompt.sections.map((section) => section.title)).toEqual([
      'ROLE',
      'skills',
      'TOOLS',
      'PASSENGER',
    ]);
    expect(applied.harness.prompt.sections[0]?.template).toBe(
      'You are the support agent of {{harness.id}}.  ',
    );
  });

  it('keeps every word, every `{{ }}` and every identifier, for any seed', async () => {
    const input = travelHarnessInput();
    input.prompt.sections[3] = {
      ...input.prompt.sections[3]!,
      title: 'Use find_flights',
      template: 'Passenger:  \n{{context.passenger.name}}\n\nFlight {{context.passenger.flight}}\n\n\nBye.',
    };
    const harness = parseHarness(input);
    for (let seed = 0; seed < 40; seed++) {
      const applied = await applyOperator(whitespaceNoise, harness, { rng: `s${seed}`, severity: 1 });
      if ('skip' in applied) throw new Error(applied.skip);
      applied.harness.prompt.sections.forEach((section, index) => {
        const before = harness.prompt.sections[index]!;
        expect(section.id).toBe(before.id);
        expect(code(section.template)).toEqual(code(before.template));
        expect(words(section.template)).toEqual(words(before.template));
        expect(section.title.toLowerCase()).toBe(before.title.toLowerCase());
      });
      expect(applied.harness.prompt.sections[3]?.title).toBe('Use find_flights');
    }
  });

  it('skips when nothing can change', async () => {
    const input = travelHarnessInput();
    input.prompt.sections = [{ id: 'only', title: '航班', template: '' }];
    const applied = await applyOperator(whitespaceNoise, parseHarness(input), { rng: 'x', severity: 1 });
    expect(applied).toEqual({ skip: 'no prompt section has text that whitespace noise can change' });
  });
});
