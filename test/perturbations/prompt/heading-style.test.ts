import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { headingStyle } from '../../../perturbations/prompt/heading-style.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { sectionsFromMarkdown } from '../../../src/harness/build/prompt-source.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../../src/harness/render-prompt.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelContext, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

describe('prompt/heading-style', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(headingStyle, {
      cases: await lawCases(),
      params: [{}, { style: 'xml' }, { style: 'bracketed' }],
    });
  });

  it('picks another style at a fixed seed', async () => {
    const applied = await applyOperator(headingStyle, travelHarness(), { rng: 'golden', severity: 1 });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.prompt.headingStyle).toBe('numbered');
    expect(renderSystemPrompt(applied.harness, travelContext)).toMatch(
      /^1\. Role\nYou are the support agent/,
    );
  });

  it('uses the style given as a param', async () => {
    const applied = await applyOperator(headingStyle, travelHarness(), { params: { style: 'xml' } });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.prompt.headingStyle).toBe('xml');
    expect(renderSystemPrompt(applied.harness, travelContext)).toMatch(/^<role title="Role">\n/);
    expect(applied.harness.prompt.sections).toEqual(travelHarness().prompt.sections);
  });

  it('never numbers the headings of a prompt that holds a numbered list', async () => {
    // "2. Workflow" then "1. Read the file": Markdown would read one list and renumber it.
    const input = travelHarnessInput();
    input.prompt.sections[0] = {
      ...input.prompt.sections[0]!,
      template: 'Work in order:\n1. Read.\n2. Edit.',
    };
    const listed = parseHarness(input);
    expect(await applyOperator(headingStyle, listed, { params: { style: 'numbered' } })).toEqual({
      skip: 'numbered headings would run into a numbered list of the prompt',
    });
    for (const rng of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const applied = await applyOperator(headingStyle, listed, { rng, severity: 1 });
      expect('skip' in applied ? undefined : applied.harness.prompt.headingStyle).not.toBe('numbered');
    }
  });

  it('skips when the requested style is already in use', async () => {
    const applied = await applyOperator(headingStyle, travelHarness(), { params: { style: 'markdown' } });
    expect(applied).toEqual({ skip: 'the heading style is already "markdown"' });
  });

  it('rejects an unknown style', async () => {
    await expect(applyOperator(headingStyle, travelHarness(), { params: { style: 'html' } })).rejects.toThrow(
      /invalid params/,
    );
  });

  it("keeps section headings that bound the subsections of τ-bench's retail policy", async () => {
    // "## Modify pending order" holds "### Modify payment" and "### Modify items": under "5. Return delivered
    // order" or "[Return delivered order]", Markdown would read the return rules as part of "Modify items".
    const policy = readFileSync(new URL('../fixtures/tau-bench-retail-wiki.md', import.meta.url), 'utf8');
    const input = travelHarnessInput();
    input.prompt.sections = sectionsFromMarkdown(policy, 'wiki.md').items;
    const harness = parseHarness(input);
    for (const style of ['numbered', 'bracketed'] as const) {
      expect(await applyOperator(headingStyle, harness, { params: { style } })).toEqual({
        skip: `${style} headings would not bound sections that hold headings of their own`,
      });
    }
    const drawn = new Set<string>();
    for (let seed = 0; seed < 24; seed++) {
      const applied = await applyOperator(headingStyle, harness, { rng: `s${seed}`, severity: 1 });
      if ('skip' in applied) throw new Error(applied.skip);
      drawn.add(applied.harness.prompt.headingStyle);
    }
    expect([...drawn]).toEqual(['xml']);
    const xml = await applyOperator(headingStyle, harness, { params: { style: 'xml' } });
    if ('skip' in xml) throw new Error(xml.skip);
    expect(renderSystemPrompt(xml.harness, travelContext)).toContain(
      '### Modify items\n\n- This action can only be called once',
    );
  });

  it('reads a heading inside fenced code as code', async () => {
    const input = travelHarnessInput();
    input.prompt.sections[3] = {
      ...input.prompt.sections[3]!,
      template: 'Run:\n```bash\n# list the files\nls\n```',
    };
    const applied = await applyOperator(headingStyle, parseHarness(input), {
      params: { style: 'bracketed' },
    });
    expect('skip' in applied ? applied.skip : applied.harness.prompt.headingStyle).toBe('bracketed');
  });
});
