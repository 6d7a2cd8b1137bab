// The public surface of the rewards: four deterministic rewards, the episode score, and turn splitting.
export { type AccuracyDetails, accuracyReward, type ReplyCheck } from './accuracy.js';
export {
  type EffectivenessDetails,
  effectivenessReward,
  type TurnAnswer,
  type TurnEffectiveness,
} from './effectiveness.js';
export { formatFinding, type RewardFinding, type RewardFunction, type RewardResult } from './reward.js';
export {
  defaultRewardWeights,
  type EpisodeScore,
  type RewardWeights,
  type ScoreEpisodeOptions,
  scoreEpisode,
  scoreVariantEpisode,
} from './score-episode.js';
export {
  type SkillSelectionDetails,
  skillSelectionReward,
  type TurnSkillSelection,
} from './skill-selection.js';
export { type ToolRationalityDetails, toolRationalityReward } from './tool-rationality.js';
export {
  type CallStatus,
  splitTurns,
  type TurnEnding,
  type TurnToolCall,
  type UserTurn,
} from './turns.js';
