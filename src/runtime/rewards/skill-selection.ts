// The skill-selection reward: per turn, the Jaccard overlap of the skills the task expects and the skills the
// trajectory loaded through accepted loader calls; the mean over turns that expect or load any.
import type { Harness } from '../../harness/schema.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { EpisodeTask } from '../episode-task.js';
import type { RewardFinding, RewardResult } from './reward.js';
import { splitTurns } from './turns.js';

export interface TurnSkillSelection {
  turn: number;
  expected: string[];
  loaded: string[];
  /** |expected ∩ loaded| / |expected ∪ loaded|. */
  score: number;
}

export interface SkillSelectionDetails {
  /** The scored turns: those that expect a skill or load one. */
  turns: TurnSkillSelection[];
  /** `missing_skill` (expected, not loaded) and `extra_skill` (loaded, not expected), one per skill and turn. */
  findings: RewardFinding[];
}

/**
 * Scores which skills the episode loaded. For each turn that expects skills or loads any, the turn scores
 * |expected ∩ loaded| / |expected ∪ loaded|, where loaded are the skills named by accepted calls of the
 * harness's loader in that turn; the episode scores the mean, and 1 when no turn is scored.
 *
 * @example
 * skillSelectionReward(trajectory, harness, task).score // 0.5: loaded item_qa and size_advice, expected item_qa
 */
export function skillSelectionReward(
  trajectory: Trajectory,
  harness: Harness,
  task: EpisodeTask,
): RewardResult<SkillSelectionDetails> {
  const trajectoryTurns = splitTurns(trajectory, harness);
  const turnCount = Math.max(trajectoryTurns.length, task.turns.length);
  const turns: TurnSkillSelection[] = [];
  const findings: RewardFinding[] = [];
  for (let index = 0; index < turnCount; index++) {
    const expected = [...new Set(task.turns[index]?.skills ?? [])];
    const turn = trajectoryTurns[index];
    const loaded = turn?.loadedSkills ?? [];
    if (expected.length === 0 && loaded.length === 0) continue;
    const shared = expected.filter((skill) => loaded.includes(skill));
    const union = expected.length + loaded.length - shared.length;
    turns.push({ turn: index, expected, loaded: [...loaded], score: shared.length / union });
    for (const skill of expected)
      if (!loaded.includes(skill))
        findings.push({
          code: 'missing_skill',
          turn: index,
          reason: `expected skill "${skill}" was not loaded in this turn`,
          values: [skill],
        });
    for (const skill of loaded) {
      if (expected.includes(skill)) continue;
      const load = turn?.calls.find(
        (call) => call.kind === 'loader' && call.status === 'ok' && call.skill === skill,
      );
      findings.push({
        code: 'extra_skill',
        turn: index,
        ...(load ? { message: load.message, call: load.position } : {}),
        reason: `skill "${skill}" was loaded but the task does not expect it in this turn`,
        values: [skill],
      });
    }
  }
  const score = turns.length === 0 ? 1 : turns.reduce((sum, turn) => sum + turn.score, 0) / turns.length;
  return { score, details: { turns, findings } };
}
