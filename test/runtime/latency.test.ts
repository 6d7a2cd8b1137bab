// Latency replay against a loopback OpenAI-compatible server that delays each answer by a seeded amount
// (1–3 s, uniform): the reported model-call, first-token and turn percentiles are never below the
// percentiles of the delays the server injected (a call cannot end before its answer) and never above them
// by more than 5% plus what a loaded machine adds: the event loop's own worst delay during the run
// (server and client share this process), counted for each of the callbacks a call waits on. Every turn of
// every episode is counted. The harness has no hooks, so each turn is one model call. Markdown and HTML render.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timedChatModel } from '../../src/adapters/inference/index.js';
import { createOpenAICompatible } from '../../src/adapters/openai/index.js';
import { createRandom } from '../../src/augment/random.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { type LatencyReport, replayLatency } from '../../src/runtime/latency.js';
import { renderLatencyHtml, renderLatencyMarkdown } from '../../src/runtime/latency-report.js';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../support/fake-openai-server.js';
import { tinyScenario } from '../support/tiny-scenario.js';
import { travelHarnessInput } from '../support/travel-harness.js';

const delayOf = (index: number) => Math.round(1000 + 2000 * createRandom(`latency:${index}`).next());
const harness = parseHarness({ ...travelHarnessInput(), hooks: { version: '1', items: [] } });

/** The nearest-rank percentile of a list. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

let server: FakeOpenAIServer;
let report: LatencyReport;
/** The event loop's worst delay during the replay, in ms. */
let loopLagMs = 0;

beforeAll(async () => {
  server = await startFakeOpenAIServer({
    respond: () => ({ content: 'Basic fares include 8 kg of cabin baggage.' }),
    faults: (index) => ({ delayMs: delayOf(index) }),
    sse: { writeSizes: [] },
  });
  const model = timedChatModel(createOpenAICompatible({ baseURL: server.url, model: 'fake', maxRetries: 0 }));
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  report = await replayLatency({
    scenario: tinyScenario(),
    harness,
    model,
    episodes: 36,
    concurrency: 12,
    deadlineMs: 2500,
  });
  lag.disable();
  loopLagMs = lag.max / 1e6;
}, 30_000);
afterAll(() => server.close());

describe('latency replay', () => {
  it('counts every episode, turn and model call the server answered', () => {
    expect(report.errors).toEqual({ episodes: 0, messages: [] });
    expect(report.episodes).toBe(36);
    // 1, 2 or 3 passenger messages by episode index: 12 episodes each.
    expect(report.turns).toBe(72);
    expect(report.turnsPerEpisode).toEqual({ mean: 2, min: 1, max: 3 });
    expect(report.modelCalls).toBe(server.stats.requests);
    expect(report.modelCalls).toBe(report.turns);
  });

  it('reports model-call and first-token percentiles at or just above the injected delays', () => {
    const injected = server.requests.map((request) => delayOf(request.index));
    expect(injected.length).toBe(72);
    for (const measured of [report.modelCall, report.timeToFirstToken!, report.turn]) {
      for (const p of [50, 95, 99] as const) {
        const expected = percentile(injected, p);
        // A timer may fire up to a millisecond early; nothing else can make a call shorter than its delay.
        expect(measured[`p${p}`], `P${p}`).toBeGreaterThanOrEqual(expected * 0.99);
        // The server's timer, the client's read and the loop's continuation may each wait out the worst lag.
        expect(measured[`p${p}`], `P${p}`).toBeLessThan(expected * 1.05 + 3 * loopLagMs);
      }
    }
    // No call can be under the deadline unless its injected delay was.
    const injectedUnder = (limit: number) =>
      injected.filter((delay) => delay <= limit).length / injected.length;
    expect(report.underDeadline).toBeLessThanOrEqual(injectedUnder(2500) + 1e-4); // the report rounds to 4 places
  });

  it('renders Markdown and an offline HTML page with the chart', () => {
    const markdown = renderLatencyMarkdown(report);
    expect(markdown).toContain('| turn (end to end) | 72 |');
    expect(markdown).toContain('time to first token');
    const html = renderLatencyHtml(report);
    expect(html.match(/<svg/g)?.length).toBe(1);
    expect(html).not.toMatch(/(src|href)="https?:/);
  });
});
