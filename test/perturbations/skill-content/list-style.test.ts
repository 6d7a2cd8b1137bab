import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { listStyle } from '../../../perturbations/skill-content/list-style.js';
import { checkContentPreservation } from '../../../src/augment/content-preservation.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { loadHarnessFile, parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { identityRelabel } from '../../../src/trajectory/relabel.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const baggage = async (style: string) =>
  applied(await applyOperator(listStyle, harness, { rng: 'golden', params: { style } })).harness.skills
    .items[1]?.body;
const withBody = (body: string) => {
  const input = travelHarnessInput();
  input.skills.items = [{ ...input.skills.items[0]!, body }];
  return parseHarness(input);
};

describe('skill-content/list-style', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(listStyle, {
      cases: await lawCases(),
      params: [{}, { style: 'bullets' }, { style: 'numbered' }, { style: 'prose' }, { style: 'table' }],
    });
  });

  it('writes rules as a numbered list, prose or a table (golden)', async () => {
    expect(await baggage('numbered')).toBe(
      '1. Use `get_baggage_policy` with the fare class.\n2. State weights in kilograms.',
    );
    expect(await baggage('prose')).toBe(
      'Use `get_baggage_policy` with the fare class. State weights in kilograms.',
    );
    expect(await baggage('table')).toBe(
      '| # | rule |\n|---|---|\n| 1 | Use `get_baggage_policy` with the fare class. |\n| 2 | State weights in kilograms. |',
    );
  });

  it('picks a style other than the body’s own when none is given (golden)', async () => {
    const result = applied(await applyOperator(listStyle, harness, { rng: 'golden', severity: 1 }));
    expect(result.harness.skills.items.map((skill) => skill.body)).toEqual([
      // A bullet list that names tools in turn is a procedure: it goes to an ordered style only.
      '1. Call `find_flights` before offering a flight.\n2. Quote fares exactly as `find_flights` returns them.\n3. Never promise a seat before `hold_seat` succeeds.',
      '| # | rule |\n|---|---|\n| 1 | Use `get_baggage_policy` with the fare class. |\n| 2 | State weights in kilograms. |',
      'Apologise once, then move to the fix. Pair it with rebooking.',
    ]);
  });

  it('keeps numbered procedures ordered, keeps other lines, and joins only full Chinese sentences', async () => {
    const body = '# 规则\n1. 不要承诺到货日期\n2. 先查库存\n\n结尾。\n';
    for (const style of ['bullets', 'prose']) {
      expect(await applyOperator(listStyle, withBody(body), { rng: 'x', params: { style } })).toEqual({
        skip: `no skill body has a rule list that can become ${style}`,
      });
    }
    const independent = `# 规则\n<!-- hsa: independent -->\n${body.slice(5)}`;
    const bullets = applied(
      await applyOperator(listStyle, withBody(independent), { rng: 'x', params: { style: 'bullets' } }),
    );
    expect(bullets.harness.skills.items[0]?.body).toBe(
      '# 规则\n<!-- hsa: independent -->\n- 不要承诺到货日期\n- 先查库存\n\n结尾。\n',
    );
    // Items without a full stop are not full sentences as written: prose would have to make them so.
    expect(
      await applyOperator(listStyle, withBody(independent), { rng: 'x', params: { style: 'prose' } }),
    ).toEqual({ skip: 'no skill body has a rule list that can become prose' });
    const sentences = '# 规则\n<!-- hsa: independent -->\n1. 不要承诺到货日期。\n2. 先查库存。\n\n结尾。\n';
    const prose = applied(
      await applyOperator(listStyle, withBody(sentences), { rng: 'x', params: { style: 'prose' } }),
    );
    expect(prose.harness.skills.items[0]?.body).toBe(
      '# 规则\n<!-- hsa: independent -->\n不要承诺到货日期。先查库存。\n\n结尾。\n',
    );
    // A numbered procedure's table names its column for steps.
    const table = applied(
      await applyOperator(listStyle, withBody(body), { rng: 'x', params: { style: 'table' } }),
    );
    expect(table.harness.skills.items[0]?.body).toBe(
      '# 规则\n| # | 步骤 |\n|---|---|\n| 1 | 不要承诺到货日期 |\n| 2 | 先查库存 |\n\n结尾。\n',
    );
  });

  it('leaves a numbered procedure that a code block interrupts whole (anthropics/skills docx "Images")', async () => {
    const body =
      '1. Add the image file to `word/media/`\n2. Add a relationship:\n```xml\n<Relationship Id="rId5"/>\n```\n3. Add the content type\n4. Reference it in document.xml';
    for (const style of ['bullets', 'prose', 'table'] as const)
      expect(await applyOperator(listStyle, withBody(body), { rng: 'x', params: { style } })).toEqual({
        skip: `no skill body has a rule list that can become ${style}`,
      });
  });

  it('numbers no list that stands between two items of a numbered list (OpenHands code-review)', async () => {
    const body = await readFile(
      new URL('../../augment/fixtures/public/openhands-code-review-scenarios.md', import.meta.url),
      'utf8',
    );
    expect(
      await applyOperator(listStyle, withBody(body), { rng: 'x', params: { style: 'numbered' } }),
    ).toEqual({
      skip: 'no skill body has a rule list that can become numbered',
    });
    // Other styles still apply to the checks under each scenario, and the scenarios stay 1. to 3.
    const table = applied(
      await applyOperator(listStyle, withBody(body), { rng: 'x', params: { style: 'table' } }),
    ).harness.skills.items[0]?.body;
    expect(table?.match(/^\d+\. .*$/gmu)).toEqual([
      '1. Style and Formatting',
      '2. Clarity and Readability',
      '3. Security and Common Bug Patterns',
    ]);
    expect(table).toContain('| 1 | Inconsistent indentation, spacing, or bracket usage |');
  });

  // OpenHands' codereview-roasted and onboarding skills (test/augment/fixtures/public, audit 14): version 8
  // numbered the "[CRITICAL ISSUES]" example lines, and made the plan skeleton a "| # | rule |" table or prose.
  it('keeps the style of a template of the output (OpenHands codereview-roasted, onboarding)', async () => {
    const roasted = await readFile(
      new URL('../../augment/fixtures/public/openhands-codereview-roasted-output-format.md', import.meta.url),
      'utf8',
    );
    const templateLines = roasted.split('\n').filter((line) => line.startsWith('- [src/'));
    expect(templateLines).toHaveLength(7);
    const numbered = applied(
      await applyOperator(listStyle, withBody(roasted), { rng: 'x', params: { style: 'numbered' } }),
    ).harness.skills.items[0]?.body as string;
    for (const line of templateLines) expect(numbered.split('\n')).toContain(line);
    // The rules after the template ("COMMUNICATION STYLE:") are still restyled.
    expect(numbered).toContain('1. Be direct and technically precise');
    const plan = await readFile(
      new URL('../../augment/fixtures/public/openhands-onboarding-plan.md', import.meta.url),
      'utf8',
    );
    for (const style of ['numbered', 'prose', 'table'] as const)
      expect(await applyOperator(listStyle, withBody(plan), { rng: 'x', params: { style } })).toEqual({
        skip: `no skill body has a rule list that can become ${style}`,
      });
  });

  // onboarding.md, "#### 1. Repo & Runtime Context": version 8 joined the two questions to pick from into prose.
  it('keeps the style of a list of quotations to say (OpenHands onboarding interview questions)', async () => {
    const body =
      '#### 1. Repo & Runtime Context\n- “Where will this live? Repo/name or link, language/runtime, and framework (if any)?”\n- “How do you run and test locally? (package manager, build tool, dev server, docker compose?)”';
    for (const style of ['numbered', 'prose', 'table'] as const)
      expect(await applyOperator(listStyle, withBody(body), { rng: 'x', params: { style } })).toEqual({
        skip: `no skill body has a rule list that can become ${style}`,
      });
  });

  // K-Dense peer-review's checklist (test/augment/fixtures/public): a table made its boxes literal "[ ]".
  it('writes no task list as a table or prose (K-Dense peer-review)', async () => {
    const body = await readFile(
      new URL('../../augment/fixtures/public/kdense-peer-review-checklist.md', import.meta.url),
      'utf8',
    );
    for (const style of ['table', 'prose'] as const)
      expect(await applyOperator(listStyle, withBody(body), { rng: 'x', params: { style } })).toEqual({
        skip: `no skill body has a rule list that can become ${style}`,
      });
  });

  it('escapes pipes in table cells and leaves lists with nested items as lists', async () => {
    const piped = applied(
      await applyOperator(listStyle, withBody('- a | b\n- c'), { rng: 'x', params: { style: 'table' } }),
    );
    // Items that are not full sentences are not called rules.
    expect(piped.harness.skills.items[0]?.body).toBe('| # | item |\n|---|---|\n| 1 | a \\| b |\n| 2 | c |');
    expect(
      await applyOperator(listStyle, withBody('- a\n  - nested\n- c'), {
        rng: 'x',
        params: { style: 'prose' },
      }),
    ).toEqual({
      skip: 'no skill body has a rule list that can become prose',
    });
  });

  it('skips when every list is in the style asked already', async () => {
    expect(await applyOperator(listStyle, harness, { rng: 'x', params: { style: 'bullets' } })).toEqual({
      skip: 'no skill body has a rule list that can become bullets',
    });
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(listStyle, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
  });

  describe('on the tau2-bench telecom skills (test/augment/fixtures/public/telecom)', () => {
    const telecom = () =>
      loadHarnessFile(
        new URL('../../augment/fixtures/public/telecom/harness.yaml', import.meta.url).pathname,
      );
    const keys = ['Phone number', 'Customer ID', 'Full name with date of birth'];
    /** The lookup keys stay items of one list after "…using:": each alone on its line after a marker. */
    const keysStayAList = (body: string) => {
      const lines = body.split('\n');
      const at = lines.findIndex((line) => line.endsWith('using:'));
      expect(at, body).toBeGreaterThanOrEqual(0);
      const items = lines.slice(at + 1, at + 1 + keys.length);
      expect(
        items.map((line) => line.replace(/^(?:[-*+]|\d+[.)]) /u, '')),
        body,
      ).toEqual(keys);
      expect(
        items.every((line) => /^(?:[-*+]|\d+[.)]) /u.test(line)),
        body,
      ).toBe(true);
    };

    it('keeps the lookup keys a list in every style, over many seeds, and every variant certifies', async () => {
      const base = await telecom();
      const lookup = base.skills.items.findIndex((skill) => skill.id === 'customer-lookup');
      expect(lookup).toBeGreaterThanOrEqual(0);
      let restyled = 0;
      for (const style of [undefined, 'bullets', 'numbered', 'prose', 'table'] as const) {
        for (let seed = 0; seed < 24; seed++) {
          const result = await applyOperator(listStyle, base, {
            rng: `telecom-${seed}`,
            severity: 1,
            ...(style ? { params: { style } } : {}),
          });
          if ('skip' in result) continue;
          const body = result.harness.skills.items[lookup]?.body ?? '';
          if (body !== base.skills.items[lookup]?.body) restyled++;
          keysStayAList(body);
          expect(body, body).not.toMatch(/Phone number\.|\| # \| rule \|[\s\S]*Phone number/u);
          expect(checkContentPreservation(base, result.harness, identityRelabel).issues).toEqual([]);
        }
      }
      // The keys still change marker style (bullets to numbers); they only never leave the list.
      expect(restyled).toBeGreaterThan(0);
    });

    it('never joins fragments into prose, and names a procedure’s table column for steps', async () => {
      const base = await telecom();
      const only = (id: string) => ({
        ...base,
        skills: { ...base.skills, items: base.skills.items.filter((skill) => skill.id === id) },
      });
      expect(
        await applyOperator(listStyle, only('customer-lookup'), { rng: 'x', params: { style: 'prose' } }),
      ).toEqual({
        skip: 'no skill body has a rule list that can become prose',
      });
      expect(
        await applyOperator(listStyle, only('customer-lookup'), { rng: 'x', params: { style: 'table' } }),
      ).toEqual({
        skip: 'no skill body has a rule list that can become table',
      });
      const numbered = applied(
        await applyOperator(listStyle, only('customer-lookup'), { rng: 'x', params: { style: 'numbered' } }),
      );
      expect(numbered.harness.skills.items[0]?.body).toBe(
        'You can look up customer information using:\n1. Phone number\n2. Customer ID\n3. Full name with date of birth\n\nFor name lookup, date of birth is required for verification purposes.',
      );
      // Every list of the telecom skills is a procedure, linked, or fragments: none becomes prose.
      expect(await applyOperator(listStyle, base, { rng: 'x', params: { style: 'prose' } })).toEqual({
        skip: 'no skill body has a rule list that can become prose',
      });
      // After a colon, full sentences may become prose; bare noun phrases, even with a full stop, may not.
      const prose = applied(
        await applyOperator(listStyle, withBody('Rules:\n- Never promise dates.\n- Quote the final price.'), {
          rng: 'x',
          params: { style: 'prose' },
        }),
      ).harness.skills.items[0]?.body;
      expect(prose).toBe('Rules:\nNever promise dates. Quote the final price.');
      for (const style of ['prose', 'table']) {
        expect(
          await applyOperator(listStyle, withBody('Look up customers by:\n- Phone number.\n- Customer ID.'), {
            rng: 'x',
            params: { style },
          }),
        ).toEqual({ skip: `no skill body has a rule list that can become ${style}` });
      }
      // A procedure's table names its column for steps.
      const steps = applied(
        await applyOperator(listStyle, only('data-refueling'), { rng: 'x', params: { style: 'numbered' } }),
      ).harness.skills.items[0]?.body;
      expect(steps).toContain(
        'To refuel data you should:\n1. Ask them how much data they want to refuel\n2. Confirm',
      );
      const table = applied(
        await applyOperator(listStyle, withBody('1. Open the ticket.\n2. Close the ticket.'), {
          rng: 'x',
          params: { style: 'table' },
        }),
      ).harness.skills.items[0]?.body;
      expect(table).toBe('| # | step |\n|---|---|\n| 1 | Open the ticket. |\n| 2 | Close the ticket. |');
      // Bullets read as a procedure only from a cue ("before") keep their order in numbered rows, but are not
      // called steps: they may be rules, not a sequence. Announced ones are.
      const cued = (body: string) =>
        applyOperator(listStyle, withBody(body), { rng: 'x', params: { style: 'table' } }).then(
          (result) => applied(result).harness.skills.items[0]?.body,
        );
      expect(await cued('- Run the tests before you commit.\n- Keep each commit small.')).toBe(
        '| # | rule |\n|---|---|\n| 1 | Run the tests before you commit. |\n| 2 | Keep each commit small. |',
      );
      expect(await cued('Steps:\n- Open the ticket.\n- Close the ticket.')).toBe(
        'Steps:\n| # | step |\n|---|---|\n| 1 | Open the ticket. |\n| 2 | Close the ticket. |',
      );
    });
  });
});
