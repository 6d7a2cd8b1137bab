// The meaning judge over an OpenAI-compatible endpoint (a loopback server): the request it sends, verdict
// parsing (anything that is not a verdict is "not the same"), bounded concurrency with verdicts in pair
// order, and a transport failure that rejects.
import { afterEach, describe, expect, it } from 'vitest';
import { createMeaningJudge, parseMeaningVerdict } from '../../../src/adapters/judge/meaning-judge.js';
import { createOpenAICompatible } from '../../../src/adapters/openai/index.js';
import type { MeaningPair } from '../../../src/pipeline/meaning-judge-spec.js';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../../support/fake-openai-server.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const pair = (index: number): MeaningPair => ({
  kind: 'skill_body',
  label: `skill s${index} body`,
  base: `Quote the price of item ${index}.`,
  variant: index % 2 === 0 ? `State the price of item ${index}.` : `Promise delivery of item ${index}.`,
});

describe('parseMeaningVerdict', () => {
  it('reads the verdict, ignoring a think block and prose around it', () => {
    expect(
      parseMeaningVerdict('<think>{"same": false}</think>Verdict: {"same": true, "reason": "reworded"}'),
    ).toEqual({
      same: true,
      reason: 'reworded',
    });
  });

  it('never passes what is not a verdict', () => {
    expect(parseMeaningVerdict(null)).toEqual({ same: false, reason: 'the judge gave no JSON verdict' });
    expect(parseMeaningVerdict('yes')).toEqual({ same: false, reason: 'the judge gave no JSON verdict' });
    expect(parseMeaningVerdict('{"same": "yes"}')).toEqual({
      same: false,
      reason: 'the verdict has no boolean "same"',
    });
    expect(parseMeaningVerdict('{"same": true} {"same": false}').same).toBe(false);
    expect(parseMeaningVerdict('{"same": tru}').reason).toBe('the judge answered invalid JSON');
  });
});

describe('createMeaningJudge', () => {
  it('asks one request per pair, at most `concurrency` at once, and gives verdicts in pair order', async () => {
    let inFlight = 0;
    let most = 0;
    server = await startFakeOpenAIServer({
      respond: async (request) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
        const question = String(request.messages.at(-1)?.content);
        const same = !question.includes('Promise delivery');
        return { content: JSON.stringify({ same, reason: same ? 'reworded' : 'adds a promise' }) };
      },
    });
    const judge = createMeaningJudge({
      model: createOpenAICompatible({ baseURL: server.url }),
      request: { model: 'judge', temperature: 0 },
      concurrency: 3,
      endpoint: server.url,
    });
    const pairs = Array.from({ length: 10 }, (_, index) => pair(index));
    const verdicts = await judge.judgeParts(pairs);
    expect(verdicts.map((verdict) => verdict.same)).toEqual(pairs.map((_, index) => index % 2 === 0));
    expect(verdicts[1]).toEqual({ same: false, reason: 'adds a promise' });
    expect(server.stats.requests).toBe(10);
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThan(1);
    // The request: the instructions, then the part with both texts, at the configured model and temperature.
    const body = server.requests[0]?.body as {
      model: string;
      temperature: number;
      messages: Array<{ role: string; content: string }>;
    };
    expect(body.model).toBe('judge');
    expect(body.temperature).toBe(0);
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(body.messages[0]?.content).toMatch(/require exactly what the base requires/);
    expect(body.messages[1]?.content).toMatch(
      /^Part: skill s\d body \(skill body\)\n\nBase text:\n<base>\nQuote the price/,
    );
    expect(judge.id).toMatch(/^meaning-v1:judge@http:\/\/127\.0\.0\.1:\d+\/v1:[0-9a-f]{12}$/);
  });

  it('names itself by its model and instructions, so verdicts of another judge are not reused', () => {
    const model = createOpenAICompatible({ baseURL: 'http://127.0.0.1:9/v1' });
    const a = createMeaningJudge({ model, request: { model: 'm' } });
    const b = createMeaningJudge({ model, request: { model: 'm' }, instructions: 'Be strict.' });
    const c = createMeaningJudge({ model, request: { model: 'm', temperature: 0.7 } });
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    expect(createMeaningJudge({ model, request: { model: 'm' } }).id).toBe(a.id);
  });

  it('rejects when the endpoint fails', async () => {
    server = await startFakeOpenAIServer({ faults: () => ({ status: 500 }) });
    const judge = createMeaningJudge({
      model: createOpenAICompatible({ baseURL: server.url, maxRetries: 0 }),
      request: { model: 'judge' },
    });
    await expect(judge.judgeParts([pair(0), pair(1)])).rejects.toThrow(/500/);
  });
});
