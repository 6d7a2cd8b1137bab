// The optional reply score of the generic rewards: a judge (the model judge behind an adapter, or any
// Judge) reads the episode in the base vocabulary, k times with a majority vote; asynchronous, so it is a
// step of its own beside the synchronous `scoreGeneric`.
import { HarnessAugmentError } from '../../../harness/issues.js';
import { type Judge, type JudgeVerdict, majorityVote } from '../../judge.js';
import type { ScenarioScore, ScoreInput } from '../../scenario.js';
import { genericView } from './view.js';

export interface JudgeRepliesOptions {
  judge: Judge;
  /** Votes of the judge; more than 1 takes the majority (`majorityVote`), default 1. */
  k?: number;
  signal?: AbortSignal;
}

/**
 * Asks a judge about the episode's replies: the judge gets the trajectory mapped back to the base
 * vocabulary, the base harness and the gold labels; with `k` > 1 the verdict is the majority of k votes
 * (its score the median).
 *
 * @example
 * const verdict = await judgeReplies(input, { judge: modelJudge({ model }), k: 3 });
 * const score = withReplyScore(scoreGeneric(input), verdict);
 */
export async function judgeReplies(input: ScoreInput, options: JudgeRepliesOptions): Promise<JudgeVerdict> {
  const k = options.k ?? 1;
  const judge = k === 1 ? options.judge : majorityVote({ judge: options.judge, k });
  const view = genericView(input);
  return judge.judge(
    { trajectory: view.inBase, harness: view.base, task: view.task },
    options.signal ? { signal: options.signal } : {},
  );
}

/**
 * Adds a judge's verdict to a score as the `reply` reward (its score), and recomputes the total with the
 * reply weighted `weight` beside the weights the score was made with.
 *
 * @example
 * withReplyScore(scoreGeneric(input), verdict, 2).rewards.reply
 */
export function withReplyScore(score: ScenarioScore, verdict: JudgeVerdict, weight = 1): ScenarioScore {
  if (!Number.isFinite(weight) || weight < 0)
    throw new HarnessAugmentError(`the reply weight must be a finite number ≥ 0, got ${weight}`, {
      kind: 'usage',
    });
  const weights = (score.details?.weights ?? {}) as Record<string, number>;
  let weighted = 0;
  let weightSum = 0;
  for (const [name, value] of Object.entries(score.rewards)) {
    if (name === 'reply') continue;
    const w = weights[name] ?? 1;
    weighted += w * value;
    weightSum += w;
  }
  weighted += weight * verdict.score;
  weightSum += weight;
  return {
    ...score,
    total: weightSum === 0 ? 0 : weighted / weightSum,
    rewards: { ...score.rewards, reply: verdict.score },
    details: { ...score.details, weights: { ...weights, reply: weight }, reply: verdict },
  };
}
