import { describe, expect, it } from 'vitest';
import { HarnessAugmentError } from '../../../src/harness/issues.js';
import { defaultRewardWeights, scoreEpisode } from '../../../src/runtime/rewards/score-episode.js';
import { harness, load, price, priceLookup, reply, task, trajectory, user } from './build.js';

// Accurate (1), answered in part (0.5), tools: right 0.5, valid 1, no repeat 1 (2.5 / 3), skills 1/2.
const episode = () =>
  trajectory(
    user('link 4 price? size for 175/70?'),
    ...load('price_and_coupons', 'c1'),
    ...priceLookup('c2'),
    reply('Link 4 is ¥69.'),
  );
const expected = () =>
  task({
    user: 'link 4 price? size for 175/70?',
    intents: ['price', 'size'],
    skills: ['price_and_coupons', 'size_advice'],
    tools: [price, 'recommend_size'],
  });

describe('scoreEpisode', () => {
  it('returns the four rewards, their equal-weight mean and every reward’s details', () => {
    const score = scoreEpisode(episode(), harness, expected());
    expect(score.accuracy).toBe(1);
    expect(score.effectiveness).toBe(0.5);
    expect(score.toolRationality).toBe((0.5 + 1 + 1) / 3);
    expect(score.skillSelection).toBe(0.5);
    expect(score.total).toBe((1 + 0.5 + (0.5 + 1 + 1) / 3 + 0.5) / 4);
    expect(score.weights).toEqual(defaultRewardWeights);
    expect(score.details.effectiveness.turns[0]?.answer).toBe('partial');
    expect(score.details.alignment).toEqual([]);
  });

  it('weighs the total, missing weights staying 1', () => {
    const score = scoreEpisode(episode(), harness, expected(), {
      weights: { accuracy: 2, toolRationality: 0 },
    });
    expect(score.total).toBe((2 * 1 + 0.5 + 0.5) / 4);
    expect(score.weights).toEqual({ accuracy: 2, effectiveness: 1, toolRationality: 0, skillSelection: 1 });
  });

  it('rejects negative or all-zero weights', () => {
    expect(() => scoreEpisode(episode(), harness, expected(), { weights: { accuracy: -1 } })).toThrow(
      HarnessAugmentError,
    );
    expect(() =>
      scoreEpisode(episode(), harness, expected(), {
        weights: { accuracy: 0, effectiveness: 0, toolRationality: 0, skillSelection: 0 },
      }),
    ).toThrow(/at least one reward weight/);
  });

  it('reports when the task and the trajectory do not describe the same turns', () => {
    const score = scoreEpisode(episode(), harness, task({ user: 'link 5 price?' }, { user: 'and size?' }));
    expect(score.details.alignment).toEqual([
      { code: 'turn_count_mismatch', turn: 1, reason: 'the task has 2 turn(s), the trajectory 1' },
      {
        code: 'user_mismatch',
        turn: 0,
        message: 1,
        reason: 'the user message differs from the task\'s: "link 5 price?"',
        values: ['link 5 price?', 'link 4 price? size for 175/70?'],
      },
    ]);
  });

  it('gives the same bytes for the same inputs', () => {
    const first = JSON.stringify(scoreEpisode(episode(), harness, expected()));
    expect(JSON.stringify(scoreEpisode(episode(), harness, expected()))).toBe(first);
  });
});
