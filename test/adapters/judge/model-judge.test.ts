// The model judge: verdict parsing (anything that is not a verdict is never kept), the request it sends to
// an OpenAI-compatible endpoint, a k = 3 majority vote over scripted answers, and its place after the
// rules judge in `allOf` (a refusal by the rules spares the model's call).
import { readFile } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { modelJudge, parseVerdict } from '../../../src/adapters/judge/model-judge.js';
import { createOpenAICompatible } from '../../../src/adapters/openai/index.js';
import type { ChatCompletionRequest } from '../../../src/adapters/openai/wire-types.js';
import { loadHarnessFile } from '../../../src/harness/parse-harness.js';
import type { Harness } from '../../../src/harness/schema.js';
import { taskFromTrajectory } from '../../../src/runtime/episode-task.js';
import { allOf, type JudgeInput, majorityVote, rulesJudge } from '../../../src/runtime/judge.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import {
  type FakeAnswer,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
} from '../../support/fake-openai-server.js';

const fixture = new URL('../../../fixtures/livestream/', import.meta.url);

let harness: Harness;
let input: JudgeInput;

beforeAll(async () => {
  harness = await loadHarnessFile(new URL('harness.yaml', fixture).pathname);
  const lines = (await readFile(new URL('trajectories.jsonl', fixture), 'utf8')).split('\n');
  const gold = JSON.parse(lines[0]!) as Trajectory;
  input = { trajectory: gold, harness, task: taskFromTrajectory(gold, harness) };
});

describe('parseVerdict', () => {
  it('reads the verdict object', () => {
    expect(parseVerdict('{"keep": true, "score": 0.75, "reasons": ["grounded"]}')).toEqual({
      keep: true,
      score: 0.75,
      reasons: ['grounded'],
    });
    expect(parseVerdict('{"keep": false, "score": 0.2, "reasons": ["price not from a tool"]}')).toEqual({
      keep: false,
      score: 0.2,
      reasons: ['price not from a tool'],
    });
  });

  it('finds the object inside prose and code fences', () => {
    expect(parseVerdict('Verdict:\n```json\n{"keep": true, "score": 1, "reasons": []}\n```\nDone.')).toEqual({
      keep: true,
      score: 1,
      reasons: [],
    });
    // Braces inside strings are part of the object.
    expect(parseVerdict('{"keep": false, "reasons": ["quoted {link_id} literally"]}').reasons).toEqual([
      'quoted {link_id} literally',
    ]);
  });

  it('fills a missing or out-of-range score from the decision and drops reasons that are not strings', () => {
    expect(parseVerdict('{"keep": true}')).toEqual({ keep: true, score: 1, reasons: [] });
    expect(parseVerdict('{"keep": false, "score": 7}')).toEqual({ keep: false, score: 0, reasons: [] });
    expect(parseVerdict('{"keep": true, "score": -0.5, "reasons": ["ok", 3, null]}')).toEqual({
      keep: true,
      score: 1,
      reasons: ['ok'],
    });
    expect(parseVerdict('{"keep": true, "score": "0.9"}').score).toBe(1);
  });

  it.each([
    ['no answer', null, 'the judge gave no JSON verdict'],
    ['an empty answer', '', 'the judge gave no JSON verdict'],
    ['prose', 'Looks great, keep it!', 'the judge gave no JSON verdict'],
    ['braces the wrong way round', '} keep: true {', 'the judge gave no JSON verdict'],
    ['a bare boolean', 'true', 'the judge gave no JSON verdict'],
    ['invalid JSON', '{keep: true}', 'the verdict is not valid JSON'],
    ['a truncated object', '{"keep": true, "score": 0.9', 'the judge gave no JSON verdict'],
    ['two verdicts', '{"keep": true} or maybe {"keep": false}', 'the judge gave two different verdicts'],
    ['a string decision', '{"keep": "true", "score": 1}', 'the verdict has no boolean "keep"'],
    ['a numeric decision', '{"keep": 1}', 'the verdict has no boolean "keep"'],
    ['no decision', '{"score": 1, "reasons": ["fine"]}', 'the verdict has no boolean "keep"'],
    ['a verdict without a boolean keep', '{"keep": "yes"}', 'the verdict has no boolean "keep"'],
  ])('never keeps %s', (_name, text, reason) => {
    expect(parseVerdict(text)).toEqual({ keep: false, score: 0, reasons: [reason] });
  });
});

it('reads the verdict after a thinking block and beside other objects', () => {
  expect(
    parseVerdict('<think>is {x} grounded? maybe {"keep": false}</think>{"keep": true, "score": 0.8}'),
  ).toEqual({
    keep: true,
    score: 0.8,
    reasons: [],
  });
  expect(parseVerdict('{"keep": true, "reasons": ["a } in a string"]} Evidence: {"price": 129}').keep).toBe(
    true,
  );
});

describe('modelJudge against an OpenAI-compatible server', () => {
  let server: FakeOpenAIServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** A server whose answers come from `answers` in arrival order (the last one repeats). */
  async function scripted(...answers: string[]) {
    let next = 0;
    server = await startFakeOpenAIServer({
      respond: (): FakeAnswer => ({ content: answers[Math.min(next++, answers.length - 1)]! }),
    });
    const client = createOpenAICompatible({ baseURL: server.url, maxRetries: 0, timeoutMs: 10_000 });
    return { server, client };
  }

  const bodies = (fake: FakeOpenAIServer) =>
    fake.requests.map((request) => request.body as ChatCompletionRequest);

  it('asks with the instructions, the gold labels and the transcript, and returns the parsed verdict', async () => {
    const { server, client } = await scripted('{"keep": true, "score": 0.9, "reasons": ["grounded"]}');
    const judge = modelJudge({ model: client, request: { model: 'judge-model', temperature: 0.7 } });
    expect(judge.name).toBe('model');
    expect(await judge.judge(input)).toEqual({ keep: true, score: 0.9, reasons: ['grounded'] });

    const [body] = bodies(server);
    expect(body).toMatchObject({ model: 'judge-model', temperature: 0.7 });
    expect(body!.tools).toBeUndefined();
    expect(body!.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(body!.messages[0]!.content).toContain('{"keep": true|false');
    const user = body!.messages[1]!.content as string;
    const turn = input.task.turns[0]!;
    expect(user).toContain(
      `turn 1: intents ${turn.intents.join(', ') || '-'}; skills ${turn.skills.join(', ')}`,
    );
    // The transcript: every message but the agent's system prompt, tool calls spelled out.
    expect(user).not.toContain(input.trajectory.messages[0]!.content as string);
    for (const message of input.trajectory.messages.slice(1)) {
      if (message.role === 'assistant' && message.tool_calls)
        for (const call of message.tool_calls)
          expect(user).toContain(`${call.function.name}(${call.function.arguments})`);
      else expect(user).toContain(message.content as string);
    }
  });

  it('uses custom instructions and name', async () => {
    const { server, client } = await scripted('{"keep": false, "reasons": ["too long"]}');
    const judge = modelJudge({
      model: client,
      request: { model: 'm' },
      instructions: 'Answer {"keep": bool}.',
      name: 'strict-model',
    });
    expect(judge.name).toBe('strict-model');
    expect(await judge.judge(input)).toEqual({ keep: false, score: 0, reasons: ['too long'] });
    expect(bodies(server)[0]!.messages[0]).toEqual({ role: 'system', content: 'Answer {"keep": bool}.' });
  });

  it('never keeps an answer that is not a verdict', async () => {
    const { client } = await scripted('Yes, this conversation is fine. Keep it.');
    const verdict = await modelJudge({ model: client, request: {} }).judge(input);
    expect(verdict.keep).toBe(false);
    expect(verdict.reasons).toEqual(['the judge gave no JSON verdict']);
  });

  it('fails, and keeps nothing, when the endpoint fails', async () => {
    server = await startFakeOpenAIServer({ faults: () => ({ status: 400 }) });
    const client = createOpenAICompatible({ baseURL: server.url, maxRetries: 0 });
    await expect(modelJudge({ model: client, request: {} }).judge(input)).rejects.toThrow(/400/);
  });

  it('keeps on two of three votes with majorityVote k = 3', async () => {
    const { server, client } = await scripted(
      '{"keep": true, "score": 0.9, "reasons": ["a"]}',
      'I would keep it.',
      '{"keep": true, "score": 0.7, "reasons": ["b"]}',
    );
    const judge = majorityVote({ judge: modelJudge({ model: client, request: { model: 'm' } }), k: 3 });
    const verdict = await judge.judge(input);
    expect(server.stats.requests).toBe(3);
    expect(verdict.keep).toBe(true);
    expect(verdict.votes.map((vote) => vote.keep).sort()).toEqual([false, true, true]);
    expect(verdict.score).toBe(0.7);
    expect([...verdict.reasons].sort()).toEqual(['a', 'b', 'the judge gave no JSON verdict']);
  });

  it('does not keep on one of three votes', async () => {
    const { client } = await scripted(
      '{"keep": true, "score": 0.9}',
      '{"keep": false, "score": 0.3, "reasons": ["ungrounded price"]}',
      'not sure',
    );
    const verdict = await majorityVote({ judge: modelJudge({ model: client, request: {} }), k: 3 }).judge(
      input,
    );
    expect(verdict.keep).toBe(false);
    expect(verdict.votes.filter((vote) => vote.keep)).toHaveLength(1);
    expect(verdict.score).toBe(0.3);
  });

  it('is not asked when the rules judge refuses first in allOf', async () => {
    const { server, client } = await scripted('{"keep": true, "score": 1}');
    const model = majorityVote({ judge: modelJudge({ model: client, request: {} }), k: 3 });
    const judge = allOf([rulesJudge(), model]);
    // A reply with a price no tool returned: the rules refuse it.
    const messages = input.trajectory.messages.map((message, index, all) =>
      index === all.length - 1 && message.role === 'assistant'
        ? { ...message, content: 'Link 4 is ¥88 tonight.' }
        : message,
    );
    const refused = await judge.judge({ ...input, trajectory: { ...input.trajectory, messages } });
    expect(refused.keep).toBe(false);
    expect(refused.reasons).toContain('accuracy 0 is below 1');
    expect(server.stats.requests).toBe(0);

    // The gold passes the rules, so the model is asked (three times) and has the last word.
    const kept = await judge.judge(input);
    expect(kept.keep).toBe(true);
    expect(server.stats.requests).toBe(3);
  });

  it('lets the model refuse what the rules keep in allOf', async () => {
    const { server, client } = await scripted('{"keep": false, "score": 0.4, "reasons": ["off-topic"]}');
    const verdict = await allOf([rulesJudge(), modelJudge({ model: client, request: {} })]).judge(input);
    expect(server.stats.requests).toBe(1);
    expect(verdict).toEqual({ keep: false, score: 0.4, reasons: ['off-topic'] });
  });
});
