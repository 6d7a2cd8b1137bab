// Latency replay against a loopback OpenAI-compatible server that delays each answer by a seeded amount
// (1–3 s, uniform): the reported model-call, first-token and turn percentiles are within 5% of the
// percentiles of the delays the server injected (a statistical check on known inputs, not a timing of our
// own code: the delays are large against any overhead of a loaded machine), and every turn of every
// episode is counted. The harness has no hooks, so each turn is one model call. Markdown and HTML render.
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

beforeAll(async () => {
  server = await startFakeOpenAIServer({
    respond: () => ({ content: 'Basic fares include 8 kg of cabin baggage.' }),
    faults: (index) => ({ delayMs: delayOf(index) }),
    sse: { writeSizes: [] },
  });
  const model = timedChatModel(createOpenAICompatible({ baseURL: server.url, model: 'fake', maxRetries: 0 }));
  report = await replayLatency({
    scenario: tinyScenario(),
    harness,
    model,
    episodes: 36,
    concurrency: 12,
    deadlineMs: 2500,
  });
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

  it('reports model-call and first-token percentiles within 5% of the injected delays', () => {
    const injected = server.requests.map((request) => delayOf(request.index));
    expect(injected.length).toBe(72);
    for (const measured of [report.modelCall, report.timeToFirstToken!, report.turn]) {
      for (const p of [50, 95, 99] as const) {
        const expected = percentile(injected, p);
        expect(Math.abs(measured[`p${p}`] - expected) / expected, `P${p}`).toBeLessThan(0.05);
      }
    }
    // The share under the deadline is the share of injected delays under it, within the same 5%.
    const under = injected.filter((delay) => delay <= 2500 * 0.95).length / injected.length;
    expect(report.underDeadline).toBeGreaterThanOrEqual(under);
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
