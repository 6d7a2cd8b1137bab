// Latency replay with a duration: the plan is replayed round after round until the (injected) clock says
// the time is up, each turn measured on that clock; without a duration, one pass over the plan.
import { describe, expect, it } from 'vitest';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { ChatModel } from '../../src/runtime/chat-model.js';
import { replayLatency } from '../../src/runtime/latency.js';
import { tinyScenario } from '../support/tiny-scenario.js';
import { travelHarnessInput } from '../support/travel-harness.js';

const harness = parseHarness({ ...travelHarnessInput(), hooks: { version: '1', items: [] } });
const model: ChatModel = {
  async complete() {
    return {
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: 'instant',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Basic fares include 8 kg.' },
          finish_reason: 'stop',
        },
      ],
    };
  },
};

describe('latency replay rounds', () => {
  it('replays the plan until the duration has passed', async () => {
    let clock = 0;
    // Every reading of the clock advances it by 10 ms: time passes only through the replay's own readings.
    const now = () => (clock += 10);
    const report = await replayLatency({
      scenario: tinyScenario(),
      harness,
      model,
      episodes: 3,
      durationMs: 1000,
      now,
    });
    expect(report.episodes).toBeGreaterThan(3);
    expect(report.errors.episodes).toBe(0);
    // One reading at each turn's start and end: every turn took 10 ms (HDR histograms keep 3 digits).
    for (const value of [report.turn.p50, report.turn.p99, report.turn.max])
      expect(Math.abs(value - 10)).toBeLessThan(0.01);
    expect(report.underDeadline).toBe(1);
  });

  it('plays each planned episode once without a duration', async () => {
    const report = await replayLatency({
      scenario: tinyScenario(),
      harness,
      model,
      episodes: 5,
      concurrency: 2,
    });
    expect(report.episodes).toBe(5);
    // Episodes of 1, 2, 3, 1 and 2 turns.
    expect(report.turns).toBe(9);
    expect(report.timeToFirstToken).toBeUndefined();
  });
});

describe('latency replay against an endpoint that fails at once', () => {
  it('waits between failed episodes, doubling up to 5 s, instead of a tight loop', async () => {
    let clock = 0;
    const now = () => (clock += 1);
    const waits: number[] = [];
    const refused: ChatModel = {
      async complete() {
        throw new Error('connect ECONNREFUSED 127.0.0.1:9');
      },
    };
    const report = await replayLatency({
      scenario: tinyScenario(),
      harness,
      model: refused,
      episodes: 3,
      durationMs: 20_000,
      now,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    });
    // 100 + 200 + … + 3200 = 6.3 s, then 5 s per failure: about 7 s + 3 × 5 s for 20 s of clock.
    expect(waits.slice(0, 8)).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000]);
    expect(report.errors.episodes).toBe(waits.length);
    expect(report.errors.episodes).toBeLessThan(15);
    expect(report.errors.messages).toEqual(['connect ECONNREFUSED 127.0.0.1:9']);
  });
});
