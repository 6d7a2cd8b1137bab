import { describe, expect, it } from 'vitest';
import { splitTurns } from '../../../src/runtime/rewards/turns.js';
import {
  calls,
  feedback,
  harness,
  load,
  priceLookup,
  priceResult,
  reply,
  result,
  toolError,
  trajectory,
  user,
} from './build.js';

describe('splitTurns', () => {
  it('keeps hook feedback in its turn and picks the final reply no hook rejected', () => {
    const turns = splitTurns(
      trajectory(
        user('link 4 price?'),
        ...load('price_and_coupons', 'c1'),
        ...priceLookup('c2'),
        reply('Best price ¥69!', { event: 'hook_rejected', hook: 'no_absolute_claims' }),
        feedback('no_absolute_claims'),
        reply('¥69 live.'),
        user('thanks'),
        reply('', { event: 'hook_blocked', hook: 'reply_skill_loaded' }),
      ),
      harness,
    );
    expect(
      turns.map(({ index, user: text, userMessage, end, ending, reply: seen, loadedSkills }) => ({
        index,
        text,
        userMessage,
        end,
        ending,
        seen,
        loadedSkills,
      })),
    ).toEqual([
      {
        index: 0,
        text: 'link 4 price?',
        userMessage: 1,
        end: 9,
        ending: 'reply',
        seen: { message: 8, text: '¥69 live.' },
        loadedSkills: ['price_and_coupons'],
      },
      {
        index: 1,
        text: 'thanks',
        userMessage: 9,
        end: 11,
        ending: 'hook_blocked',
        seen: undefined,
        loadedSkills: [],
      },
    ]);
    expect(turns[1]?.endingHook).toBe('reply_skill_loaded');
  });

  it('gives each call its kind and status', () => {
    const [turn] = splitTurns(
      trajectory(
        user('link 4?'),
        calls([
          ['load_skill', { skill_id: 'item_qa' }, 'a'],
          ['get_price_and_coupons', { link_id: 4 }, 'b'],
          ['get_price_and_coupons', { link_id: 4 }, 'c'],
          ['nope', {}, 'd'],
          ['get_price_and_coupons', { link_id: 0 }, 'e'],
          ['get_price_and_coupons', { link_id: 4 }, 'f'],
        ]),
        result('a', '# rules'),
        result('b', priceResult),
        result('c', toolError()),
        result('d', toolError('unknown_tool')),
        result('e', 'rejected', { event: 'hook_feedback', hook: 'tool_arguments_valid' }),
      ),
      harness,
    );
    expect(turn?.calls.map((entry) => [entry.id, entry.kind, entry.status, entry.result])).toEqual([
      ['a', 'loader', 'ok', 3],
      ['b', 'registry', 'ok', 4],
      ['c', 'registry', 'error', 5],
      ['d', 'unknown', 'error', 6],
      ['e', 'registry', 'rejected', 7],
      ['f', 'registry', 'unanswered', undefined],
    ]);
    expect(turn?.calls[0]?.skill).toBe('item_qa');
    expect(turn?.calls[4]?.rejectedBy).toBe('tool_arguments_valid');
    expect(turn?.ending).toBe('none');
  });

  it('notes an input hook that stopped the message', () => {
    const [turn] = splitTurns(
      trajectory(user('vx me'), reply('Hidden.', { event: 'hook_blocked', hook: 'input_spam_filter' })),
      harness,
    );
    expect(turn?.inputHook).toEqual({ event: 'hook_blocked', hook: 'input_spam_filter' });
    expect(turn?.reply).toEqual({ message: 2, text: 'Hidden.', event: 'hook_blocked' });
  });

  it('returns no turn without a user message', () => {
    expect(splitTurns(trajectory(reply('hello')), harness)).toEqual([]);
  });
});
