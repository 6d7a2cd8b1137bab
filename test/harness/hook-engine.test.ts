import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateHook, extractNumbers, hookTextCheckRuns, runHooks } from '../../src/harness/hook-engine.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { HookCheck, HookStage } from '../../src/harness/schema.js';
import { travelHarness, travelHarnessInput } from '../support/travel-harness.js';

const harness = travelHarness();
const hook = (id: string) => harness.hooks.items.find((candidate) => candidate.id === id)!;

/** A harness with one retry hook of the given check, to test checks one at a time. */
function single(stage: HookStage, check: HookCheck | Record<string, unknown>, feedback = '{{reason}}') {
  const input = travelHarnessInput();
  // Input hooks cannot retry (the user message cannot be redone), so they block.
  const onFail =
    stage === 'input' ? { action: 'block' as const } : { action: 'retry' as const, maxRetries: 1, feedback };
  input.hooks.items = [{ id: 'h', stage, check: check as HookCheck, onFail }];
  const parsed = parseHarness(input);
  return { harness: parsed, hook: parsed.hooks.items[0]! };
}

describe('extractNumbers', () => {
  it('normalises thousands separators and trailing zeros', () => {
    expect(extractNumbers('¥1,299.00 or 2 for ¥2400, 8.5折, 20:00')).toEqual([
      '1299',
      '2',
      '2400',
      '8.5',
      '20',
      '0',
    ]);
  });
});

describe('evaluateHook', () => {
  it('banned_terms: case-insensitive by default, reports terms in the hook spelling', () => {
    const outcome = evaluateHook(
      hook('no_guarantees'),
      { stage: 'pre_reply', text: 'A GUARANTEED seat, 100% sure' },
      harness,
    );
    expect(outcome).toMatchObject({
      pass: false,
      details: { found: ['guaranteed', '100%'] },
      feedback: 'Remove: guaranteed, 100%',
    });
    const sensitive = single('pre_reply', { type: 'banned_terms', terms: ['Best'], caseSensitive: true });
    expect(
      evaluateHook(sensitive.hook, { stage: 'pre_reply', text: 'the best' }, sensitive.harness).pass,
    ).toBe(true);
    expect(
      evaluateHook(sensitive.hook, { stage: 'pre_reply', text: 'the Best' }, sensitive.harness).pass,
    ).toBe(false);
  });

  it('max_length counts code points, so Chinese and emoji count one each', () => {
    const { harness: h, hook: k } = single('pre_reply', { type: 'max_length', max: 3 }, '{{length}}/{{max}}');
    expect(evaluateHook(k, { stage: 'pre_reply', text: '好的😀' }, h).pass).toBe(true);
    expect(evaluateHook(k, { stage: 'pre_reply', text: '好的😀!' }, h)).toMatchObject({
      pass: false,
      feedback: '4/3',
    });
  });

  it('max_length reports the code points iterating the text counts, lone surrogates one each (property)', () => {
    const { harness: h, hook: k } = single('pre_reply', { type: 'max_length', max: 1 }, '{{length}}');
    // Any UTF-16 units, lone surrogates and pairs included.
    const units = fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    });
    fc.assert(
      fc.property(fc.oneof(units, fc.string({ unit: 'grapheme' })), (text) => {
        const outcome = evaluateHook(k, { stage: 'pre_reply', text }, h);
        const length = [...text].length;
        if (length <= 1) expect(outcome.pass).toBe(true);
        else expect(outcome).toMatchObject({ pass: false, feedback: String(length) });
      }),
    );
  });

  it('banned_terms finds each term once per check, in either case, on every call', () => {
    const { harness: h, hook: k } = single(
      'pre_reply',
      { type: 'banned_terms', terms: ['Best', 'CHEAP'] },
      '{{json found}}',
    );
    expect(evaluateHook(k, { stage: 'pre_reply', text: 'the best and cheap' }, h)).toMatchObject({
      pass: false,
      feedback: '["Best","CHEAP"]',
    });
    expect(evaluateHook(k, { stage: 'pre_reply', text: 'only CHEAP' }, h)).toMatchObject({
      feedback: '["CHEAP"]',
    });
    expect(evaluateHook(k, { stage: 'pre_reply', text: 'fine' }, h).pass).toBe(true);
  });

  it('regex must and must_not', () => {
    const must = single('pre_reply', { type: 'regex', pattern: '^[A-Z]', mode: 'must' });
    expect(evaluateHook(must.hook, { stage: 'pre_reply', text: 'Yes' }, must.harness).pass).toBe(true);
    expect(evaluateHook(must.hook, { stage: 'pre_reply', text: 'yes' }, must.harness).pass).toBe(false);
    const mustNot = single(
      'input',
      { type: 'regex', pattern: 'https?://', flags: 'i', mode: 'must_not' },
      '{{match}}',
    );
    const outcome = evaluateHook(mustNot.hook, { stage: 'input', text: 'see HTTP://spam' }, mustNot.harness);
    expect(outcome).toMatchObject({ pass: false, details: { match: 'HTTP://' } });
  });

  it('skill_loaded looks at the kind and the scope', () => {
    const step = (turn: string[], conversation: string[]) => ({
      stage: 'pre_reply' as const,
      text: 'ok',
      loadedSkills: { turn, conversation },
    });
    expect(evaluateHook(hook('reply_skill'), step(['baggage'], ['baggage']), harness).pass).toBe(true);
    expect(
      evaluateHook(hook('reply_skill'), step(['apology_first'], ['baggage', 'apology_first']), harness),
    ).toMatchObject({
      pass: false,
      feedback: 'Load a reply skill with load_skill before replying.',
    });
    const conversation = single('pre_reply', { type: 'skill_loaded', kind: 'reply', scope: 'conversation' });
    expect(evaluateHook(conversation.hook, step([], ['baggage']), conversation.harness).pass).toBe(true);
  });

  it('tool_arguments: unknown tool, bad JSON, schema errors', () => {
    const at = (name: string, args: string) =>
      evaluateHook(hook('valid_arguments'), { stage: 'pre_tool', call: { name, arguments: args } }, harness);
    expect(at('find_flights', '{"origin":"LIS","destination":"OPO","date":"2026-12-01"}').pass).toBe(true);
    expect(at('fly', '{}')).toMatchObject({ pass: false, details: { errors: ['unknown tool'] } });
    expect(at('find_flights', '{origin:')).toMatchObject({ pass: false, details: { errors: ['not JSON'] } });
    expect(at('find_flights', '{"origin":"lisbon","destination":"OPO","date":"x"}')).toMatchObject({
      pass: false,
      feedback: 'Call find_flights again: /origin must match pattern "^[A-Z]{3}$"',
    });
    expect(at('load_skill', '{"skill_id":"baggage"}').pass).toBe(true);
  });

  it('max_tool_calls counts the calls of the turn', () => {
    expect(evaluateHook(hook('tool_budget'), { stage: 'pre_tool', toolCallsThisTurn: 5 }, harness).pass).toBe(
      true,
    );
    expect(
      evaluateHook(hook('tool_budget'), { stage: 'pre_tool', toolCallsThisTurn: 6 }, harness),
    ).toMatchObject({
      pass: false,
      details: { count: 6, max: 5 },
    });
  });

  it('numbers_grounded: every number must come from a source or the ignore list', () => {
    const step = (text: string) => ({
      stage: 'post_reply' as const,
      text,
      toolResults: ['{"fare":1299.00,"seats":4}'],
      userMessages: ['2 adults please'],
    });
    expect(
      evaluateHook(hook('grounded_numbers'), step('¥1,299 for 2, 4 seats left, 1 bag'), harness).pass,
    ).toBe(true);
    expect(evaluateHook(hook('grounded_numbers'), step('¥1,199 for 2 and 3 bags'), harness)).toMatchObject({
      pass: false,
      feedback: 'These numbers are not in any tool result: 1199, 3',
    });
    const withContext = single('pre_reply', { type: 'numbers_grounded', sources: ['context'] });
    expect(
      evaluateHook(
        withContext.hook,
        { stage: 'pre_reply', text: 'Gate 12', context: { gate: 12 } },
        withContext.harness,
      ).pass,
    ).toBe(true);
  });

  it('json_shape parses the reply and validates it', () => {
    const { harness: h, hook: k } = single('pre_reply', {
      type: 'json_shape',
      schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    });
    expect(evaluateHook(k, { stage: 'pre_reply', text: '{"answer":"yes"}' }, h).pass).toBe(true);
    expect(evaluateHook(k, { stage: 'pre_reply', text: 'yes' }, h)).toMatchObject({
      pass: false,
      details: { errors: ['not JSON'] },
    });
    expect(evaluateHook(k, { stage: 'pre_reply', text: '{"answer":1}' }, h)).toMatchObject({
      pass: false,
      details: { errors: ['/answer must be string'] },
    });
  });

  it('renders attempt and budget into the feedback', () => {
    const outcome = evaluateHook(
      hook('short_reply'),
      { stage: 'pre_reply', text: 'x'.repeat(81), attempt: 2 },
      harness,
    );
    expect(outcome).toMatchObject({ feedback: 'Too long (81/80). Attempt 2 of 2.' });
  });

  it('gives no feedback for hooks that do not retry', () => {
    const outcome = evaluateHook(hook('no_profanity'), { stage: 'input', text: 'damn' }, harness);
    expect(outcome.pass).toBe(false);
    expect(outcome).not.toHaveProperty('feedback');
  });
});

describe('runHooks', () => {
  it('returns the first failing enabled hook of the stage, in harness order', () => {
    const text = `${'guaranteed '.repeat(10)}`;
    expect(
      runHooks(harness, { stage: 'pre_reply', text, loadedSkills: { turn: ['baggage'], conversation: [] } })
        ?.hook,
    ).toBe('short_reply');
    const input = travelHarnessInput();
    input.hooks.items.find((candidate) => candidate.id === 'short_reply')!.enabled = false;
    const disabled = parseHarness(input);
    expect(
      runHooks(disabled, { stage: 'pre_reply', text, loadedSkills: { turn: ['baggage'], conversation: [] } })
        ?.hook,
    ).toBe('no_guarantees');
    expect(
      runHooks(harness, {
        stage: 'pre_reply',
        text: 'ok',
        loadedSkills: { turn: ['baggage'], conversation: [] },
      }),
    ).toBeUndefined();
  });
});

describe('text checks', () => {
  const checks: HookCheck[] = [
    { type: 'banned_terms', terms: ['best', '最'], caseSensitive: false },
    { type: 'regex', pattern: '\\d{3,}', mode: 'must_not' },
    { type: 'json_shape', schema: { type: 'object', required: ['ok'] } },
  ] as HookCheck[];
  const texts = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom('the BEST deal', '最好', '12345', '{"ok":true}', '{"no":1}', 'not json'),
  );

  it('decide on a text as a fresh check with the same content does, however often asked', () => {
    fc.assert(
      fc.property(fc.constantFrom(...checks), texts, (check, text) => {
        const first = single('pre_reply', structuredClone(check));
        const second = single('pre_reply', structuredClone(check));
        const step = { stage: 'pre_reply' as const, text };
        const outcome = evaluateHook(first.hook, step, first.harness);
        expect(evaluateHook(second.hook, step, second.harness)).toEqual(outcome);
        expect(evaluateHook(first.hook, { ...step }, first.harness)).toEqual(outcome);
      }),
    );
  });

  it('run once per check content and text: the same check in a variant reads the verdict', () => {
    const text = `a text no other test checks ${Math.PI}, the best`;
    const first = single('pre_reply', { type: 'banned_terms', terms: ['best'] });
    const copy = single('pre_reply', { type: 'banned_terms', terms: ['best'] });
    const before = hookTextCheckRuns();
    const outcome = evaluateHook(first.hook, { stage: 'pre_reply', text }, first.harness);
    expect(outcome).toMatchObject({ pass: false, details: { found: ['best'] } });
    expect(evaluateHook(copy.hook, { stage: 'pre_reply', text }, copy.harness)).toEqual(outcome);
    expect(hookTextCheckRuns() - before).toBe(1);
    // Another text, or a check with other content, is run.
    evaluateHook(first.hook, { stage: 'pre_reply', text: `${text}!` }, first.harness);
    const other = single('pre_reply', { type: 'banned_terms', terms: ['best', 'cheapest'] });
    evaluateHook(other.hook, { stage: 'pre_reply', text }, other.harness);
    expect(hookTextCheckRuns() - before).toBe(3);
  });
});
