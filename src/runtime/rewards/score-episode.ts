// All four rewards of one episode at once, with a weighted total (equal weights by default) and the
// alignment between the task's turns and the trajectory's.
import { HarnessAugmentError } from '../../harness/issues.js';
import type { Harness } from '../../harness/schema.js';
import { invertOutput, type Relabel } from '../../trajectory/relabel.js';
import type { Trajectory } from '../../trajectory/schema.js';
import { type EpisodeTask, taskInVariant } from '../episode-task.js';
import { type AccuracyDetails, accuracyReward } from './accuracy.js';
import { type EffectivenessDetails, effectivenessReward } from './effectiveness.js';
import type { RewardFinding } from './reward.js';
import { type SkillSelectionDetails, skillSelectionReward } from './skill-selection.js';
import { type ToolRationalityDetails, toolRationalityReward } from './tool-rationality.js';
import { splitTurns } from './turns.js';

/** Relative weights of the four rewards in `total`; they need not sum to 1. */
export interface RewardWeights {
  accuracy: number;
  effectiveness: number;
  toolRationality: number;
  skillSelection: number;
}

/**
 * Equal weights: `total` is the plain mean of the four rewards.
 *
 * @example
 * defaultRewardWeights.accuracy // 1
 */
export const defaultRewardWeights: Readonly<RewardWeights> = Object.freeze({
  accuracy: 1,
  effectiveness: 1,
  toolRationality: 1,
  skillSelection: 1,
});

/** The four rewards of an episode, their weighted total, the weights and the details behind them. */
export interface EpisodeScore {
  accuracy: number;
  effectiveness: number;
  toolRationality: number;
  skillSelection: number;
  /** Σ weight × reward / Σ weight. */
  total: number;
  weights: RewardWeights;
  details: {
    accuracy: AccuracyDetails;
    effectiveness: EffectivenessDetails;
    toolRationality: ToolRationalityDetails;
    skillSelection: SkillSelectionDetails;
    /** `turn_count_mismatch` and `user_mismatch`: the task and the trajectory do not describe the same turns. */
    alignment: RewardFinding[];
  };
}

/** The weights of `scoreEpisode`'s total. */
export interface ScoreEpisodeOptions {
  /** Weights of `total`; missing ones keep their default of 1. */
  weights?: Partial<RewardWeights>;
}

const rewardNames = ['accuracy', 'effectiveness', 'toolRationality', 'skillSelection'] as const;

/** Σ weight × reward / Σ weight. */
function weightedTotal(scores: Record<(typeof rewardNames)[number], number>, weights: RewardWeights): number {
  let weighted = 0;
  let weightSum = 0;
  for (const name of rewardNames) {
    weighted += weights[name] * scores[name];
    weightSum += weights[name];
  }
  return weighted / weightSum;
}

function resolveWeights(partial: Partial<RewardWeights> | undefined): RewardWeights {
  const weights = { ...defaultRewardWeights, ...partial };
  for (const name of rewardNames) {
    const weight = weights[name];
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0)
      throw new HarnessAugmentError(`reward weight "${name}" must be a finite number ≥ 0, got ${weight}`, {
        kind: 'usage',
      });
  }
  if (rewardNames.every((name) => weights[name] === 0))
    throw new HarnessAugmentError('at least one reward weight must be greater than 0', { kind: 'usage' });
  return weights;
}

function alignment(trajectory: Trajectory, harness: Harness, task: EpisodeTask): RewardFinding[] {
  const turns = splitTurns(trajectory, harness);
  const findings: RewardFinding[] = [];
  if (turns.length !== task.turns.length)
    findings.push({
      code: 'turn_count_mismatch',
      turn: Math.min(turns.length, task.turns.length),
      reason: `the task has ${task.turns.length} turn(s), the trajectory ${turns.length}`,
    });
  task.turns.forEach((expected, index) => {
    const turn = turns[index];
    if (turn && turn.user !== expected.user)
      findings.push({
        code: 'user_mismatch',
        turn: index,
        message: turn.userMessage,
        reason: `the user message differs from the task's: ${JSON.stringify(expected.user)}`,
        values: [expected.user, turn.user],
      });
  });
  return findings;
}

/**
 * Scores one episode with the four rewards and their weighted total. The trajectory must be in the base
 * harness's vocabulary: map a variant's output back with the variant's relabel first.
 *
 * @example
 * const score = scoreEpisode(trajectory, harness, task);
 * score.total // (accuracy + effectiveness + toolRationality + skillSelection) / 4
 * scoreEpisode(trajectory, harness, task, { weights: { accuracy: 2 } }).total
 */
export function scoreEpisode(
  trajectory: Trajectory,
  harness: Harness,
  task: EpisodeTask,
  options: ScoreEpisodeOptions = {},
): EpisodeScore {
  const weights = resolveWeights(options.weights);
  const accuracy = accuracyReward(trajectory, harness, task);
  const effectiveness = effectivenessReward(trajectory, harness, task);
  const toolRationality = toolRationalityReward(trajectory, harness, task);
  const skillSelection = skillSelectionReward(trajectory, harness, task);
  const scores: Record<(typeof rewardNames)[number], number> = {
    accuracy: accuracy.score,
    effectiveness: effectiveness.score,
    toolRationality: toolRationality.score,
    skillSelection: skillSelection.score,
  };
  return {
    ...scores,
    total: weightedTotal(scores, weights),
    weights,
    details: {
      accuracy: accuracy.details,
      effectiveness: effectiveness.details,
      toolRationality: toolRationality.details,
      skillSelection: skillSelection.details,
      alignment: alignment(trajectory, harness, task),
    },
  };
}

/**
 * Scores an episode played under a variant of `base`. Tool rationality, skill selection and effectiveness
 * are read in the variant's own vocabulary (the gold labels moved there with `taskInVariant`, so a merged
 * skill counts as the skills it merges); accuracy is read in the base vocabulary against the base harness's
 * reply rules, since a variant may disable a hook its gold never tripped but a reply that breaks the
 * domain's rules is still inaccurate. Without a variant, plain `scoreEpisode` under the base.
 *
 * @example
 * const score = scoreVariantEpisode(played.trajectory, base, { harness: row.harness, relabel: row.relabel }, task);
 */
export function scoreVariantEpisode(
  trajectory: Trajectory,
  base: Harness,
  variant: { harness: Harness; relabel: Relabel } | undefined,
  task: EpisodeTask,
  options: ScoreEpisodeOptions = {},
): EpisodeScore {
  if (!variant) return scoreEpisode(trajectory, base, task, options);
  const score = scoreEpisode(trajectory, variant.harness, taskInVariant(task, variant.relabel), options);
  const inBase = { ...trajectory, messages: invertOutput(trajectory.messages, variant.relabel) };
  const accuracy = accuracyReward(inBase, base, task);
  const scores = { ...score, accuracy: accuracy.score };
  return {
    ...scores,
    total: weightedTotal(scores, score.weights),
    details: { ...score.details, accuracy: accuracy.details },
  };
}
