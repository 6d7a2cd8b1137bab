import { describe, expect, it } from 'vitest';
import { skillSelectionReward } from '../../../src/runtime/rewards/skill-selection.js';
import { call, calls, harness, load, reply, result, task, toolError, trajectory, user } from './build.js';

describe('skillSelectionReward', () => {
  it('scores 1 when the turn loads exactly the expected skills', () => {
    const outcome = skillSelectionReward(
      trajectory(
        user('price and size?'),
        ...load('multi_intent_planner', 'c1'),
        ...load('price_and_coupons', 'c2'),
        ...load('size_advice', 'c3'),
        reply('ok'),
      ),
      harness,
      task({ skills: ['price_and_coupons', 'size_advice', 'multi_intent_planner'] }),
    );
    expect(outcome).toEqual({
      score: 1,
      details: {
        turns: [
          {
            turn: 0,
            expected: ['price_and_coupons', 'size_advice', 'multi_intent_planner'],
            loaded: ['multi_intent_planner', 'price_and_coupons', 'size_advice'],
            score: 1,
          },
        ],
        findings: [],
      },
    });
  });

  it('scores a wrong skill 0 and names the missing and the extra one', () => {
    const outcome = skillSelectionReward(
      trajectory(user('link 4 price?'), ...load('item_qa', 'c1'), reply('¥69.')),
      harness,
      task({ skills: ['price_and_coupons'] }),
    );
    expect(outcome.score).toBe(0);
    expect(outcome.details.findings).toEqual([
      {
        code: 'missing_skill',
        turn: 0,
        reason: 'expected skill "price_and_coupons" was not loaded in this turn',
        values: ['price_and_coupons'],
      },
      {
        code: 'extra_skill',
        turn: 0,
        message: 2,
        call: 0,
        reason: 'skill "item_qa" was loaded but the task does not expect it in this turn',
        values: ['item_qa'],
      },
    ]);
  });

  it('scores an extra skill by the Jaccard overlap', () => {
    const outcome = skillSelectionReward(
      trajectory(
        user('best price?'),
        ...load('price_and_coupons', 'c1'),
        ...load('compliance_guard', 'c2'),
        reply('¥69.'),
      ),
      harness,
      task({ skills: ['price_and_coupons'] }),
    );
    expect(outcome.score).toBe(0.5);
    expect(outcome.details.findings.map((finding) => finding.code)).toEqual(['extra_skill']);
  });

  it('counts only accepted loads: not a rejected call, an error result, an unknown skill or another tool', () => {
    const outcome = skillSelectionReward(
      trajectory(
        user('link 4 price?'),
        call('load_skill', { skill_id: 'item_qa' }, 'c1', {
          event: 'hook_rejected',
          hook: 'tool_call_budget',
        }),
        result('c1', 'blocked', { event: 'hook_feedback', hook: 'tool_call_budget' }),
        calls([
          ['load_skill', { skill_id: 'size_advice' }, 'c2'],
          ['load_skill', { skill_id: 'price_tricks' }, 'c3'],
          ['load_skills', { skill_id: 'stock_check' }, 'c4'],
        ]),
        result('c2', toolError('tool_error')),
        result('c3', '# made-up rules'),
        result('c4', '# rules'),
        ...load('price_and_coupons', 'c5'),
        ...load('price_and_coupons', 'c6'),
        reply('¥69.'),
      ),
      harness,
      task({ skills: ['price_and_coupons'] }),
    );
    expect(outcome.details.turns).toEqual([
      { turn: 0, expected: ['price_and_coupons'], loaded: ['price_and_coupons'], score: 1 },
    ]);
  });

  it('averages over the turns that expect or load skills only, and scores 1 with nothing to score', () => {
    const outcome = skillSelectionReward(
      trajectory(
        user('spam'),
        reply('hidden', { event: 'hook_blocked', hook: 'input_spam_filter' }),
        user('link 4 price?'),
        ...load('item_qa', 'c1'),
        reply('¥69.'),
        user('size?'),
        ...load('size_advice', 'c2'),
        reply('L.'),
      ),
      harness,
      task({}, { skills: ['price_and_coupons'] }, { skills: ['size_advice'] }),
    );
    expect(outcome.details.turns.map((turn) => [turn.turn, turn.score])).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect(outcome.score).toBe(0.5);
    const nothing = skillSelectionReward(trajectory(user('spam'), reply('hidden')), harness, task({}));
    expect(nothing).toEqual({ score: 1, details: { turns: [], findings: [] } });
  });
});
