// The generic rewards of one episode at once, for any scenario: tool-call match, skill selection, hook
// compliance and grounding, all read in the base vocabulary, with a weighted total.
import { HarnessAugmentError } from '../../../harness/issues.js';
import type { ScenarioScore, ScoreInput } from '../../scenario.js';
import type { RewardFinding } from '../reward.js';
import type { SkillSelectionDetails } from '../skill-selection.js';
import { type GroundingDetails, groundingReward } from './grounding.js';
import { type HookComplianceDetails, hookComplianceReward } from './hook-compliance.js';
import { genericSkillSelectionReward } from './skill-selection.js';
import { type ToolCallMatchDetails, toolCallMatchReward } from './tool-call-match.js';

/** The generic rewards, by the name they have in `ScenarioScore.rewards`. */
export const genericRewardNames = ['toolCallMatch', 'skillSelection', 'hookCompliance', 'grounding'] as const;
export type GenericRewardName = (typeof genericRewardNames)[number];

/** Relative weights of the total; missing ones are 1, they need not sum to 1. */
export type GenericRewardWeights = Record<GenericRewardName, number>;

/** The weights of `scoreGeneric`'s total. */
export interface ScoreGenericOptions {
  weights?: Partial<GenericRewardWeights>;
}

/** What `scoreGeneric` puts in `ScenarioScore.details`. */
export interface GenericScoreDetails {
  weights: GenericRewardWeights;
  toolCallMatch: ToolCallMatchDetails;
  skillSelection: SkillSelectionDetails;
  hookCompliance: HookComplianceDetails;
  grounding: GroundingDetails;
}

function resolveWeights(partial: Partial<GenericRewardWeights> | undefined): GenericRewardWeights {
  const weights = { toolCallMatch: 1, skillSelection: 1, hookCompliance: 1, grounding: 1, ...partial };
  for (const name of genericRewardNames) {
    const weight = weights[name];
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0)
      throw new HarnessAugmentError(`reward weight "${name}" must be a finite number ≥ 0, got ${weight}`, {
        kind: 'usage',
      });
  }
  if (genericRewardNames.every((name) => weights[name] === 0))
    throw new HarnessAugmentError('at least one reward weight must be greater than 0', { kind: 'usage' });
  return weights;
}

/**
 * Scores one episode with the generic rewards. The trajectory is the one played (under the variant, when
 * there is one); every reward reads it mapped back to the base vocabulary through the variant's relabel,
 * against the episode's gold labels and gold trajectory. Synchronous; a model judge's reply score is a
 * separate step (`judgeReplies`, `withReplyScore`).
 *
 * @example
 * const score = scoreGeneric({ base, seed, episode, trajectory, variant });
 * score.rewards // { toolCallMatch: 1, skillSelection: 1, hookCompliance: 1, grounding: 1 }
 */
export function scoreGeneric(input: ScoreInput, options: ScoreGenericOptions = {}): ScenarioScore {
  const weights = resolveWeights(options.weights);
  const toolCallMatch = toolCallMatchReward(input);
  const skillSelection = genericSkillSelectionReward(input);
  const hookCompliance = hookComplianceReward(input);
  const grounding = groundingReward(input);
  const rewards: Record<GenericRewardName, number> = {
    toolCallMatch: toolCallMatch.score,
    skillSelection: skillSelection.score,
    hookCompliance: hookCompliance.score,
    grounding: grounding.score,
  };
  let weighted = 0;
  let weightSum = 0;
  for (const name of genericRewardNames) {
    weighted += weights[name] * rewards[name];
    weightSum += weights[name];
  }
  const findings: RewardFinding[] = [
    ...toolCallMatch.details.findings,
    ...skillSelection.details.findings,
    ...hookCompliance.details.findings,
    ...grounding.details.findings,
  ];
  const details: GenericScoreDetails = {
    weights,
    toolCallMatch: toolCallMatch.details,
    skillSelection: skillSelection.details,
    hookCompliance: hookCompliance.details,
    grounding: grounding.details,
  };
  return {
    total: weighted / weightSum,
    rewards,
    findings,
    details: details as unknown as Record<string, unknown>,
  };
}
