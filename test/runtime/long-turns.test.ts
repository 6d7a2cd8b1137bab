// Long turns (τ-bench-shaped airline logs, 23 and 25 steps in one turn): a replay under the default step
// limit is the log itself with every reward 1, in the simulator and in the environment service; a limit
// that cuts a turn marks the episode truncated (a deviation, `meta.truncated`, the step's `truncated`).
import { describe, expect, it } from 'vitest';
import { createEnvService } from '../../src/runtime/env/service.js';
import { simulate } from '../../src/runtime/sim/simulate.js';
import { DEFAULT_MAX_STEPS_PER_TURN, longestTurnSteps, stepLimitFor } from '../../src/runtime/step-limit.js';
import { createReplayScenario, scriptedTurns } from '../../src/scenarios/replay/index.js';
import { airlineGolds, airlineHarness } from '../support/airline.js';
import { hookChecks } from '../support/airline-checks.js';

const harness = airlineHarness();
const golds = await airlineGolds(harness);
const scenario = () => createReplayScenario({ trajectories: golds, hookChecks });

describe('long turns', () => {
  it('the logs hold turns longer than the old limit of 12', () => {
    expect(golds.map((gold) => longestTurnSteps(gold))).toEqual([23, 25]);
    expect(stepLimitFor(undefined, golds[0])).toBe(DEFAULT_MAX_STEPS_PER_TURN);
    // A logged turn longer than the default raises it: the replay is never cut shorter than its log.
    const long = {
      ...golds[0]!,
      messages: [
        { role: 'user' as const, content: 'hi' },
        ...Array.from({ length: 70 }, () => ({ role: 'assistant' as const, content: 'x' })),
      ],
    };
    expect(stepLimitFor(undefined, long)).toBe(70);
    expect(stepLimitFor(12, golds[0])).toBe(12);
  });

  it('replay under the default limit is the log itself, every reward 1', async () => {
    const played = [];
    for await (const episode of simulate({ scenario: scenario(), harness, hookChecks })) played.push(episode);
    expect(played).toHaveLength(2);
    for (const [index, episode] of played.entries()) {
      expect(episode.trajectory.messages).toEqual(golds[index]!.messages);
      expect(episode.truncatedTurns).toEqual([]);
      expect(episode.deviations).toEqual([]);
      expect(episode.trajectory.meta?.truncated).toBeUndefined();
      expect(Object.values(episode.rewards.rewards).every((value) => value === 1)).toBe(true);
      expect(episode.rewards.total).toBe(1);
    }
  });

  it('a limit that cuts a turn marks the episode truncated, never a whole replay', async () => {
    const played = [];
    for await (const episode of simulate({ scenario: scenario(), harness, hookChecks, maxStepsPerTurn: 12 }))
      played.push(episode);
    for (const episode of played) {
      expect(episode.truncatedTurns).toEqual([0]);
      expect(episode.maxStepsPerTurn).toBe(12);
      expect(
        episode.deviations.some((deviation) => deviation.includes('cut at the step limit (12 steps)')),
      ).toBe(true);
      expect(episode.trajectory.meta?.truncated).toEqual({ turns: [0], max_steps_per_turn: 12 });
      expect(episode.rewards.total).toBeLessThan(1);
    }
  });

  it('the environment service plays the whole log by default and says when a limit cuts a turn', async () => {
    for (const [limit, cut] of [
      [undefined, false],
      [12, true],
    ] as const) {
      const env = createEnvService({
        scenario: scenario(),
        harness,
        hookChecks,
        ...(limit ? { maxStepsPerTurn: limit } : {}),
      });
      const reset = await env.reset({ index: 0 });
      expect(reset.info.max_steps_per_turn).toBe(limit ?? DEFAULT_MAX_STEPS_PER_TURN);
      let truncated = false;
      let done = false;
      let reward = 0;
      for (const turn of scriptedTurns(golds[0]!)) {
        for (const message of turn) {
          if (done) break;
          const step = await env.step(reset.episode_id, message);
          done = step.done;
          reward = step.reward;
          if (step.info.truncated) {
            truncated = true;
            expect(step.info.end).toBe('step_limit');
            break;
          }
          if (step.info.end) break;
        }
      }
      expect(truncated).toBe(cut);
      if (!cut) {
        expect(done).toBe(true);
        expect(reward).toBe(1);
      }
      env.close();
    }
  });
});
