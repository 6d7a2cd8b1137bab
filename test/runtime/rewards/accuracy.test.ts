import { describe, expect, it } from 'vitest';
import { accuracyReward } from '../../../src/runtime/rewards/accuracy.js';
import {
  call,
  feedback,
  harness,
  load,
  priceLookup,
  priceTurn,
  reply,
  result,
  toolError,
  trajectory,
  user,
} from './build.js';

/** A price turn whose user asks for 2 (so a "2" in the reply is grounded) and whose final reply is `text`. */
const quote = (text: string) => priceTurn(text, 'link 4 price? I want 2');

/** A finding in the final reply of `quote`, its reason naming the hook that found it. */
const replyFinding = (code: string, values: string[], hook: string) => ({
  code,
  turn: 0,
  message: 6,
  reason: expect.stringContaining(`(hook "${hook}")`),
  values,
});

describe('accuracyReward', () => {
  it('scores 1 when every number comes from a tool result, the user or the ignore list', () => {
    const outcome = accuracyReward(
      quote('Link 4 is ¥69 live, ¥60 under the ¥129 list price; 2 pieces? 1 tap.'),
      harness,
    );
    expect(outcome).toEqual({
      score: 1,
      details: { replies: [{ turn: 0, message: 6, accurate: true }], findings: [] },
    });
  });

  it.each([
    [
      'names an ungrounded number with its turn and message',
      'Link 4 is ¥69, sold 5000 tonight!',
      [
        {
          code: 'ungrounded_number',
          turn: 0,
          message: 6,
          reason: 'reply states number(s) not found in the sources: 5000 (hook "numbers_grounded")',
          values: ['5000'],
        },
      ],
    ],
    [
      'finds a banned term in English, whatever its case',
      'BEST deal: link 4 is ¥69.',
      [replyFinding('banned_term', ['best'], 'no_absolute_claims')],
    ],
    [
      'finds banned terms in Chinese, efficacy claims included',
      '全网最低！¥69，还能祛痘',
      [
        replyFinding('banned_term', ['全网最低'], 'no_absolute_claims'),
        replyFinding('banned_term', ['祛痘'], 'no_efficacy_claims'),
      ],
    ],
    [
      'finds a delivery promise in English',
      '¥69, and it is guaranteed to arrive by Friday.',
      [replyFinding('forbidden_pattern', ['guaranteed to arrive by Friday'], 'no_delivery_promise')],
    ],
    [
      'finds a delivery promise in Chinese',
      '¥69，保证明天到',
      [replyFinding('forbidden_pattern', ['保证明天'], 'no_delivery_promise')],
    ],
  ])('%s', (_title, text, findings) => {
    const outcome = accuracyReward(quote(text), harness);
    expect(outcome.score).toBe(0);
    expect(outcome.details.findings).toEqual(findings);
  });

  it('grounds numbers only in successful tool results and user messages, never in errors or hook feedback', () => {
    const outcome = accuracyReward(
      trajectory(
        user('link 4 price?'),
        ...load('price_and_coupons', 'c1'),
        call('get_price_and_coupons', { link_id: 4 }, 'c2'),
        result('c2', { error: { type: 'timeout', message: 'no answer within 10000 ms' } }),
        reply('It is ¥79!', { event: 'hook_rejected', hook: 'numbers_grounded' }),
        feedback('numbers_grounded', 'These numbers are not backed: 79.'),
        reply('Still ¥79, and 10000 happy buyers.'),
      ),
      harness,
    );
    expect(outcome.score).toBe(0);
    expect(outcome.details.findings.map((finding) => finding.values)).toEqual([['79', '10000']]);
  });

  it('grounds a reply only in what came before it', () => {
    const outcome = accuracyReward(
      trajectory(
        user('hi'),
        ...load('chit_chat', 'c1'),
        reply('Welcome! Link 4 is ¥69 tonight.'),
        user('link 4 price?'),
        ...load('price_and_coupons', 'c2'),
        ...priceLookup('c3'),
        reply('Link 4 is ¥69 live.'),
      ),
      harness,
    );
    expect(outcome.score).toBe(0.5);
    expect(outcome.details.replies.map((entry) => [entry.turn, entry.accurate])).toEqual([
      [0, false],
      [1, true],
    ]);
  });

  it('counts a fallback reply, which is accurate, and never the rejected attempts before it', () => {
    const outcome = accuracyReward(
      trajectory(
        user('the cold brew oolong price?'),
        ...load('price_and_coupons', 'c1'),
        reply("It's ¥79 tonight!", { event: 'hook_rejected', hook: 'numbers_grounded' }),
        feedback('numbers_grounded'),
        reply("It's about ¥71!", { event: 'hook_rejected', hook: 'numbers_grounded' }),
        reply(
          'Let me double-check the exact numbers before I quote them — back in a moment! 我核对一下再回复您～',
          {
            event: 'hook_fallback',
            hook: 'numbers_grounded',
          },
        ),
      ),
      harness,
    );
    expect(outcome).toEqual({
      score: 1,
      details: { replies: [{ turn: 0, message: 7, event: 'hook_fallback', accurate: true }], findings: [] },
    });
  });

  it('holds a fallback reply to the same rules', () => {
    const outcome = accuracyReward(
      trajectory(
        user('price?'),
        reply('Best price, back in 5 minutes!', { event: 'hook_fallback', hook: 'tool_call_budget' }),
      ),
      harness,
    );
    expect(outcome.score).toBe(0);
    expect(outcome.details.findings.map((finding) => finding.code)).toEqual([
      'ungrounded_number',
      'banned_term',
    ]);
  });

  it('counts the block message of a blocked spam turn as a reply the user saw', () => {
    const outcome = accuracyReward(
      trajectory(
        user('whatsapp me for wholesale +86 138 0000 0000'),
        reply('Links and contact handles are hidden in this room!', {
          event: 'hook_blocked',
          hook: 'input_spam_filter',
        }),
      ),
      harness,
    );
    expect(outcome.details.replies).toEqual([{ turn: 0, message: 2, event: 'hook_blocked', accurate: true }]);
    expect(outcome.score).toBe(1);
  });

  it('skips turns without a reply and scores an episode without replies 1', () => {
    const noReply = trajectory(
      user('link 4 price?'),
      call('get_price_and_coupons', { link_id: 4 }, 'c1'),
      result('c1', toolError()),
      reply('', { event: 'hook_blocked', hook: 'tool_call_budget' }),
    );
    expect(accuracyReward(noReply, harness)).toEqual({ score: 1, details: { replies: [], findings: [] } });
  });

  it('uses the default numbers check (nothing ignored) when the harness has no numbers_grounded hook', () => {
    const bare = structuredClone(harness);
    bare.hooks.items = bare.hooks.items.filter((hook) => hook.check.type !== 'numbers_grounded');
    const text = 'Link 4 is ¥69, 1 tap to buy.';
    expect(accuracyReward(quote(text), harness).score).toBe(1);
    const outcome = accuracyReward(quote(text), bare);
    expect(outcome.score).toBe(0);
    expect(outcome.details.findings).toMatchObject([
      {
        code: 'ungrounded_number',
        values: ['1'],
        reason: expect.stringContaining('default_numbers_grounded'),
      },
    ]);
  });

  it('ignores disabled hooks', () => {
    const relaxed = structuredClone(harness);
    for (const hook of relaxed.hooks.items) if (hook.id === 'no_absolute_claims') hook.enabled = false;
    expect(accuracyReward(quote('Best deal: ¥69.'), relaxed).score).toBe(1);
  });
});
