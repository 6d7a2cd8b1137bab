// variantHolds checks only the parts a variant changed; it must give the whole parse's verdict on every
// variant of a sound harness, and the operators that use it must not parse whole harnesses per candidate.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewordFeedback } from '../../perturbations/hooks/reword-feedback.js';
import { promptOperators } from '../../perturbations/prompt/index.js';
import { applyOperator } from '../../src/augment/operator.js';
import { checkHarness, templateVariableReads } from '../../src/harness/check-harness.js';
import { createHookCheckRegistry, defineHookCheck } from '../../src/harness/hook-checks.js';
import { harnessParses, safeParseHarness, variantHolds } from '../../src/harness/parse-harness.js';
import type { Harness, HarnessPartName, Hook } from '../../src/harness/schema.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

type Change = { part: HarnessPartName; name: string; make: (base: Harness) => Harness };

const withFeedback = (base: Harness, feedback: string): Harness => ({
  ...base,
  hooks: {
    ...base.hooks,
    items: base.hooks.items.map((hook) =>
      hook.id === 'short_reply' && hook.onFail.action === 'retry'
        ? { ...hook, onFail: { ...hook.onFail, feedback } }
        : hook,
    ),
  },
});
const withSection = (base: Harness, index: number, section: unknown): Harness => ({
  ...base,
  prompt: {
    ...base.prompt,
    sections: base.prompt.sections.map((old, at) => (at === index ? section : old)) as never,
  },
});
const withParameter = (base: Harness, schema: unknown): Harness => ({
  ...base,
  tools: {
    ...base.tools,
    items: base.tools.items.map((tool, index) =>
      index === 0 ? { ...tool, parameters: { type: 'object', properties: { p: schema } } } : tool,
    ),
  },
});
const nested = (depth: number): unknown => (depth === 0 ? 'x' : { a: nested(depth - 1) });

/** What the whole parse guards a changed part against, each as one change (and some sound changes). */
const changes: Change[] = [
  // Feedback templates of a retry hook, as reword-feedback rewrites them.
  {
    part: 'hooks',
    name: 'sound feedback',
    make: (b) => withFeedback(b, '[hook {{hook}}] Shorter: {{max}}.'),
  },
  { part: 'hooks', name: 'unclosed block', make: (b) => withFeedback(b, 'Shorter {{#if max}}now.') },
  { part: 'hooks', name: 'unclosed mustache', make: (b) => withFeedback(b, 'Shorter {{max') },
  { part: 'hooks', name: 'unknown variable', make: (b) => withFeedback(b, 'Remove {{found}}.') },
  { part: 'hooks', name: 'empty feedback', make: (b) => withFeedback(b, '') },
  { part: 'hooks', name: 'feedback not a string', make: (b) => withFeedback(b, 7 as never) },
  {
    part: 'hooks',
    name: 'duplicate hook id',
    make: (b) => ({ ...b, hooks: { ...b.hooks, items: [...b.hooks.items, b.hooks.items[0] as Hook] } }),
  },
  {
    part: 'hooks',
    name: 'hook names an unknown tool',
    make: (b) => ({
      ...b,
      hooks: {
        ...b.hooks,
        items: b.hooks.items.map((hook) => (hook.stage === 'pre_tool' ? { ...hook, tools: ['nope'] } : hook)),
      },
    }),
  },
  // Prompt sections, as the prompt operators rewrite them.
  {
    part: 'prompt',
    name: 'sound section',
    make: (b) => withSection(b, 0, { ...b.prompt.sections[0], template: 'Hi {{harness.id}}.' }),
  },
  {
    part: 'prompt',
    name: 'section template does not compile',
    make: (b) => withSection(b, 0, { ...b.prompt.sections[0], template: '{{#each skills}}x' }),
  },
  {
    part: 'prompt',
    name: 'duplicate section id',
    make: (b) => withSection(b, 1, { ...b.prompt.sections[1], id: b.prompt.sections[0]?.id }),
  },
  {
    part: 'prompt',
    name: 'bad section id',
    make: (b) => withSection(b, 1, { ...b.prompt.sections[1], id: '1 two' }),
  },
  { part: 'prompt', name: 'unknown key', make: (b) => withSection(b, 1, { ...b.prompt.sections[1], x: 1 }) },
  {
    part: 'prompt',
    name: 'forbidden key',
    make: (b) =>
      withSection(b, 1, JSON.parse(`{"__proto__":{},${JSON.stringify(b.prompt.sections[1]).slice(1)}`)),
  },
  {
    part: 'prompt',
    name: 'no section',
    make: (b) => ({ ...b, prompt: { ...b.prompt, sections: [] } }),
  },
  // Tools: their rules, and the hooks' rules that name them.
  {
    part: 'tools',
    name: 'renamed tool a hook names',
    make: (b) => {
      const scoped = {
        ...b,
        hooks: {
          ...b.hooks,
          items: b.hooks.items.map((hook) =>
            hook.stage === 'pre_tool' ? { ...hook, tools: ['hold_seat'] } : hook,
          ),
        },
      };
      return {
        ...scoped,
        tools: {
          ...b.tools,
          items: b.tools.items.map((tool) => (tool.name === 'hold_seat' ? { ...tool, name: 'hold' } : tool)),
        },
      };
    },
  },
  // Objects of `nested(n)` sit at depths 6 to n + 5 from the harness's root; 256 is too deep.
  { part: 'tools', name: 'too deep', make: (b) => withParameter(b, nested(251)) },
  { part: 'tools', name: 'just deep enough', make: (b) => withParameter(b, nested(250)) },
  {
    part: 'tools',
    name: 'parameters do not compile',
    make: (b) => ({
      ...b,
      tools: {
        ...b.tools,
        items: b.tools.items.map((tool, index) =>
          index === 0 ? { ...tool, parameters: { type: 'object', properties: 3 } } : tool,
        ),
      },
    }),
  },
];

describe('variantHolds', () => {
  it('gives the whole parse’s verdict on every change, and rejects each thing the parse guards against', () => {
    const base = travelHarness();
    const rejected: string[] = [];
    for (const change of changes) {
      const variant = change.make(base);
      // The 'renamed tool' change also changes the hooks; it names both parts.
      const parts: HarnessPartName[] =
        change.name === 'renamed tool a hook names' ? ['tools', 'hooks'] : [change.part];
      const whole = safeParseHarness(variant).success;
      expect(variantHolds(base, variant, parts), change.name).toBe(whole);
      if (!whole) rejected.push(change.name);
    }
    expect(rejected).toEqual(
      changes
        .map((change) => change.name)
        .filter((name) => !['sound feedback', 'sound section', 'just deep enough'].includes(name)),
    );
  });

  it('agrees with the whole parse on random feedback and section templates', () => {
    const base = travelHarness();
    const piece = fc.constantFrom(
      'Shorter. ',
      '{{max}}',
      '{{length}}',
      '{{hook}}',
      '{{found}}',
      '{{#if max}}',
      '{{/if}}',
      '{{else}}',
      '{{',
      '}}',
      '{{harness.id}}',
      '{{#each skills}}',
      '{{/each}}',
      '\\{{max}}',
      '{{!-- note --}}',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), fc.boolean(), (pieces, inPrompt) => {
        const text = pieces.join('');
        const variant = inPrompt
          ? withSection(base, 2, { ...base.prompt.sections[2], template: text })
          : withFeedback(base, text);
        const part = inPrompt ? 'prompt' : 'hooks';
        expect(variantHolds(base, variant, [part])).toBe(safeParseHarness(variant).success);
      }),
      { numRuns: 300, seed: 20 },
    );
  });

  it('checks a custom check’s feedback against the registry it is given', () => {
    const registry = createHookCheckRegistry([
      defineHookCheck({
        name: 'polite',
        stages: ['pre_reply'],
        variables: ['word'],
        run: () => undefined,
      }),
    ]);
    const input = {
      ...travelHarness(),
      hooks: {
        version: '1',
        items: [
          {
            id: 'polite',
            stage: 'pre_reply' as const,
            enabled: true,
            check: { type: 'custom' as const, name: 'polite', params: {} },
            onFail: {
              action: 'retry' as const,
              maxRetries: 1,
              feedback: 'Say {{word}}.',
              exhausted: 'block' as const,
            },
          },
        ],
      },
    };
    const parsed = safeParseHarness(input, { hookChecks: registry });
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    const base = parsed.data;
    for (const feedback of ['Say {{word}} ({{hook}}).', 'Say {{other}}.']) {
      const variant = {
        ...base,
        hooks: {
          ...base.hooks,
          items: base.hooks.items.map((hook) =>
            hook.onFail.action === 'retry' ? { ...hook, onFail: { ...hook.onFail, feedback } } : hook,
          ),
        },
      };
      expect(variantHolds(base, variant, ['hooks'], { hookChecks: registry })).toBe(
        safeParseHarness(variant, { hookChecks: registry }).success,
      );
    }
  });

  it('parses the whole variant when a part outside the changed ones is not the base’s own', () => {
    const base = travelHarness();
    const copied = { ...withFeedback(base, 'Shorter.'), tools: structuredClone(base.tools) };
    const before = harnessParses();
    expect(variantHolds(base, copied, ['hooks'])).toBe(true);
    expect(harnessParses() - before).toBe(1);
    const same = withFeedback(base, 'Shorter.');
    const after = harnessParses();
    expect(variantHolds(base, same, ['hooks'])).toBe(true);
    expect(harnessParses() - after).toBe(0);
  });
});

describe('operators that check their variant', () => {
  it('hooks/reword-feedback parses no whole harness per candidate', async () => {
    const base = travelHarness();
    const trajectory = baggageTrajectory(base);
    const before = harnessParses();
    let applied = 0;
    for (let seed = 0; seed < 20; seed++) {
      const result = await applyOperator(rewordFeedback, base, {
        rng: `count/${seed}`,
        severity: 1,
        trajectory,
      });
      if (!('skip' in result)) applied++;
    }
    expect(applied).toBeGreaterThan(5);
    expect(harnessParses() - before).toBe(0);
  });

  it('the prompt operators parse no whole harness per candidate', async () => {
    const base = travelHarness();
    const trajectory = baggageTrajectory(base);
    const before = harnessParses();
    let applied = 0;
    for (const operator of promptOperators)
      for (let seed = 0; seed < 5; seed++) {
        const result = await applyOperator(operator, base, { rng: `count/${seed}`, severity: 1, trajectory });
        if (!('skip' in result)) applied++;
      }
    expect(applied).toBeGreaterThan(promptOperators.length);
    expect(harnessParses() - before).toBe(0);
  });
});

describe('checkHarness', () => {
  it('parses each feedback template once for the names it reads, for any number of variants', () => {
    // A template no other test file checks: the names a template reads are cached by its text.
    const fileTag = import.meta.url.split('/').at(-1);
    const base = withFeedback(travelHarness(), `Shorter than {{max}}, once only ({{length}}, ${fileTag}).`);
    const retrying = new Set(
      base.hooks.items.flatMap((hook) => (hook.onFail.action === 'retry' ? [hook.onFail.feedback] : [])),
    );
    const before = templateVariableReads();
    for (let copy = 0; copy < 8; copy++) expect(checkHarness(structuredClone(base))).toEqual([]);
    // At most each distinct template once (fewer when another test of this file already read one).
    expect(templateVariableReads() - before).toBeLessThanOrEqual(retrying.size);
    expect(templateVariableReads() - before).toBeGreaterThanOrEqual(1);
  });
});
