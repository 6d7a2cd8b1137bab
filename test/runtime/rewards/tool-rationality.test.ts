import { describe, expect, it } from 'vitest';
import { MALFORMED_OUTPUT_MARK } from '../../../src/runtime/faults.js';
import { toolRationalityReward } from '../../../src/runtime/rewards/tool-rationality.js';
import {
  call,
  calls,
  harness,
  load,
  price,
  priceLookup,
  priceResult,
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

const parts = (outcome: ReturnType<typeof toolRationalityReward>) => {
  const { rightTools, validArguments, noRedundancy, calls: count } = outcome.details;
  return { rightTools, validArguments, noRedundancy, calls: count };
};

describe('toolRationalityReward', () => {
  it('scores 1 for the expected tools, valid arguments and no repeats', () => {
    const outcome = toolRationalityReward(priceTurn(), harness, task({ tools: [price] }));
    expect(outcome).toEqual({
      score: 1,
      details: { rightTools: 1, validArguments: 1, noRedundancy: 1, calls: 2, findings: [] },
    });
  });

  it('counts a missing tool against the right-tools part, and the score is the mean of the parts', () => {
    const outcome = toolRationalityReward(
      trajectory(user('link 4 price, size for 175/70?'), ...priceLookup('c1'), reply('¥69.')),
      harness,
      task({ tools: [price, size] }),
    );
    expect(parts(outcome)).toEqual({ rightTools: 0.5, validArguments: 1, noRedundancy: 1, calls: 1 });
    expect(outcome.score).toBe((0.5 + 1 + 1) / 3);
    expect(outcome.details.findings).toEqual([
      {
        code: 'missing_tool',
        turn: 0,
        reason: 'expected tool "recommend_size" was not called in this turn',
        values: [size],
      },
    ]);
  });

  it('scores the right-tools part 1 when no tool is expected or called, and 0 when one is called anyway', () => {
    const quiet = trajectory(user('hi'), ...load('chit_chat', 'c1'), reply('Welcome!'));
    expect(toolRationalityReward(quiet, harness, task({})).details.rightTools).toBe(1);
    const busy = trajectory(user('hi'), ...priceLookup('c1'), reply('Welcome!'));
    const outcome = toolRationalityReward(busy, harness, task({}));
    expect(outcome.details.rightTools).toBe(0);
    expect(outcome.details.findings).toMatchObject([
      { code: 'unexpected_tool', turn: 0, message: 2, values: [price] },
    ]);
  });

  it('matches expected tools turn by turn', () => {
    const outcome = toolRationalityReward(
      trajectory(
        user('link 4 price?'),
        ...priceLookup('c1'),
        reply('¥69.'),
        user('size for 175/70?'),
        reply('Size L.'),
      ),
      harness,
      task({}, { tools: [price] }),
    );
    // Turn 0 called a tool the task does not expect there; turn 1 missed it.
    expect(outcome.details.rightTools).toBe(0);
    expect(outcome.details.findings.map((finding) => [finding.code, finding.turn])).toEqual([
      ['unexpected_tool', 0],
      ['missing_tool', 1],
    ]);
  });

  it('names invalid arguments, invalid JSON, an unknown tool and an unknown skill, loader calls included', () => {
    const outcome = toolRationalityReward(
      trajectory(
        user('what is in the box with link 30?'),
        calls([
          ['load_skill', { skill_id: 'item_faq' }, 'c1'],
          ['get_product_info_by_link_id', { link_id: 30, lang: 'zh' }, 'c2'],
          ['get_product_info_by_link_id', '{"link_id":30', 'c3'],
          ['get_product_details', { link_id: 30 }, 'c4'],
          ['get_product_info_by_link_id', { link_id: 30 }, 'c5'],
        ]),
        result('c1', toolError('unknown_skill')),
        result('c2', toolError('invalid_arguments')),
        result('c3', toolError('invalid_arguments')),
        result('c4', toolError('unknown_tool')),
        result('c5', { link_id: 30 }),
        reply('Kettle, base, manual.'),
      ),
      harness,
      task({ tools: ['get_product_info_by_link_id'] }),
    );
    expect(parts(outcome)).toEqual({ rightTools: 1, validArguments: 1 / 5, noRedundancy: 1, calls: 5 });
    expect(outcome.details.findings).toMatchObject([
      {
        code: 'invalid_arguments',
        turn: 0,
        message: 2,
        call: 0,
        values: [expect.stringContaining('must be equal to one of the allowed values')],
      },
      {
        code: 'invalid_arguments',
        message: 2,
        call: 1,
        values: ['must NOT have additional properties ("lang")'],
      },
      { code: 'invalid_arguments_json', message: 2, call: 2 },
      {
        code: 'unknown_tool',
        message: 2,
        call: 3,
        reason: 'tool "get_product_details" does not exist in the harness',
      },
    ]);
  });

  it.each([
    [
      'counts a call that a pre_tool hook rejected for its bad arguments',
      trajectory(
        user('link 4 price?'),
        call(price, { link_id: 0 }, 'c1', { event: 'hook_rejected', hook: 'tool_arguments_valid' }),
        result('c1', 'Tool call rejected', { event: 'hook_feedback', hook: 'tool_arguments_valid' }),
        ...priceLookup('c2'),
        reply('¥69.'),
      ),
      task({ tools: [price] }),
      { rightTools: 1, validArguments: 0.5, noRedundancy: 1, calls: 2 },
    ],
    [
      'does not count a retry after an error result as redundant',
      trajectory(
        user('link 4 price?'),
        call(price, { link_id: 4 }, 'c1'),
        result('c1', toolError('timeout')),
        call(price, { link_id: 4 }, 'c2'),
        // An injected malformed-output fault (a text result is a result, this one is marked as garbled).
        result('c2', `{"link_id":4,"pri${MALFORMED_OUTPUT_MARK}`),
        ...priceLookup('c3'),
        reply('¥69.'),
      ),
      task({ tools: [price] }),
      { rightTools: 1, validArguments: 1, noRedundancy: 1, calls: 3 },
    ],
    [
      'scores 1 without any call when none is expected',
      trajectory(user('hi'), reply('Welcome!')),
      task({}),
      { rightTools: 1, validArguments: 1, noRedundancy: 1, calls: 0 },
    ],
  ])('%s', (_title, episode, expected, want) => {
    const outcome = toolRationalityReward(episode, harness, expected);
    expect(parts(outcome)).toEqual(want);
    // The score is the mean of the three parts.
    expect(outcome.score).toBe((want.rightTools + want.validArguments + want.noRedundancy) / 3);
  });

  it('names a repeat of a successful call with canonically equal arguments', () => {
    const outcome = toolRationalityReward(
      trajectory(
        user('link 4 price for 2?'),
        call(price, '{"link_id":4,"quantity":2}', 'c1'),
        result('c1', priceResult),
        call(price, '{ "quantity": 2, "link_id": 4 }', 'c2'),
        result('c2', priceResult),
        call(price, { link_id: 4, quantity: 3 }, 'c3'),
        result('c3', priceResult),
        reply('¥69.'),
      ),
      harness,
      task({ tools: [price] }),
    );
    expect(parts(outcome)).toEqual({ rightTools: 1, validArguments: 1, noRedundancy: 1 - 1 / 3, calls: 3 });
    expect(outcome.details.findings).toEqual([
      {
        code: 'redundant_call',
        turn: 0,
        message: 4,
        call: 0,
        reason:
          'repeats an earlier successful call of "get_price_and_coupons" with the same arguments in this turn',
        values: [price, '{ "quantity": 2, "link_id": 4 }'],
      },
    ]);
  });

  it('does not count the same call in a later turn as redundant', () => {
    const outcome = toolRationalityReward(
      trajectory(
        user('link 4 price?'),
        ...priceLookup('c1'),
        reply('¥69.'),
        user('and now?'),
        ...priceLookup('c2'),
        reply('Still ¥69.'),
      ),
      harness,
      task({ tools: [price] }, { tools: [price] }),
    );
    expect(outcome.details.noRedundancy).toBe(1);
  });

  it('also counts redundant parallel calls in one message', () => {
    const outcome = toolRationalityReward(
      trajectory(
        user('size for 175/70?'),
        calls([
          [size, { link_id: 4, body: { height_cm: 175, weight_kg: 70 } }, 'c1'],
          [size, { body: { weight_kg: 70, height_cm: 175 }, link_id: 4 }, 'c2'],
        ]),
        result('c1', sizeResult),
        result('c2', sizeResult),
        reply('Size L.'),
      ),
      harness,
      task({ tools: [size] }),
    );
    expect(outcome.details.noRedundancy).toBe(0.5);
    expect(outcome.details.findings).toMatchObject([{ code: 'redundant_call', message: 2, call: 1 }]);
  });
});
