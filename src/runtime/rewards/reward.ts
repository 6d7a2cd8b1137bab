// The shapes every reward shares: a score with details, and findings that name exactly what was wrong and
// where, so that a user can debug a reward from its output alone.
import type { Harness } from '../../harness/schema.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { EpisodeTask } from '../episode-task.js';

/**
 * One thing a reward held against a trajectory. `code` is stable snake_case; `turn` is the 0-based user
 * turn; `message` indexes `trajectory.messages`; `call` is the position in that message's `tool_calls`.
 */
export interface RewardFinding {
  code: string;
  turn: number;
  message?: number;
  call?: number;
  /** A plain English sentence saying what was wrong. */
  reason: string;
  /** The offending values: numbers, terms, the matched text, tool or skill names. */
  values?: string[];
}

/** A reward's value and the evidence for it. Scores are exact numbers, never rounded. */
export interface RewardResult<Details> {
  score: number;
  details: Details;
}

/** A reward over one trajectory in the base harness's vocabulary, the base harness and the gold task. */
export type RewardFunction<Details> = (
  trajectory: Trajectory,
  harness: Harness,
  task: EpisodeTask,
) => RewardResult<Details>;

/**
 * Formats a finding as one readable line.
 *
 * @example
 * formatFinding({ code: 'banned_term', turn: 0, message: 6, reason: 'reply uses banned term(s): best' })
 * // 'turn 0, message 6: reply uses banned term(s): best [banned_term]'
 */
export function formatFinding(finding: RewardFinding): string {
  const where = [`turn ${finding.turn}`];
  if (finding.message !== undefined) where.push(`message ${finding.message}`);
  if (finding.call !== undefined) where.push(`call ${finding.call}`);
  return `${where.join(', ')}: ${finding.reason} [${finding.code}]`;
}
