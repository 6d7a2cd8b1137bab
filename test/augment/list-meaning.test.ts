import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listStyle } from '../../perturbations/skill-content/list-style.js';
import { reorderRules } from '../../perturbations/skill-content/reorder-rules.js';
import { checkContentPreservation } from '../../src/augment/content-preservation.js';
import {
  enumerationOf,
  lastWords,
  leansOnPrevious,
  listMeaning,
  pinnedItems,
  pronounReferringBack,
} from '../../src/augment/list-meaning.js';
import { applyOperator } from '../../src/augment/operator.js';
import { markdownLists, templateLeadIn } from '../../src/augment/ordered-lists.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import { travelHarnessInput } from '../support/travel-harness.js';

const publicText = (name: string) =>
  readFileSync(new URL(`./fixtures/public/${name}`, import.meta.url), 'utf8');

const withBody = (body: string): Harness => {
  const input = travelHarnessInput();
  input.skills.items = [{ ...input.skills.items[0]!, body }];
  return parseHarness(input);
};

const meaningsOf = (text: string) =>
  markdownLists(text).map((list) => ({ list, meaning: listMeaning({ ...list, items: list.texts }) }));

const bodyOf = async (operator: typeof reorderRules, harness: Harness, rng: string) => {
  const result = await applyOperator(operator, harness, { rng, severity: 1 });
  return 'skip' in result ? undefined : result.harness;
};

describe('the list-meaning rule', () => {
  it('links a rule to the one before it when it refers back or the one before leads into it', () => {
    expect(
      leansOnPrevious(
        'If the user is travelling abroad, check whether the line has roaming enabled.',
        'If it does not, turn it on at no cost.',
      ),
    ).toContain('If it');
    expect(
      leansOnPrevious('The customer has an overdue bill, or', 'the contract end date is in the past.'),
    ).toContain('"or"');
    for (const opening of [
      'Otherwise, escalate.',
      'In that case, refund.',
      'Then confirm.',
      'Only after the user confirms, call it.',
      'Once that is done, close.',
      'If so, retry.',
      'If not, stop.',
      'Else ask again.',
    ]) {
      expect(leansOnPrevious('Check the order.', opening), opening).toBeDefined();
    }
    expect(leansOnPrevious('Check the order;', 'Refund it.')).toBeDefined();
    // A reason with no subject of its own explains the rule before it (mcp-builder's "Output Schema").
    expect(
      leansOnPrevious(
        'Define an output schema for structured results.',
        'Helps clients understand and process tool outputs.',
      ),
    ).toBeDefined();
    // What the rule before names, referred to as "that skill" (obra/superpowers' executing-plans).
    expect(
      leansOnPrevious(
        'REQUIRED SUB-SKILL: Use superpowers:finishing-a-development-branch',
        'Follow that skill to verify tests, present options, execute choice',
      ),
    ).toBe('it refers to "that skill"');
    // "these" points back (τ-bench airline's "Refund (continued)"), unless the item leads into what follows.
    expect(
      leansOnPrevious(
        'Compensation is a certificate of $100 per passenger.',
        'Do not proactively offer these compensations unless the user asks.',
      ),
    ).toBe('it refers to "these compensations"');
    expect(leansOnPrevious('Be brief.', 'Check these fields:')).toBeUndefined();
    // A verb whose object is the rule before it; a verb that takes "to" without an object leans on nothing.
    expect(
      leansOnPrevious('Never confirm or repeat a superlative.', 'Reframe to verifiable facts from tools.'),
    ).toBe('it opens with "Reframe to", a verb whose object is in the rule before it');
    for (const item of ['Reply to the user kindly.', 'Try to keep it short.', 'Quote the final price.'])
      expect(leansOnPrevious('Never promise dates.', item), item).toBeUndefined();
    expect(
      leansOnPrevious('Never promise delivery dates.', 'Quote the final price after coupons.'),
    ).toBeUndefined();
    expect(
      leansOnPrevious('Be brief.', 'If the customer asks for a discount, quote the coupon.'),
    ).toBeUndefined();
  });

  it('links a condition that restates the rule before it, not parallel conditions', () => {
    expect(
      leansOnPrevious(
        'Check for images without alt-text',
        'If images exist without alt-text, explain that Claude cannot see them.',
      ),
    ).toContain('restates');
    expect(
      leansOnPrevious(
        'If the viewer asks about the price, quote the coupon price.',
        'If the viewer asks about shipping, name the courier.',
      ),
    ).toBeUndefined();
  });

  it('reads the facts of a public Agent Skill (doc-coauthoring, in English)', () => {
    const lists = meaningsOf(publicText('doc-coauthoring-en.md'));
    expect(lists.map(({ meaning }) => meaning.links.map((link) => link !== undefined))).toEqual([
      [true, true],
      [false, true],
    ]);
  });

  it('calls a list an enumeration when its items are joined by a conjunction or its lead-in sets conditions', () => {
    expect(
      enumerationOf({ introduction: 'A line can be suspended because:', items: ['a', 'b'] }),
    ).toBeDefined();
    expect(
      enumerationOf({ introduction: 'Rules:', items: ['the bill is overdue, or', 'the contract ended.'] }),
    ).toBe('its items are joined by "or"');
    expect(enumerationOf({ introduction: 'Rules:', items: ['Be brief.', 'Be kind.'] })).toBeUndefined();
  });

  it('reads the facts of a public benchmark policy (tau2-bench telecom)', () => {
    const lists = meaningsOf(publicText('tau2-telecom-policy.md'));
    const byFirst = (start: string) => lists.find(({ list }) => list.texts[0]?.startsWith(start));
    // "To do so you need to follow these steps:" and "To refuel data you should:" announce procedures.
    expect(byFirst('Check the bill status')?.meaning.procedure).toBe(true);
    expect(byFirst('Ask them how much data')?.meaning.procedure).toBe(true);
    expect(byFirst('Make sure you know what line')?.meaning.procedure).toBe(true);
    // "A line can be suspended for the following reasons:" is an enumeration: both reasons keep their place.
    expect(byFirst('The user has an overdue bill')?.meaning.enumeration).toBeDefined();
  });

  it('reads public Agent Skills: build before test, a note on the rule before it, "the rest" last (anthropics/skills)', () => {
    // mcp-builder's "Build and Test": the Inspector runs what `npm run build` or py_compile made.
    const build = meaningsOf(publicText('mcp-builder-build-and-test.md'));
    expect(build.map(({ list }) => list.texts.length)).toEqual([2, 2]);
    expect(build.map(({ meaning }) => meaning.procedure)).toEqual([true, true]);
    // brand-guidelines' "**Note**: Fonts should be pre-installed" is about the fonts named before it.
    const [fonts] = meaningsOf(publicText('brand-guidelines-typography.md'));
    expect(fonts?.meaning.links.map((link) => link !== undefined)).toEqual([false, true]);
    // skill-creator's "**the rest of the skill :)**" is what the fields before it leave: it stays last.
    const [fields] = meaningsOf(publicText('skill-creator-write-skill.md'));
    expect(fields?.meaning.links.at(-1)).toBeDefined();
    expect(pinnedItems(fields!.meaning).has(3)).toBe(true);
  });

  it('links an example, a warning or a note to the rule it is about, never a rule that only opens with such a word', () => {
    const rule = 'Use cell references instead of hardcoded values in formulas.';
    for (const item of [
      'Example: Use =B5*(1+$B$6) instead of =B5*1.05',
      'Examples: "Source: 10-K, FY2024"',
      'E.g. a growth rate in its own cell.',
      'For example, keep the rate in B6.',
      '**Warning**: saving with cached values drops the formulas.',
      'Note: the file must be saved first.',
      '例如：把增长率放在单独的单元格。',
      'Everything else stays as it is.',
    ])
      expect(leansOnPrevious(rule, item), item).toBeDefined();
    for (const item of [
      'Note the source of each number.',
      'Test every formula.',
      'Examples are in the appendix.',
    ])
      expect(leansOnPrevious(rule, item), item).toBeUndefined();
  });

  it('reads the facts of a public Agent Skill (doc-coauthoring, in Chinese)', () => {
    const lists = meaningsOf(publicText('doc-coauthoring-zh.md'));
    const template = lists.find(({ list }) => list.texts[0]?.startsWith('询问他们是否有模板'));
    expect(template?.meaning.links[0]).toBeDefined();
    expect(template?.meaning.links[1]).toBeDefined();
    const numbered = lists.find(({ list }) => list.numbered);
    expect(numbered?.meaning.procedure).toBe(true);
  });
});

describe('operators keep the list meaning of public texts', () => {
  const texts = [
    'tau2-telecom-policy.md',
    'doc-coauthoring-zh.md',
    'doc-coauthoring-en.md',
    'mcp-builder-build-and-test.md',
    'skill-creator-write-skill.md',
    'brand-guidelines-typography.md',
  ].map(publicText);

  it('reorder-rules never moves a procedure, an enumeration or a linked rule, and every variant certifies', async () => {
    for (const text of texts) {
      const base = withBody(text);
      let reordered = 0;
      for (let seed = 0; seed < 12; seed++) {
        const variant = await bodyOf(reorderRules, base, `public-${seed}`);
        if (!variant) continue;
        const body = variant.skills.items[0]?.body ?? '';
        if (body !== text) reordered++;
        for (const { list, meaning } of meaningsOf(text)) {
          const at = list.items.map((item) => body.indexOf(item));
          const neighbours = (index: number) =>
            /^\n(?:[-*+]|\d+[.)]) $/u.test(
              body.slice((at[index] as number) + (list.items[index] as string).length, at[index + 1]),
            );
          if (meaning.procedure || meaning.enumeration) {
            expect(list.items.every((_, index) => index === 0 || neighbours(index - 1))).toBe(true);
          }
          meaning.links.forEach((link, index) => {
            if (link) expect(neighbours(index), list.items[index + 1]).toBe(true);
          });
        }
        const check = checkContentPreservation(base, variant, identityRelabel);
        expect(check.issues, `seed ${seed}`).toEqual([]);
      }
      // A text with an independent list still changes order (the rule pins, it does not freeze); the
      // telecom excerpt holds procedures and an enumeration only, so nothing there may move.
      const movable = meaningsOf(text).some(
        ({ list, meaning }) =>
          !meaning.procedure && !meaning.enumeration && list.items.length - pinnedItems(meaning).size >= 2,
      );
      expect(reordered > 0).toBe(movable);
    }
  });

  it('list-style writes procedures only in ordered styles, and every variant certifies', async () => {
    for (const text of texts) {
      const base = withBody(text);
      for (const style of ['bullets', 'numbered', 'prose', 'table'] as const) {
        const result = await applyOperator(listStyle, base, { rng: style, severity: 1, params: { style } });
        if ('skip' in result) continue;
        const check = checkContentPreservation(base, result.harness, identityRelabel);
        expect(check.issues, style).toEqual([]);
      }
    }
  });
});

/** Independent rules and rules that lean on the one before them, for generated lists. */
const independentRules = [
  'Never promise a delivery date.',
  'Quote the final price after coupons.',
  'Keep replies under 60 characters.',
  'Answer in the language of the viewer.',
  'Do not compare with other shops.',
  'Mention the return window when asked.',
];
const leaningRules = [
  'If it is not, enable it at no cost.',
  'Otherwise, transfer the user to a human agent.',
  'In that case, offer a refund.',
  'Only after the user confirms, apply the change.',
];

const generatedList = fc
  .array(
    fc.tuple(
      fc.constantFrom(...independentRules),
      fc.option(fc.constantFrom(...leaningRules), { nil: undefined }),
    ),
    {
      minLength: 2,
      maxLength: 6,
    },
  )
  .map((pairs) => {
    const seen = new Set<string>();
    return pairs
      .filter(([rule]) => !seen.has(rule) && seen.add(rule))
      .flatMap(([rule, leaning], index) =>
        leaning ? [rule, `${leaning.slice(0, -1)} (${index}).`] : [rule],
      );
  })
  .filter((rules) => rules.length >= 2);

describe('list meaning, over generated lists', () => {
  it('reorder-rules keeps every rule that leans on the one before right after it, and the check agrees', async () => {
    await fc.assert(
      fc.asyncProperty(generatedList, fc.string({ maxLength: 6 }), async (rules, seed) => {
        const base = withBody(`Rules:\n${rules.map((rule) => `- ${rule}`).join('\n')}`);
        const variant = await bodyOf(reorderRules, base, seed);
        if (!variant) return;
        const body = variant.skills.items[0]?.body ?? '';
        rules.forEach((rule, index) => {
          if (leaningRules.some((leaning) => rule.startsWith(leaning.slice(0, 12))))
            expect(body).toContain(`- ${rules[index - 1]}\n- ${rule}`);
        });
        expect(checkContentPreservation(base, variant, identityRelabel).meaningKept).toBe(true);
      }),
      { seed: 20261205, numRuns: 60 },
    );
  });

  it('the check rejects a list where a leaning rule was moved away from the rule it leans on', () => {
    fc.assert(
      fc.property(generatedList, (rules) => {
        const leaning = rules.findIndex(
          (rule, index) => index > 0 && leaningRules.some((l) => rule.startsWith(l.slice(0, 12))),
        );
        fc.pre(leaning > 0 && rules.length >= 3);
        const moved = [...rules];
        const [item] = moved.splice(leaning, 1);
        moved.splice(leaning === 1 ? moved.length : 0, 0, item as string);
        const base = withBody(`Rules:\n${rules.map((rule) => `- ${rule}`).join('\n')}`);
        const variant = withBody(`Rules:\n${moved.map((rule) => `- ${rule}`).join('\n')}`);
        const check = checkContentPreservation(base, variant, identityRelabel);
        expect(check.meaningKept).toBe(false);
        expect(check.issues.map((issue) => issue.code)).toContain('dependency_separated');
      }),
      { seed: 20261205, numRuns: 60 },
    );
  });

  it('the check rejects an enumeration closed by a full stop after its conjunction', () => {
    const base = withBody(
      'A line can be suspended because:\n- the customer has an overdue bill, or\n- the contract end date is in the past.',
    );
    const prose = withBody(
      'A line can be suspended because:\nthe customer has an overdue bill, or. the contract end date is in the past.',
    );
    const check = checkContentPreservation(base, prose, identityRelabel);
    expect(check.issues.map((issue) => issue.code)).toEqual(['enumeration_broken']);
    const swapped = withBody(
      'A line can be suspended because:\n- the contract end date is in the past.\n- the customer has an overdue bill, or',
    );
    expect(checkContentPreservation(base, swapped, identityRelabel).meaningKept).toBe(false);
  });
});

// OpenHands (test/augment/fixtures/public/openhands-*.md, audit 14): a list that shows the shape of an output
// is a template, and a rule whose pronoun stands for what the rule before it named depends on it.
describe('templates of an output and pronouns that refer back (OpenHands skills)', () => {
  const roasted = publicText('openhands-codereview-roasted-output-format.md');
  const onboarding = publicText('openhands-onboarding-plan.md');

  it('reads the lists under "CRITICAL REVIEW OUTPUT FORMAT:" as a template, up to the next label', () => {
    const lists = markdownLists(roasted);
    expect(lists.map((list) => list.template)).toEqual([
      'CRITICAL REVIEW OUTPUT FORMAT:',
      'CRITICAL REVIEW OUTPUT FORMAT:',
      undefined, // the one-item "[STYLE NOTES]" list is no list; "COMMUNICATION STYLE:" ends the template
    ]);
    expect(lists.map((list) => list.texts.length)).toEqual([3, 3, 5]);
    const [issues] = meaningsOf(roasted);
    expect(issues?.meaning.template).toContain('CRITICAL REVIEW OUTPUT FORMAT:');
    expect(issues?.meaning.links.every((link) => link !== undefined)).toBe(true);
  });

  it('reads every list of the structure "Produce a PR-ready plan … in this structure:" introduces as a template', () => {
    const lists = markdownLists(onboarding);
    expect(lists).toHaveLength(7);
    expect(new Set(lists.map((list) => list.template))).toEqual(
      new Set(['Produce a **PR-ready plan** customized to the user’s answers, in this structure:']),
    );
    // The section ends at the next heading of its level.
    expect(templateLeadIn(onboarding)).toBeUndefined();
    expect(templateLeadIn('## Plan\nUse the following format:\n\n### 1. Goal\n- a\n')).toBe(
      'Use the following format:',
    );
    expect(templateLeadIn('## Rules\n- Never guess.\n- Keep replies short.\n')).toBeUndefined();
    expect(templateLeadIn('Reply like this, for example:\n')).toBe('Reply like this, for example:');
    expect(templateLeadIn('```\n## Output format\n```\n')).toBeUndefined();
  });

  it('links a rule whose pronoun stands for what an earlier rule named, not one that names it itself', () => {
    // onboarding.md, "### 4. Testing Plan".
    const testing = [
      'Tests to write, where they live, and example test names.',
      'How to run them locally and in CI (with exact commands).',
      'Sample fixtures/mocks or seed data.',
    ];
    expect(pronounReferringBack(testing[1] as string)).toBe('How to run them');
    expect(pronounReferringBack(testing[0] as string)).toBeUndefined();
    expect(pronounReferringBack('Keep it short.')).toBeUndefined();
    expect(pronounReferringBack('Ask the user what they need.')).toBeUndefined();
    expect(pronounReferringBack('Where to put it in the repo.')).toBe('Where to put it');
    expect(leansOnPrevious(testing[0] as string, testing[1] as string)).toContain('How to run them');
    const meaning = listMeaning({ numbered: false, introduction: '### 4. Testing Plan', items: testing });
    expect(meaning.links[0]).toBeDefined();
    expect(meaning.links[1]).toBeUndefined();
    // Every rule before the pronoun's keeps its place: the antecedent may be any of them.
    const later = listMeaning({
      numbered: false,
      introduction: '',
      items: ['Tests to write.', 'Sample fixtures or seed data.', 'How to run them in CI.', 'Lint commands.'],
    });
    expect([...pinnedItems(later)].sort()).toEqual([0, 1, 2]);
  });

  it('reads a list of quotations to say as a template (onboarding.md, "#### 1. Repo & Runtime Context")', () => {
    const questions = [
      '“Where will this live? Repo/name or link, language/runtime, and framework (if any)?”',
      '“How do you run and test locally? (package manager, build tool, dev server, docker compose?)”',
    ];
    expect(listMeaning({ numbered: false, introduction: '', items: questions }).template).toBe(
      'its items are quotations of what to say',
    );
    expect(
      listMeaning({ numbered: false, introduction: '', items: ['Never guess.', '“Quote” the price.'] })
        .template,
    ).toBeUndefined();
  });

  it('quotes a long lead-in from a word boundary', () => {
    const message = enumerationOf({
      introduction: 'Here are the instructions for pushing, but ONLY do this if the user asks you to:',
      items: ['a.', 'b.'],
    });
    expect(message).toBe(
      'the lead-in "…for pushing, but ONLY do this if the user asks you to:" introduces alternatives or conditions',
    );
    expect(lastWords('short', 60)).toBe('short');
  });

  it("the check rejects a restyled template and a rule moved away from its pronoun's antecedent", () => {
    const base = withBody(roasted);
    // The "[CRITICAL ISSUES]" lines numbered, as list-style 8 wrote them (audit 14, s1:ssh-key-setup/0).
    const restyled = checkContentPreservation(
      base,
      withBody(
        roasted
          .replace('- [src/core.py', '1. [src/core.py')
          .replace('- [src/handler.py', '2. [src/handler.py')
          .replace('- [src/api.py', '3. [src/api.py'),
      ),
      identityRelabel,
    );
    expect(restyled.issues.map((issue) => issue.code)).toContain('template_changed');
    // "How to run them" moved first, as reorder-rules 9 did (audit 14, s1:kind-cluster/6).
    const testing =
      '### 4. Testing Plan\n- Tests to write, where they live, and example test names.\n- How to run them locally and in CI (with exact commands).\n- Sample fixtures/mocks or seed data.';
    const moved =
      '### 4. Testing Plan\n- How to run them locally and in CI (with exact commands).\n- Sample fixtures/mocks or seed data.\n- Tests to write, where they live, and example test names.';
    const check = checkContentPreservation(withBody(testing), withBody(moved), identityRelabel);
    expect(check.issues.map((issue) => issue.code)).toEqual(['dependency_separated']);
  });
});
