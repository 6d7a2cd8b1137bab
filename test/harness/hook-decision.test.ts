// The one hook decision: which hooks run at a stage and in which order, and what the first failure leads to
// within its retry budget.
import { describe, expect, it } from 'vitest';
import { decideHooks, decideReplyHooks, rejectedCallContent } from '../../src/harness/hook-decision.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { scopedHarness, scopedHookChecks } from '../support/scoped-hook-harness.js';
import { travelHarness, travelHarnessInput } from '../support/travel-harness.js';

const travel = travelHarness();
const loaded = { turn: ['baggage'], conversation: ['baggage'] };

describe('decideHooks', () => {
  it('runs the enabled hooks of the stage in harness order and stops at the first failure', () => {
    const passing = decideReplyHooks(travel, { text: 'Fine.', loadedSkills: loaded, toolResults: [] });
    expect(passing.map((decision) => [decision.stage, decision.evaluated])).toEqual([
      ['pre_reply', ['reply_skill', 'short_reply', 'no_guarantees']],
      ['post_reply', ['grounded_numbers']],
    ]);
    const failing = decideReplyHooks(travel, { text: 'A guaranteed seat.', loadedSkills: loaded });
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatchObject({
      evaluated: ['reply_skill', 'short_reply', 'no_guarantees'],
      failure: { hook: 'no_guarantees' },
      consequence: { action: 'retry', feedback: 'Remove: guaranteed' },
      failures: 1,
    });
  });

  it('counts failures against the budget: retry while it lasts, then what `exhausted` says', () => {
    const step = { stage: 'pre_reply' as const, text: 'A guaranteed seat.', loadedSkills: loaded };
    const second = decideHooks(travel, step, { failures: new Map([['no_guarantees', 1]]) });
    expect(second).toMatchObject({
      failures: 2,
      consequence: {
        action: 'end',
        exhausted: true,
        end: { event: 'hook_fallback', content: 'A colleague will confirm the details.' },
      },
    });
    const long = { stage: 'pre_reply' as const, text: 'x'.repeat(81), loadedSkills: loaded };
    expect(decideHooks(travel, long, { failures: new Map([['short_reply', 1]]) })).toMatchObject({
      consequence: { action: 'retry', feedback: 'Too long (81/80). Attempt 2 of 2.' },
    });
    expect(decideHooks(travel, long, { failures: new Map([['short_reply', 2]]) })).toMatchObject({
      consequence: { action: 'end', exhausted: true, end: { event: 'hook_blocked', content: '' } },
    });
  });

  it('ends the turn at once for block and fallback hooks, and lets a retrying input hook pass through', () => {
    expect(decideHooks(travel, { stage: 'input', text: 'damn it' })).toMatchObject({
      consequence: {
        action: 'end',
        exhausted: false,
        end: { event: 'hook_fallback', content: 'Let us keep it friendly. How can I help with your trip?' },
      },
    });
    const input = travelHarnessInput();
    input.hooks.items[0] = {
      id: 'no_profanity',
      stage: 'input',
      check: { type: 'banned_terms', terms: ['damn'] },
      onFail: { action: 'block', message: 'Hidden.' },
    };
    expect(decideHooks(parseHarness(input), { stage: 'input', text: 'damn' }).consequence).toEqual({
      action: 'end',
      exhausted: false,
      end: { event: 'hook_blocked', content: 'Hidden.' },
    });
  });

  it('leaves out a skipped hook, and scoped hooks for calls to other tools', () => {
    const step = { stage: 'pre_reply' as const, text: 'A guaranteed seat.', loadedSkills: loaded };
    expect(decideHooks(travel, step, { skip: 'no_guarantees' }).failure).toBeUndefined();
    const scoped = scopedHarness();
    const other = {
      stage: 'pre_tool' as const,
      call: { name: 'list_devices', arguments: '{"email":"a@b.c"}' },
    };
    expect(decideHooks(scoped, other, { hookChecks: scopedHookChecks }).evaluated).toEqual([
      'protected_accounts',
    ]);
    const reset = {
      stage: 'pre_tool' as const,
      call: { name: 'reset_password', arguments: '{"email":"a@b.c"}' },
    };
    const decision = decideHooks(scoped, reset, { hookChecks: scopedHookChecks });
    expect(decision.evaluated).toEqual(['verify_before_reset']);
    expect(rejectedCallContent(decision)).toBe(
      'Load identity_verification before verify_before_reset lets reset_password run.',
    );
  });

  it('says which hook blocked a call and why when no retry is left', () => {
    const scoped = scopedHarness();
    const step = {
      stage: 'pre_tool' as const,
      call: { name: 'reset_password', arguments: '{"email":"ceo@example.com"}' },
      loadedSkills: { turn: [], conversation: ['identity_verification'] },
    };
    const decision = decideHooks(scoped, step, { hookChecks: scopedHookChecks });
    expect(rejectedCallContent(decision)).toBe(
      'blocked by hook "protected_accounts": email "ceo@example.com" is protected',
    );
  });
});
