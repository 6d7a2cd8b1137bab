import { describe, expect, it } from 'vitest';
import { effectivenessReward } from '../../../src/runtime/rewards/effectiveness.js';
import {
  call,
  calls,
  harness,
  load,
  price,
  priceLookup,
  priceTurn,
  reply,
  result,
  size,
  sizeResult,
  task,
  toolError,
  trajectory,
  user,
} from './build.js';

const sizeArgs = { link_id: 4, body: { height_cm: 175, weight_kg: 70 } };

describe('effectivenessReward', () => {
  it('scores 1 when the turn replies after every expected tool succeeded', () => {
    const outcome = effectivenessReward(priceTurn(), harness, task({ tools: [price] }));
    expect(outcome).toEqual({
      score: 1,
      details: {
        turns: [{ turn: 0, answer: 'full', ending: 'reply', succeeded: [price], missing: [] }],
        findings: [],
      },
    });
  });

  it('scores 0 when the reply came without the expected tool', () => {
    const outcome = effectivenessReward(
      trajectory(user('link 4 price?'), ...load('price_and_coupons', 'c1'), reply('It is cheap tonight!')),
      harness,
      task({ tools: [price] }),
    );
    expect(outcome.score).toBe(0);
    expect(outcome.details.findings).toEqual([
      {
        code: 'missing_tool_result',
        turn: 0,
        reason: 'no successful result in this turn from "get_price_and_coupons"',
        values: [price],
      },
    ]);
  });

  it('scores a multi-intent danmaku answered in part 0.5', () => {
    const outcome = effectivenessReward(
      trajectory(
        user('link 4 price? and which size for 175cm 70kg?'),
        ...load('price_and_coupons', 'c1'),
        ...priceLookup('c2'),
        reply('Link 4 is ¥69.'),
      ),
      harness,
      task({ intents: ['price', 'size'], tools: [price, size] }),
    );
    expect(outcome.score).toBe(0.5);
    expect(outcome.details.turns).toEqual([
      { turn: 0, answer: 'partial', ending: 'reply', succeeded: [price], missing: [size] },
    ]);
  });

  it('counts a tool that failed and then succeeded on retry as answered', () => {
    const outcome = effectivenessReward(
      trajectory(
        user('link 4 price?'),
        call(price, { link_id: 4 }, 'c1'),
        result('c1', toolError('timeout')),
        ...priceLookup('c2'),
        reply('¥69.'),
      ),
      harness,
      task({ tools: [price] }),
    );
    expect(outcome.score).toBe(1);
  });

  it('does not count a tool whose only results are errors or a hook rejection', () => {
    const outcome = effectivenessReward(
      trajectory(
        user('link 4 price? which size for 175cm 70kg?'),
        calls([
          [price, { link_id: 4 }, 'c1'],
          [size, sizeArgs, 'c2'],
        ]),
        result('c1', toolError('permission_denied')),
        result('c2', sizeResult),
        call(price, { link_id: 4, lang: 'en' }, 'c3', {
          event: 'hook_rejected',
          hook: 'tool_arguments_valid',
        }),
        result('c3', 'Tool call rejected', { event: 'hook_feedback', hook: 'tool_arguments_valid' }),
        reply('Size L.'),
      ),
      harness,
      task({ tools: [price, size] }),
    );
    expect(outcome.details.turns[0]).toMatchObject({
      answer: 'partial',
      succeeded: [size],
      missing: [price],
    });
  });

  it('scores a spam turn blocked by the expected input hook 1, and one the agent answered 0', () => {
    const spam = 'whatsapp me for wholesale';
    const blocked = trajectory(
      user(spam),
      reply('Hidden.', { event: 'hook_blocked', hook: 'input_spam_filter' }),
    );
    const answered = trajectory(user(spam), ...load('chit_chat', 'c1'), reply('Sure!'));
    const expected = task({ user: spam, blockedBy: 'input_spam_filter' });
    expect(effectivenessReward(blocked, harness, expected).details.turns).toEqual([
      {
        turn: 0,
        answer: 'full',
        ending: 'hook_blocked',
        succeeded: [],
        missing: [],
        blockedBy: 'input_spam_filter',
      },
    ]);
    const outcome = effectivenessReward(answered, harness, expected);
    expect(outcome.score).toBe(0);
    expect(outcome.details.findings).toEqual([
      {
        code: 'not_blocked',
        turn: 0,
        message: 1,
        reason:
          'input hook "input_spam_filter" should have blocked or answered this message with its fallback',
        values: ['input_spam_filter'],
      },
    ]);
  });

  it('does not answer a message blocked by another hook than the task names, nor one blocked unexpectedly', () => {
    const blocked = trajectory(
      user('long text'),
      reply('Too long!', { event: 'hook_fallback', hook: 'input_length_limit' }),
    );
    expect(
      effectivenessReward(blocked, harness, task({ blockedBy: 'input_spam_filter' })).details.findings,
    ).toMatchObject([
      {
        code: 'not_blocked',
        reason: 'the message was stopped by "input_length_limit", not by input hook "input_spam_filter"',
      },
    ]);
    const outcome = effectivenessReward(blocked, harness, task({}));
    expect(outcome.score).toBe(0);
    expect(outcome.details.findings).toMatchObject([{ code: 'no_reply', message: 2 }]);
  });

  it('scores a fallback after some expected tools succeeded as partial, and one before any as not answered', () => {
    const fallback = reply('Let me check with the team!', {
      event: 'hook_fallback',
      hook: 'tool_call_budget',
    });
    const after = trajectory(user('link 4 price?'), ...priceLookup('c1'), fallback);
    const before = trajectory(user('link 4 price?'), fallback);
    expect(effectivenessReward(after, harness, task({ tools: [price] })).details.turns[0]?.answer).toBe(
      'partial',
    );
    expect(effectivenessReward(after, harness, task({ tools: [price] })).score).toBe(0.5);
    expect(effectivenessReward(before, harness, task({ tools: [price] })).score).toBe(0);
  });

  it('combines turns: 0.5 when some but not all are answered; a missing turn is not answered', () => {
    const oneTurn = trajectory(user('hi'), ...load('chit_chat', 'c1'), reply('Welcome!'));
    const outcome = effectivenessReward(
      oneTurn,
      harness,
      task({ user: 'hi' }, { user: 'link 4 price?', tools: [price] }),
    );
    expect(outcome.score).toBe(0.5);
    expect(outcome.details.turns.map((turn) => [turn.answer, turn.ending])).toEqual([
      ['full', 'reply'],
      ['none', 'missing'],
    ]);
    expect(outcome.details.findings).toEqual([
      { code: 'missing_turn', turn: 1, reason: 'the trajectory has no user turn here' },
    ]);
  });

  it('does not answer a turn that ends without any reply', () => {
    const outcome = effectivenessReward(
      trajectory(user('link 4 price?'), ...priceLookup('c1')),
      harness,
      task({ tools: [price] }),
    );
    expect(outcome.score).toBe(0);
    expect(outcome.details.findings).toEqual([
      { code: 'no_reply', turn: 0, reason: 'the turn ended without a reply' },
    ]);
  });
});
