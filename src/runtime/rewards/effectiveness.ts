// The effectiveness reward: whether each user turn was answered (fully, partly or not at all), from how
// the turn ended and which of the task's tools returned a usable result; 1, 0.5 or 0 per episode.
import type { Harness } from '../../harness/schema.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { EpisodeTask, TurnTask } from '../episode-task.js';
import type { RewardFinding, RewardResult } from './reward.js';
import { splitTurns, type TurnEnding, type UserTurn } from './turns.js';

/** `full`: answered; `partial`: answered in part; `none`: not answered. */
export type TurnAnswer = 'full' | 'partial' | 'none';

export interface TurnEffectiveness {
  turn: number;
  answer: TurnAnswer;
  /** How the trajectory's turn ended; `missing` when the trajectory has no such turn. */
  ending: TurnEnding | 'missing';
  /** The task's tools (unique, in task order) with at least one successful result in the turn. */
  succeeded: string[];
  /** The task's tools without a successful result in the turn. */
  missing: string[];
  blockedBy?: string;
}

export interface EffectivenessDetails {
  turns: TurnEffectiveness[];
  /** `missing_turn`, `not_blocked`, `no_reply`, `missing_tool_result`, one or more per turn not fully answered. */
  findings: RewardFinding[];
}

const unique = (names: readonly string[]) => [...new Set(names)];

function judgeTurn(
  index: number,
  expected: TurnTask,
  turn: UserTurn | undefined,
  findings: RewardFinding[],
): TurnEffectiveness {
  const tools = unique(expected.tools);
  const blockedBy = expected.blockedBy;
  const base = { turn: index, ...(blockedBy ? { blockedBy } : {}) };
  if (!turn) {
    findings.push({ code: 'missing_turn', turn: index, reason: 'the trajectory has no user turn here' });
    return { ...base, answer: 'none', ending: 'missing', succeeded: [], missing: tools };
  }
  const succeeded = tools.filter((name) =>
    turn.calls.some((call) => call.kind === 'registry' && call.name === name && call.status === 'ok'),
  );
  const missing = tools.filter((name) => !succeeded.includes(name));
  const result = { ...base, ending: turn.ending, succeeded, missing };
  if (blockedBy) {
    if (turn.inputHook?.hook === blockedBy) return { ...result, answer: 'full' };
    findings.push({
      code: 'not_blocked',
      turn: index,
      message: turn.userMessage,
      reason: turn.inputHook
        ? `the message was stopped by "${turn.inputHook.hook}", not by input hook "${blockedBy}"`
        : `input hook "${blockedBy}" should have blocked or answered this message with its fallback`,
      values: [blockedBy],
    });
    return { ...result, answer: 'none' };
  }
  if (missing.length > 0)
    findings.push({
      code: 'missing_tool_result',
      turn: index,
      reason: `no successful result in this turn from ${missing.map((name) => `"${name}"`).join(', ')}`,
      values: missing,
    });
  if (turn.ending === 'reply') {
    if (missing.length === 0) return { ...result, answer: 'full' };
    return { ...result, answer: succeeded.length > 0 ? 'partial' : 'none' };
  }
  findings.push({
    code: 'no_reply',
    turn: index,
    ...(turn.ending === 'none' ? {} : { message: turn.end - 1 }),
    reason:
      turn.ending === 'none'
        ? 'the turn ended without a reply'
        : `the turn ended with the ${turn.ending === 'hook_fallback' ? 'fallback' : 'block'} of hook "${turn.endingHook}" instead of a reply`,
  });
  const partial = turn.ending === 'hook_fallback' && succeeded.length > 0;
  return { ...result, answer: partial ? 'partial' : 'none' };
}

/**
 * Scores whether the episode answered the user. A turn whose task names `blockedBy` is answered when that
 * input hook blocked it or fell back on it right after the user message. Any other turn is answered fully
 * when it ends with a normal reply and every task tool returned a successful result in the turn; partly
 * when a normal reply came after only some of them succeeded, or a fallback ended the turn after at least
 * one did. The episode scores 1 when every task turn is answered fully, 0 when none is answered even
 * partly, and 0.5 otherwise.
 *
 * @example
 * effectivenessReward(trajectory, harness, task).score // 0.5 when a two-question message got half an answer
 */
export function effectivenessReward(
  trajectory: Trajectory,
  harness: Harness,
  task: EpisodeTask,
): RewardResult<EffectivenessDetails> {
  const trajectoryTurns = splitTurns(trajectory, harness);
  const findings: RewardFinding[] = [];
  const turns = task.turns.map((expected, index) =>
    judgeTurn(index, expected, trajectoryTurns[index], findings),
  );
  const full = turns.filter((turn) => turn.answer === 'full').length;
  const none = turns.filter((turn) => turn.answer === 'none').length;
  const score = full === turns.length ? 1 : none === turns.length ? 0 : 0.5;
  return { score, details: { turns, findings } };
}
