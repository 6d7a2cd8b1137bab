// Scoring of one played episode, in one place: the scenario's own rewards when it has them, else the
// default scorer (the four task rewards against the episode's gold labels).
import { scoreTaskRewards } from './rewards/task-rewards.js';
import type { Scenario, ScenarioScore, ScoreInput } from './scenario.js';

/**
 * Scores a played episode (trajectory in the played harness's vocabulary).
 *
 * @example
 * const score = scoreScenarioEpisode({ scenario, base, seed, episode, trajectory, variant });
 * score.total; score.rewards; score.findings
 */
export function scoreScenarioEpisode(input: ScoreInput & { scenario: Scenario }): ScenarioScore {
  const { scenario, ...rest } = input;
  // The default scorer. At merge, the generic rewards (`scoreGeneric`, src/runtime/rewards/generic) take
  // this place; the live-stream scenario keeps the task rewards as its own `rewards`.
  return scenario.rewards ? scenario.rewards(rest) : scoreTaskRewards(rest);
}
