// Scoring of one played episode, in one place: the scenario's own rewards when it has them, else the
// generic rewards (tool-call match, skill selection, hook compliance, grounding) against the episode's gold.
import { scoreGeneric } from './rewards/generic/score-generic.js';
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
  return scenario.rewards ? scenario.rewards(rest) : scoreGeneric(rest);
}
