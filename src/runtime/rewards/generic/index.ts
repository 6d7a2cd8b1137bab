// The generic rewards, for any scenario: tool-call match, skill selection, hook compliance, grounding, and
// an optional judge's reply score; all read in the base vocabulary.
export { type GroundingDetails, groundingReward, quotedFacts, type ReplyGrounding } from './grounding.js';
export {
  type HookComplianceDetails,
  hookComplianceReward,
  type TurnHookCompliance,
} from './hook-compliance.js';
export { type JudgeRepliesOptions, judgeReplies, withReplyScore } from './judge-replies.js';
export {
  type GenericRewardName,
  type GenericRewardWeights,
  type GenericScoreDetails,
  genericRewardNames,
  type ScoreGenericOptions,
  scoreGeneric,
} from './score-generic.js';
export { genericSkillSelectionReward } from './skill-selection.js';
export {
  comparedCalls,
  type MatchedCall,
  type ToolCallMatchDetails,
  toolCallMatchReward,
} from './tool-call-match.js';
