// Assembling streamed chunks: parallel tool calls interleaved by index, arguments in pieces, usage in the
// last chunk, several choices, and the errors for calls that never got an id or a name.
import { describe, expect, it } from 'vitest';
import {
  assembleChatCompletion,
  collectChatCompletion,
  IncompleteStreamError,
} from '../../../src/adapters/openai/tool-call-deltas.js';
import type {
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
} from '../../../src/adapters/openai/wire-types.js';

function chunk(
  choices: ChatCompletionChunkChoice[],
  extra: Partial<ChatCompletionChunk> = {},
): ChatCompletionChunk {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 42, model: 'm', choices, ...extra };
}

function delta(
  d: ChatCompletionChunkChoice['delta'],
  finish: ChatCompletionChunkChoice['finish_reason'] = null,
  index = 0,
) {
  return chunk([{ index, delta: d, finish_reason: finish }]);
}

const parallel: ChatCompletionChunk[] = [
  delta({ role: 'assistant', content: '' }),
  delta({ content: '查一下' }),
  delta({
    tool_calls: [
      { index: 0, id: 'call_a', type: 'function', function: { name: 'get_price', arguments: '' } },
    ],
  }),
  delta({
    tool_calls: [
      { index: 1, id: 'call_b', type: 'function', function: { name: 'get_stock', arguments: '' } },
    ],
  }),
  delta({ tool_calls: [{ index: 1, function: { arguments: '{"link_' } }] }),
  delta({ tool_calls: [{ index: 0, function: { arguments: '{"link_id"' } }] }),
  delta({ tool_calls: [{ index: 0, id: null, type: null, function: { name: null, arguments: ': 3}' } }] }),
  delta({ tool_calls: [{ index: 1, function: { arguments: 'id": 4}' } }] }),
  delta({}, 'tool_calls'),
  chunk([], { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }),
];

describe('assembleChatCompletion', () => {
  it('assembles interleaved parallel tool calls by index', () => {
    expect(assembleChatCompletion(parallel)).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 42,
      model: 'm',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: '查一下',
            tool_calls: [
              {
                id: 'call_a',
                type: 'function',
                function: { name: 'get_price', arguments: '{"link_id": 3}' },
              },
              {
                id: 'call_b',
                type: 'function',
                function: { name: 'get_stock', arguments: '{"link_id": 4}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });

  it('orders calls by index even when a higher index opens first', () => {
    const reversed = [parallel[0]!, parallel[3]!, parallel[2]!, ...parallel.slice(4)];
    const calls = assembleChatCompletion(reversed).choices[0]!.message.tool_calls!;
    expect(calls.map((call) => call.id)).toEqual(['call_a', 'call_b']);
  });

  it('keeps content null when only empty content deltas arrived, and joins reasoning', () => {
    const completion = assembleChatCompletion([
      delta({ role: 'assistant', content: '' }),
      delta({ reasoning_content: 'think ' }),
      delta({ reasoning: 'more' }),
      delta({ content: '' }, 'stop'),
    ]);
    expect(completion.choices[0]!.message).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'think more',
    });
  });

  it('keeps several choices apart, in index order', () => {
    const completion = assembleChatCompletion([
      delta({ content: 'b' }, null, 1),
      delta({ content: 'a' }, null, 0),
      delta({ content: '2' }, 'stop', 1),
      delta({ content: '1' }, 'length', 0),
    ]);
    expect(
      completion.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason]),
    ).toEqual([
      [0, 'a1', 'length'],
      [1, 'b2', 'stop'],
    ]);
  });

  it('concatenates logprobs and vLLM token ids, and keeps prompt_token_ids', () => {
    const lp = (token: string) => ({ token, logprob: -0.5, bytes: null, top_logprobs: [] });
    const completion = assembleChatCompletion([
      chunk(
        [
          {
            index: 0,
            delta: { content: 'a' },
            finish_reason: null,
            logprobs: { content: [lp('a')] },
            token_ids: [1],
          },
        ],
        {
          prompt_token_ids: [7, 8],
        },
      ),
      chunk([
        {
          index: 0,
          delta: { content: 'b' },
          finish_reason: 'stop',
          logprobs: { content: [lp('b')] },
          token_ids: [2],
        },
      ]),
    ]);
    expect(completion.prompt_token_ids).toEqual([7, 8]);
    expect(completion.choices[0]).toMatchObject({
      logprobs: { content: [lp('a'), lp('b')], refusal: null },
      token_ids: [1, 2],
    });
  });

  it('continues the last call when a server omits the index', () => {
    const completion = assembleChatCompletion([
      delta({ tool_calls: [{ id: 'c1', function: { name: 'f', arguments: '{' } } as never] }),
      delta({ tool_calls: [{ function: { arguments: '}' } } as never] }, 'tool_calls'),
    ]);
    expect(completion.choices[0]!.message.tool_calls).toEqual([
      { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } },
    ]);
  });

  it('rejects a tool call that never got an id or a name', () => {
    expect(() =>
      assembleChatCompletion([delta({ tool_calls: [{ index: 0, function: { name: 'f' } }] })]),
    ).toThrow(IncompleteStreamError);
    expect(() => assembleChatCompletion([delta({ tool_calls: [{ index: 0, id: 'c' }] })])).toThrow(
      /has no name/,
    );
  });
});

describe('collectChatCompletion', () => {
  it('consumes an async iterable', async () => {
    async function* source() {
      yield* parallel;
    }
    expect(await collectChatCompletion(source())).toEqual(assembleChatCompletion(parallel));
  });
});
