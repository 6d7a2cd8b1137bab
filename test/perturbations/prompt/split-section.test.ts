import { describe, expect, it } from 'vitest';
import { splitSection } from '../../../perturbations/prompt/split-section.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../../src/harness/render-prompt.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelContext, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

/** The travel harness with a passenger section of three paragraphs, the middle one inside a block. */
function withParagraphs(template: string) {
  const input = travelHarnessInput();
  input.prompt.sections[3] = { ...input.prompt.sections[3]!, template };
  return parseHarness(input);
}

describe('prompt/split-section', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(splitSection, { cases: await lawCases() });
  });

  it('splits at a top-level paragraph break at a fixed seed', async () => {
    const harness = withParagraphs(
      'Passenger: {{context.passenger.name}}\n\n{{#if context.passenger.flight}}Flight {{context.passenger.flight}}\n\nCheck it.{{/if}}\n\nBe kind.',
    );
    const applied = await applyOperator(splitSection, harness, { rng: 'golden', severity: 1 });
    if ('skip' in applied) throw new Error(applied.skip);
    const sections = applied.harness.prompt.sections;
    expect(sections.map(({ id, title }) => [id, title])).toEqual([
      ['role', 'Role'],
      ['skills', 'Skills'],
      ['tools', 'Tools'],
      ['passenger', 'Passenger'],
      ['passenger_continued', 'Passenger (continued)'],
    ]);
    expect(sections[3]?.template).toBe('Passenger: {{context.passenger.name}}');
    expect(sections[4]?.template).toBe(
      '{{#if context.passenger.flight}}Flight {{context.passenger.flight}}\n\nCheck it.{{/if}}\n\nBe kind.',
    );
    expect(renderSystemPrompt(applied.harness, travelContext)).toContain(
      '## Passenger\nPassenger: Ana Souza\n\n## Passenger (continued)\nFlight HA 212\n\nCheck it.\n\nBe kind.',
    );
  });

  it('never cuts inside a block or a mustache', async () => {
    const harness = withParagraphs('{{#each tools}}- {{name}}\n\n{{description}}\n{{/each}}');
    const applied = await applyOperator(splitSection, harness, { rng: 'x', severity: 1 });
    expect(applied).toEqual({
      skip: 'no unpinned section has a paragraph break outside a block where its parts stand alone',
    });
  });

  it('gives the second part an id no identifier uses', async () => {
    const input = travelHarnessInput();
    input.prompt.sections[3] = { ...input.prompt.sections[3]!, template: 'A.\n\nB.' };
    input.prompt.sections.push({ id: 'passenger_continued', title: 'More', template: 'C.', pinned: true });
    const applied = await applyOperator(splitSection, parseHarness(input), { rng: 'x', severity: 1 });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.prompt.sections.map((section) => section.id)).toEqual([
      'role',
      'skills',
      'tools',
      'passenger',
      'passenger_continued_2',
      'passenger_continued',
    ]);
  });

  it('skips when no section has two paragraphs', async () => {
    const applied = await applyOperator(splitSection, travelHarness(), { rng: 'x', severity: 1 });
    expect(applied).toEqual({
      skip: 'no unpinned section has a paragraph break outside a block where its parts stand alone',
    });
  });

  it('keeps a list with the sentence that introduces it, as in the live-stream compliance section', async () => {
    const harness = withParagraphs(
      "China's advertising law applies to every reply.\n\n{{#each tools}}\n- Never misname {{name}}.\n{{/each}}\n- Never promise an arrival date.",
    );
    const applied = await applyOperator(splitSection, harness, { rng: 'x', severity: 1 });
    expect(applied).toEqual({
      skip: 'no unpinned section has a paragraph break outside a block where its parts stand alone',
    });
  });

  it('keeps a paragraph that ends on a colon, or one that refers back, with its neighbour', async () => {
    for (const template of [
      'Before any refund, check:\n\nthe order id and the receipt.',
      'Check whether the flight is delayed.\n\nIf it is not, say so.',
      'Offer a rebooking.\n\nOtherwise, open a ticket.',
    ]) {
      const applied = await applyOperator(splitSection, withParagraphs(template), { rng: 'x', severity: 1 });
      expect('skip' in applied, template).toBe(true);
    }
  });

  it("never cuts inside a subsection, where what follows would lose its heading (τ-bench retail's policy)", async () => {
    const cuts = async (template: string) => {
      const seen = new Set<string>();
      for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
        const applied = await applyOperator(splitSection, withParagraphs(template), {
          rng: seed,
          severity: 1,
        });
        if ('skip' in applied) return applied;
        seen.add(applied.harness.prompt.sections.at(-1)?.template as string);
      }
      return [...seen].sort();
    };
    // Under "### Modify items" the second rule is that subsection's: no cut before it. Before a heading of
    // the same level, a cut takes the next subsection whole.
    expect(
      await cuts(
        '### Modify payment\n\n- Only one payment method.\n\n### Modify items\n\n- Items can be modified once.\n\nThe order status becomes pending.',
      ),
    ).toEqual(['### Modify items\n\n- Items can be modified once.\n\nThe order status becomes pending.']);
    expect(
      await cuts('### Modify items\n\nItems can be modified once.\n\nThe status becomes pending.'),
    ).toEqual({
      skip: 'no unpinned section has a paragraph break outside a block where its parts stand alone',
    });
  });

  it('never cuts inside an element such as <example> … </example>, as coding-agent prompts fence examples', async () => {
    const template =
      'Use the todo list.\n\n<example>\nuser: Run the build\n\nassistant: I will add it to the todo list.\n</example>\n\nKeep it short.';
    const seen = new Set<string>();
    for (const rng of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const applied = await applyOperator(splitSection, withParagraphs(template), { rng, severity: 1 });
      if ('skip' in applied) throw new Error(applied.skip);
      seen.add(applied.harness.prompt.sections.at(-1)?.template as string);
    }
    for (const part of seen) expect(part.startsWith('assistant:')).toBe(false);
  });

  it('still splits between two paragraphs that stand alone, and between two lists', async () => {
    for (const template of [
      'Greet the passenger.\n\nQuote fares in euros.',
      '- Greet.\n- Smile.\n\n- Quote fares.',
    ]) {
      const applied = await applyOperator(splitSection, withParagraphs(template), { rng: 'x', severity: 1 });
      if ('skip' in applied) throw new Error(`${template}: ${applied.skip}`);
      expect(applied.harness.prompt.sections.map((section) => section.title)).toContain(
        'Passenger (continued)',
      );
    }
  });
});
