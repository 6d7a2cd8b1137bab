// 200 requests at concurrency 16 against the fake server with about 10% injected faults (429, 5xx,
// connections dropped before and during the response), plain and streamed: every request completes with
// its own answer, and every injected fault shows up as exactly one retry.
import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '../../../src/adapters/openai/index.js';
import type { ChatCompletion } from '../../../src/runtime/chat-model.js';
import { seededFaults, startFakeOpenAIServer } from '../../support/fake-openai-server.js';

async function pool<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

describe('concurrency with injected faults', () => {
  it('completes 200 requests at concurrency 16 and retries every fault exactly once', async () => {
    let inFlight = 0;
    let peak = 0;
    const server = await startFakeOpenAIServer({
      respond: async (request) => {
        const question = String(request.messages.at(-1)?.content);
        const number = Number(question.split(' ')[1]);
        return number % 3 === 0
          ? {
              content: `答案 ${number}`,
              tool_calls: [{ id: `call_${number}`, name: 'lookup', arguments: { n: number } }],
            }
          : { content: `答案 ${number}` };
      },
      faults: seededFaults({
        rate: 0.1,
        seed: 'concurrency',
        kinds: [{ status: 429, retryAfter: 0 }, { status: 500 }, { status: 503 }, 'drop', 'drop-mid'],
      }),
    });
    try {
      const delays: number[] = [];
      // A connection closed before any response byte is sent again at once, without a wait (keep-alive).
      let resentAtOnce = 0;
      const client = createOpenAICompatible({
        onRetry: ({ reason, delayMs }) => {
          if (reason === 'connection' && delayMs === 0) resentAtOnce++;
        },
        baseURL: server.url,
        model: 'fake',
        timeoutMs: 30_000,
        sleep: async (ms) => {
          delays.push(ms);
        },
      });
      const results = await pool(200, 16, async (index): Promise<ChatCompletion> => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        const request = { messages: [{ role: 'user' as const, content: `task ${index}` }] };
        try {
          return index % 4 === 0 ? await client.completeStreaming(request) : await client.complete(request);
        } finally {
          inFlight--;
        }
      });

      results.forEach((completion, index) => {
        expect(completion.choices[0]!.message.content).toBe(`答案 ${index}`);
        expect(completion.choices[0]!.message.tool_calls?.[0]?.function.arguments).toBe(
          index % 3 === 0 ? JSON.stringify({ n: index }) : undefined,
        );
      });
      expect(peak).toBe(16);

      const faults = server.stats.faults;
      const injected = Object.values(faults).reduce((sum, count) => sum + count, 0);
      expect(injected).toBeGreaterThan(5);
      expect(injected).toBeLessThan(40);
      const stats = client.stats();
      expect(stats).toMatchObject({
        calls: 200,
        succeeded: 200,
        failed: 0,
        aborted: 0,
        retries: injected,
        requests: 200 + injected,
      });
      expect(server.stats.requests).toBe(200 + injected);
      expect(server.stats.answered).toBe(200);
      const expectedByReason: Record<string, number> = {};
      for (const [kind, count] of Object.entries(faults)) {
        const reason = kind.startsWith('http_') ? kind : 'connection';
        expectedByReason[reason] = (expectedByReason[reason] ?? 0) + count;
      }
      expect(stats.retriesByReason).toEqual(expectedByReason);
      // Each faulted request was retried: its second try is on record and succeeded.
      const retried = server.requests.filter((recorded) => recorded.attempt === 1);
      expect(retried).toHaveLength(injected);
      expect(retried.every((recorded) => recorded.fault === 'ok')).toBe(true);
      // Every other retry waited once; only connections dropped before a byte (the 'drop' fault) skip the wait.
      expect(resentAtOnce).toBeLessThanOrEqual(faults.drop ?? 0);
      expect(delays).toHaveLength(injected - resentAtOnce);
    } finally {
      await server.close();
    }
  });
});
