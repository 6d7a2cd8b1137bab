// The four task rewards (accuracy, effectiveness, tool rationality, skill selection) as a ScenarioScore:
// what a scenario whose episodes carry gold labels can use as its `rewards`, and the default scorer until
// the generic rewards take over.
import type { ScenarioScore, ScoreInput } from '../scenario.js';
import { type EpisodeScore, type ScoreEpisodeOptions, scoreVariantEpisode } from './score-episode.js';

/**
 * An EpisodeScore in the ScenarioScore shape: the four rewards by name, their total, every finding, and
 * the EpisodeScore's details.
 *
 * @example
 * asScenarioScore(scoreEpisode(trajectory, harness, task)).rewards.accuracy
 */
export function asScenarioScore(score: EpisodeScore): ScenarioScore {
  const { details } = score;
  return {
    total: score.total,
    rewards: {
      accuracy: score.accuracy,
      effectiveness: score.effectiveness,
      toolRationality: score.toolRationality,
      skillSelection: score.skillSelection,
    },
    findings: [
      ...details.accuracy.findings,
      ...details.effectiveness.findings,
      ...details.toolRationality.findings,
      ...details.skillSelection.findings,
      ...details.alignment,
    ],
    details: details as unknown as Record<string, unknown>,
  };
}

/**
 * Scores a played episode with the four task rewards against its gold labels (in the base vocabulary;
 * accuracy after mapping the play back, the others in the played harness's vocabulary).
 *
 * @example
 * const scenario = { ...myScenario, rewards: (input) => scoreTaskRewards(input) };
 */
export function scoreTaskRewards(input: ScoreInput, options: ScoreEpisodeOptions = {}): ScenarioScore {
  const variant = input.variant
    ? { harness: input.variant.harness, relabel: input.variant.relabel }
    : undefined;
  return asScenarioScore(
    scoreVariantEpisode(input.trajectory, input.base, variant, input.episode.task, options),
  );
}
