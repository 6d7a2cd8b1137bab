// The generic skill-selection reward: the skills each turn loaded, in the base vocabulary, against the
// gold labels, with the labels normalised through the variant's relabel so that a merged skill counts as
// the skills it merges.

import { invertOutput, type Relabel, relabelMessages } from '../../../trajectory/relabel.js';
import type { AssistantMessage } from '../../../trajectory/schema.js';
import type { EpisodeTask } from '../../episode-task.js';
import type { ScoreInput } from '../../scenario.js';
import type { RewardResult } from '../reward.js';
import { type SkillSelectionDetails, skillSelectionReward } from '../skill-selection.js';
import { genericView } from './view.js';

/**
 * Base skill ids as a variant's output reads back: each id moved forward through the relabel and mapped
 * back as a model's output is (so the sources of a merge read back as the merge's first source).
 */
function asReadBack(skills: readonly string[], relabel: Relabel, loader: { tool: string; argument: string }) {
  if (skills.length === 0) return [...skills];
  const message: AssistantMessage = {
    role: 'assistant',
    content: null,
    tool_calls: skills.map((skill, index) => ({
      id: `skill_${index}`,
      type: 'function' as const,
      function: { name: loader.tool, arguments: JSON.stringify({ [loader.argument]: skill }) },
    })),
  };
  const back = invertOutput(
    relabelMessages([message], relabel, 'forward', false),
    relabel,
  )[0] as AssistantMessage;
  return [
    ...new Set(
      (back.tool_calls ?? []).map((call, index) => {
        try {
          const value = (JSON.parse(call.function.arguments) as Record<string, unknown>)[loader.argument];
          return typeof value === 'string' ? value : (skills[index] as string);
        } catch {
          return skills[index] as string;
        }
      }),
    ),
  ];
}

/**
 * Scores which skills the episode loaded, as `skillSelectionReward` does (per turn, Jaccard of expected
 * and loaded; the mean over turns that expect or load any), read in the base vocabulary: the loads mapped
 * back through the variant's relabel, the task's labels normalised the same way.
 *
 * @example
 * genericSkillSelectionReward(input).score // 1 when every turn loaded exactly the gold's skills
 */
export function genericSkillSelectionReward(input: ScoreInput): RewardResult<SkillSelectionDetails> {
  const view = genericView(input);
  const relabel = view.relabel;
  const loader = view.base.skills.loader;
  const task: EpisodeTask = relabel
    ? {
        ...view.task,
        turns: view.task.turns.map((turn) => ({ ...turn, skills: asReadBack(turn.skills, relabel, loader) })),
      }
    : view.task;
  return skillSelectionReward(view.inBase, view.base, task);
}
