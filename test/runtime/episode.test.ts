import { describe, expect, it } from 'vitest';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { runAgent } from '../../src/runtime/agent-loop.js';
import type { ChatCompletion, ChatModel, ChatRequest } from '../../src/runtime/chat-model.js';
import { Episode, StepError } from '../../src/runtime/episode.js';
import { faultFor, withFaults } from '../../src/runtime/faults.js';
import { recordedTools } from '../../src/runtime/recorded-tools.js';
import { type ToolRuntime, toolsFromFunctions } from '../../src/runtime/tool-runtime.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { travelContext, travelHarness, travelHarnessInput } from '../support/travel-harness.js';

const harness = travelHarness();
const baggage = { fare_class: 'basic', cabin_kg: 7, checked_bags: 0 };
const tools: ToolRuntime = toolsFromFunctions({
  get_baggage_policy: () => baggage,
  find_flights: () => ({ flights: [{ flight: 'HA 214', fare: 129 }] }),
  hold_seat: () => ({ held: true }),
});

const load = (id: string, callId = `load_${id}`) => ({
  role: 'assistant' as const,
  content: null,
  tool_calls: [
    {
      id: callId,
      type: 'function' as const,
      function: { name: 'load_skill', arguments: JSON.stringify({ skill_id: id }) },
    },
  ],
});
const callTool = (name: string, args: string, id: string) => ({
  role: 'assistant' as const,
  content: null,
  tool_calls: [{ id, type: 'function' as const, function: { name, arguments: args } }],
});

function newEpisode(
  runtime: ToolRuntime = tools,
  options: { maxStepsPerTurn?: number; toolTimeoutMs?: number } = {},
) {
  return new Episode({ harness, context: travelContext, tools: runtime, ...options });
}

function expectValid(episode: Episode) {
  const validation = validateTrajectory(episode.trajectory('t'), harness);
  expect(validation.issues).toEqual([]);
}

describe('Episode', () => {
  it('runs a plain turn: skill load, tool call, reply', async () => {
    const episode = newEpisode();
    await episode.user('What can I bring on a basic fare?');
    expect((await episode.assistant(load('baggage'))).turnEnded).toBe(false);
    const observation = await episode.assistant(
      callTool('get_baggage_policy', '{"fare_class":"basic"}', 'c1'),
    );
    expect(observation.tools).toMatchObject([
      { name: 'get_baggage_policy', content: JSON.stringify(baggage) },
    ]);
    const reply = await episode.assistant({
      role: 'assistant',
      content: 'Basic fares include a 7 kg cabin bag.',
    });
    expect(reply).toMatchObject({ turnEnded: true, end: 'reply' });
    expect(episode.turnOpen).toBe(false);
    expectValid(episode);
  });

  it('retries a reply hook with its rendered feedback, then accepts the fix', async () => {
    const episode = newEpisode();
    await episode.user('Basic fare bags?');
    await episode.assistant(load('baggage'));
    await episode.assistant(callTool('get_baggage_policy', '{"fare_class":"basic"}', 'c1'));
    const rejected = await episode.assistant({ role: 'assistant', content: 'A 7 kg bag, guaranteed.' });
    expect(rejected.turnEnded).toBe(false);
    expect(rejected.hookEvents).toEqual([
      expect.objectContaining({ hook: 'no_guarantees', outcome: 'retry', stage: 'pre_reply' }),
    ]);
    expect(rejected.messages).toEqual([
      {
        role: 'assistant',
        content: 'A 7 kg bag, guaranteed.',
        hsa: { event: 'hook_rejected', hook: 'no_guarantees' },
      },
      { role: 'user', content: 'Remove: guaranteed', hsa: { event: 'hook_feedback', hook: 'no_guarantees' } },
    ]);
    expect((await episode.assistant({ role: 'assistant', content: 'A 7 kg cabin bag.' })).end).toBe('reply');
    expectValid(episode);
  });

  it('falls back when the retry budget runs out', async () => {
    const episode = newEpisode();
    await episode.user('Basic fare bags?');
    await episode.assistant(load('baggage'));
    await episode.assistant({ role: 'assistant', content: 'Guaranteed!' });
    const second = await episode.assistant({ role: 'assistant', content: 'Guaranteed, really!' });
    expect(second).toMatchObject({ turnEnded: true, end: 'hook_fallback' });
    expect(second.messages.at(-1)).toEqual({
      role: 'assistant',
      content: 'A colleague will confirm the details.',
      hsa: { event: 'hook_fallback', hook: 'no_guarantees' },
    });
    await expect(episode.assistant({ role: 'assistant', content: 'late' })).rejects.toThrow(StepError);
    expectValid(episode);
  });

  it('ends the turn at once when an input hook falls back', async () => {
    const episode = newEpisode();
    const observation = await episode.user('damn airline');
    expect(observation).toMatchObject({ turnEnded: true, end: 'hook_fallback' });
    expect(episode.turnEnds).toEqual(['hook_fallback']);
    expectValid(episode);
  });

  it('rejects invalid arguments with feedback in the tool message and never runs the tool', async () => {
    let ran = 0;
    const counting = toolsFromFunctions({
      get_baggage_policy: () => {
        ran++;
        return baggage;
      },
    });
    const episode = newEpisode(counting);
    await episode.user('bags?');
    const observation = await episode.assistant(
      callTool('get_baggage_policy', '{"fare_class":"gold"}', 'c1'),
    );
    expect(ran).toBe(0);
    expect(observation.messages[0]).toMatchObject({
      hsa: { event: 'hook_rejected', hook: 'valid_arguments' },
    });
    expect(observation.messages[1]).toMatchObject({
      role: 'tool',
      tool_call_id: 'c1',
      hsa: { event: 'hook_feedback' },
    });
    expect(observation.messages[1]!.content).toContain('get_baggage_policy');
    expectValid(episode);
  });

  it('runs parallel calls and answers them in call order', async () => {
    const episode = newEpisode();
    await episode.user('bags and flights?');
    const observation = await episode.assistant({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'a',
          type: 'function',
          function: {
            name: 'find_flights',
            arguments: '{"origin":"LIS","destination":"OPO","date":"2026-12-01"}',
          },
        },
        {
          id: 'b',
          type: 'function',
          function: { name: 'get_baggage_policy', arguments: '{"fare_class":"flex"}' },
        },
      ],
    });
    expect(
      observation.messages.map((message) => (message.role === 'tool' ? message.tool_call_id : message.role)),
    ).toEqual(['assistant', 'a', 'b']);
    expectValid(episode);
  });

  it('refuses malformed steps without changing the episode', async () => {
    const episode = newEpisode();
    await episode.user('hi');
    const before = JSON.stringify(episode.messages);
    for (const bad of [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: null },
      { role: 'assistant', content: 42 },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'x', type: 'function', function: { name: 'find_flights', arguments: 42 } }],
      },
      { role: 'assistant', content: null, tool_calls: 'nope' },
    ]) {
      await expect(episode.assistant(bad as never)).rejects.toThrow(StepError);
    }
    expect(JSON.stringify(episode.messages)).toBe(before);
    expect((await episode.assistant(load('baggage'))).turnEnded).toBe(false);
  });

  it('makes repeated tool call ids unique', async () => {
    const episode = newEpisode();
    await episode.user('bags?');
    await episode.assistant(load('baggage', 'call_0'));
    const observation = await episode.assistant(
      callTool('get_baggage_policy', '{"fare_class":"basic"}', 'call_0'),
    );
    const ids = episode.messages.flatMap((message) =>
      message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [],
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(observation.tools[0]!.callId).not.toBe('call_0');
    expectValid(episode);
  });

  it('ends a turn at the step limit', async () => {
    const episode = newEpisode(tools, { maxStepsPerTurn: 2 });
    await episode.user('bags?');
    await episode.assistant(load('baggage'));
    const observation = await episode.assistant(load('rebooking', 'again'));
    expect(observation).toMatchObject({ turnEnded: true, end: 'step_limit' });
  });

  it('answers a slow tool with a timeout error', async () => {
    const slow = toolsFromFunctions({
      get_baggage_policy: () => new Promise((resolve) => setTimeout(resolve, 500, baggage)),
    });
    const episode = newEpisode(slow, { toolTimeoutMs: 20 });
    await episode.user('bags?');
    const observation = await episode.assistant(
      callTool('get_baggage_policy', '{"fare_class":"basic"}', 'c1'),
    );
    expect(observation.tools[0]).toMatchObject({ error: 'timeout' });
    expect(JSON.parse(observation.tools[0]!.content)).toMatchObject({ error: { type: 'timeout' } });
  });
});

describe('Episode and the validator agree', () => {
  it('a message whose calls fail different pre_tool hooks', async () => {
    const input = travelHarnessInput();
    const budget = input.hooks.items.find((hook) => hook.id === 'tool_budget')!;
    (budget.check as { max: number }).max = 1;
    const strict = parseHarness(input);
    const episode = new Episode({ harness: strict, context: travelContext, tools });
    await episode.user('bags?');
    const observation = await episode.assistant({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'a',
          type: 'function',
          function: { name: 'get_baggage_policy', arguments: '{"fare_class":7}' },
        },
        {
          id: 'b',
          type: 'function',
          function: { name: 'get_baggage_policy', arguments: '{"fare_class":"basic"}' },
        },
      ],
    });
    expect(observation.hookEvents.map((event) => event.hook)).toEqual(['valid_arguments', 'tool_budget']);
    expect(observation).toMatchObject({ turnEnded: true, end: 'hook_fallback' });
    expect(validateTrajectory(episode.trajectory('t'), strict).issues).toEqual([]);
  });

  it.each([
    ['retry', { action: 'retry', maxRetries: 1, feedback: 'That result is too long for the screen.' }, false],
    ['block', { action: 'block', message: 'Result withheld.' }, true],
  ])('a tool result that fails a post_tool hook (%s)', async (_name, onFail, ends) => {
    const input = travelHarnessInput();
    input.hooks.items.push({
      id: 'short_result',
      stage: 'post_tool',
      check: { type: 'max_length', max: 20 },
      onFail,
    } as never);
    const withPostTool = parseHarness(input);
    const episode = new Episode({ harness: withPostTool, context: travelContext, tools });
    await episode.user('bags?');
    const observation = await episode.assistant(
      callTool('get_baggage_policy', '{"fare_class":"basic"}', 'c1'),
    );
    expect(observation.hookEvents).toEqual([
      expect.objectContaining({ hook: 'short_result', stage: 'post_tool' }),
    ]);
    expect(observation.turnEnded).toBe(ends);
    expect(observation.messages.at(-1)).toMatchObject(
      ends
        ? { role: 'assistant', hsa: { event: 'hook_blocked' } }
        : { role: 'user', hsa: { event: 'hook_feedback' } },
    );
    expect(validateTrajectory(episode.trajectory('t'), withPostTool).issues).toEqual([]);
  });

  it('takes what real servers send: text parts, "" and object arguments', async () => {
    const episode = newEpisode();
    await episode.user('bags?');
    await episode.assistant({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'l', type: 'function', function: { name: 'load_skill', arguments: { skill_id: 'baggage' } } },
      ],
    } as never);
    const empty = await episode.assistant({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'e', type: 'function', function: { name: 'get_baggage_policy', arguments: '' } }],
    });
    expect(empty.messages[0]).toMatchObject({ tool_calls: [{ function: { arguments: '{}' } }] });
    const reply = await episode.assistant({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Bring one ' },
        { type: 'text', text: 'cabin bag.' },
      ],
    } as never);
    expect(reply.messages.at(-1)).toMatchObject({ content: 'Bring one cabin bag.' });
    expect(episode.messages[2]).toMatchObject({
      tool_calls: [{ function: { arguments: '{"skill_id":"baggage"}' } }],
    });
  });
});

describe('Episode lifecycle', () => {
  it('closing answers a running call at once, even when the tool ignores its signal', async () => {
    const stuck = toolsFromFunctions({ get_baggage_policy: () => new Promise(() => {}) });
    const episode = newEpisode(stuck, { toolTimeoutMs: 60_000 });
    await episode.user('bags?');
    const step = episode.assistant(callTool('get_baggage_policy', '{"fare_class":"basic"}', 'c1'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    episode.close();
    const observation = await step;
    expect(observation.tools[0]).toMatchObject({ error: 'timeout' });
    expect(observation.tools[0]!.content).toContain('closed');
  });

  it('an unbounded tool timeout waits for the tool', async () => {
    const slow = toolsFromFunctions({
      get_baggage_policy: () => new Promise((resolve) => setTimeout(resolve, 20, baggage)),
    });
    const episode = newEpisode(slow, { toolTimeoutMs: Number.POSITIVE_INFINITY });
    await episode.user('bags?');
    const observation = await episode.assistant(
      callTool('get_baggage_policy', '{"fare_class":"basic"}', 'c1'),
    );
    expect(observation.tools[0]!.error).toBeUndefined();
  });

  it('refuses a step while the previous one is still running', async () => {
    const slow = toolsFromFunctions({
      get_baggage_policy: () => new Promise((resolve) => setTimeout(resolve, 20, baggage)),
    });
    const episode = newEpisode(slow);
    await episode.user('bags?');
    const first = episode.assistant(callTool('get_baggage_policy', '{"fare_class":"basic"}', 'c1'));
    await expect(episode.assistant({ role: 'assistant', content: 'hi' })).rejects.toThrow(/still running/);
    await first;
  });
});

describe('recordedTools', () => {
  it('serves the results of calls that ran inside a message a hook rejected', async () => {
    const episode = newEpisode();
    await episode.user('bags?');
    await episode.assistant({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'ok',
          type: 'function',
          function: { name: 'get_baggage_policy', arguments: '{"fare_class":"basic"}' },
        },
        {
          id: 'bad',
          type: 'function',
          function: { name: 'get_baggage_policy', arguments: '{"fare_class":7}' },
        },
      ],
    });
    const replay = recordedTools(episode.trajectory('gold'));
    const outcome = await replay.call(
      {
        id: 'x',
        name: 'get_baggage_policy',
        arguments: { fare_class: 'basic' },
        rawArguments: '{ "fare_class": "basic" }',
      },
      { harness, signal: new AbortController().signal, callIndex: 0 },
    );
    expect(outcome).toEqual({ content: JSON.stringify(baggage) });
  });
});

describe('faults', () => {
  it('draws the same faults for the same seed and call index, at about the configured rate', () => {
    const options = { rate: 0.2, seed: 'ep-1' };
    const draws = Array.from({ length: 2000 }, (_, index) => faultFor(index, options));
    expect(draws).toEqual(Array.from({ length: 2000 }, (_, index) => faultFor(index, options)));
    const share = draws.filter(Boolean).length / draws.length;
    expect(share).toBeGreaterThan(0.17);
    expect(share).toBeLessThan(0.23);
    expect(new Set(draws.filter(Boolean))).toEqual(
      new Set(['timeout', 'malformed_output', 'permission_denied']),
    );
    expect(faultFor(0, { rate: 0, seed: 'x' })).toBeUndefined();
    expect(() =>
      withFaults(tools, {
        rate: 0.1,
        seed: 'x',
        kinds: { timeout: 0, malformed_output: 0, permission_denied: 0 },
      }),
    ).toThrow(/not all 0/);
  });

  it('returns malformed output that no longer parses', async () => {
    const runtime = withFaults(tools, {
      rate: 1,
      seed: 's',
      kinds: { malformed_output: 1, timeout: 0, permission_denied: 0 },
    });
    const outcome = await runtime.call(
      { id: 'c', name: 'get_baggage_policy', arguments: { fare_class: 'basic' }, rawArguments: '' },
      { harness, signal: new AbortController().signal, callIndex: 0 },
    );
    expect(outcome.error).toBe('malformed_output');
    expect(() => JSON.parse(outcome.content)).toThrow();
  });
});

/** A model that answers from a script, one completion per call, and records the requests. */
function scriptedModel(
  script: Array<ChatCompletion['choices'][number]['message']>,
): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push(request);
      const message = script[requests.length - 1];
      if (!message) throw new Error('script exhausted');
      return {
        id: `cmpl-${requests.length}`,
        object: 'chat.completion',
        created: 0,
        model: 'scripted',
        choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
      };
    },
  };
}

describe('runAgent', () => {
  it('loops model → tools → hooks until each turn ends, and reports usage per step', async () => {
    const model = scriptedModel([
      load('baggage'),
      callTool('get_baggage_policy', '{"fare_class":"basic"}', 'c1'),
      { role: 'assistant', content: 'A 7 kg bag, 100% sure.' },
      { role: 'assistant', content: 'A 7 kg cabin bag.' },
    ]);
    const run = await runAgent({
      harness,
      context: travelContext,
      tools,
      model,
      userMessages: ['bags on basic?'],
      request: { model: 'm' },
    });
    expect(run.turnEnds).toEqual(['reply']);
    expect(run.steps).toHaveLength(4);
    expect(run.steps.every((step) => step.usage?.total_tokens === 13)).toBe(true);
    expect(run.steps[2]!.hookEvents[0]).toMatchObject({ hook: 'no_guarantees', outcome: 'retry' });
    // The model sees the feedback as a user turn, without trajectory markers.
    const last = model.requests[3]!;
    expect(last.messages.at(-1)).toEqual({ role: 'user', content: 'Remove: 100%' });
    expect(JSON.stringify(last.messages)).not.toContain('"hsa"');
    expect(last.model).toBe('m');
    expect(last.tools?.map((tool) => tool.function.name)).toEqual([
      'load_skill',
      'find_flights',
      'hold_seat',
      'get_baggage_policy',
    ]);
    expect(validateTrajectory(run.trajectory('r'), harness).issues).toEqual([]);
  });
});
