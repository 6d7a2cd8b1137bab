// How many assistant messages one user turn may take before the runtime cuts it, and how a cut turn is
// told apart from a finished one. Real harnesses run long turns (τ-bench-style airline tasks take 20+ tool
// steps in one turn), so the default is generous, and a replay never cuts a logged turn shorter than the
// log: its limit is at least the gold's longest turn. A cut turn is `truncated`, never a finished replay.
import { HarnessAugmentError } from '../harness/issues.js';
import type { Trajectory } from '../trajectory/schema.js';

/** Why a turn ended. */
export type TurnEnd = 'reply' | 'hook_blocked' | 'hook_fallback' | 'step_limit';

/**
 * The default step limit of a turn: assistant messages (tool steps, replies and rejected attempts).
 * OpenAI's Agents SDK stops at 10 turns, LangGraph at 25 graph steps, τ-bench at 30 steps per task; 50
 * leaves room for each.
 */
export const DEFAULT_MAX_STEPS_PER_TURN = 50;

/**
 * The most assistant messages any user turn of a trajectory holds (hook feedback stays in its turn).
 *
 * @example
 * longestTurnSteps(gold) // 22
 */
export function longestTurnSteps(trajectory: Trajectory | undefined): number {
  let longest = 0;
  let current = 0;
  for (const message of trajectory?.messages ?? []) {
    if (message.role === 'user' && !message.hsa) current = 0;
    // Block and fallback messages are the runtime's, not a step of the agent.
    else if (message.role === 'assistant' && (!message.hsa || message.hsa.event === 'hook_rejected'))
      longest = Math.max(longest, ++current);
  }
  return longest;
}

/**
 * The step limit of an episode: the one asked for, else the default raised to the gold's longest turn.
 *
 * @example
 * stepLimitFor(undefined, gold) // 50, or more when a logged turn is longer
 * stepLimitFor(12, gold) // 12: asked for, the episode may then be truncated
 */
export function stepLimitFor(asked: number | undefined, gold?: Trajectory): number {
  if (asked !== undefined) {
    if (!Number.isInteger(asked) || asked < 1)
      throw new HarnessAugmentError(`the step limit must be a positive integer, got ${asked}`, {
        kind: 'usage',
      });
    return asked;
  }
  return Math.max(DEFAULT_MAX_STEPS_PER_TURN, longestTurnSteps(gold));
}

/**
 * The 0-based turns the step limit cut, from how each turn ended.
 *
 * @example
 * truncatedTurns(['reply', 'step_limit']) // [1]
 */
export function truncatedTurns(ends: readonly (TurnEnd | undefined)[]): number[] {
  return ends.flatMap((end, turn) => (end === 'step_limit' ? [turn] : []));
}

/** The deviation a truncated turn reports, so that a cut replay is never read as the log. */
export function truncationDeviation(turn: number, limit: number): string {
  return `turn ${turn}: cut at the step limit (${limit} steps); raise --max-steps to play the whole turn`;
}
