// Judges decide whether a regenerated (variant, trajectory) pair is kept. The interface is async and
// abortable so that a model-based judge fits as an adapter; the rules judge here is built on the rewards and
// the trajectory validator, and majorityVote combines several judges (or one judge run k times).
import { formatIssue, HarnessAugmentError } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';
import type { Trajectory } from '../trajectory/schema.js';
import { type ValidateTrajectoryOptions, validateTrajectory } from '../trajectory/validate-trajectory.js';
import type { EpisodeTask } from './episode-task.js';
import { formatFinding, type RewardFinding } from './rewards/reward.js';
import { type RewardWeights, scoreEpisode } from './rewards/score-episode.js';

/** What a judge looks at: a trajectory in the base harness's vocabulary, the base harness and the gold task. */
export interface JudgeInput {
  trajectory: Trajectory;
  harness: Harness;
  task: EpisodeTask;
}

/** A judge's decision: keep the example or not, a score in [0, 1], and why. */
export interface JudgeVerdict {
  keep: boolean;
  score: number;
  reasons: string[];
}

/** Per-judgement options of a `Judge`: an abort signal. */
export interface JudgeOptions {
  /** Aborts the judgement; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Anything that judges an episode: the rules judge, a vote of judges, or a model behind an adapter. */
export interface Judge {
  readonly name: string;
  judge(input: JudgeInput, options?: JudgeOptions): Promise<JudgeVerdict>;
}

/** The lowest rewards `rulesJudge` keeps. */
export interface RulesJudgeOptions {
  /** Lowest accuracy kept (default 1). */
  minAccuracy?: number;
  /** Lowest effectiveness kept (default 1). */
  minEffectiveness?: number;
  /** Lowest tool rationality kept (default 0). */
  minToolRationality?: number;
  /** Lowest skill selection kept (default 0). */
  minSkillSelection?: number;
  /** Lowest weighted total kept (default 0). */
  minTotal?: number;
  /** Weights of the total, which is also the verdict's score (default equal). */
  weights?: Partial<RewardWeights>;
  /** Options of the trajectory validation that must pass (default: every check). */
  validation?: ValidateTrajectoryOptions;
}

const thresholdNames = [
  ['minAccuracy', 'accuracy'],
  ['minEffectiveness', 'effectiveness'],
  ['minToolRationality', 'toolRationality'],
  ['minSkillSelection', 'skillSelection'],
  ['minTotal', 'total'],
] as const;

function checkThreshold(name: string, value: number) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new HarnessAugmentError(`rulesJudge: ${name} must be a number in [0, 1], got ${value}`, {
      kind: 'usage',
    });
}

/**
 * A judge built on the rewards: it keeps an episode when the trajectory validates under the harness and
 * every reward reaches its threshold. Its score is the weighted total of the rewards; its reasons are the
 * validation issues, then for each reward below its threshold a line with the scores and that reward's
 * findings.
 *
 * @example
 * const verdict = await rulesJudge({ minAccuracy: 1, minEffectiveness: 0.5 }).judge({ trajectory, harness, task });
 * if (!verdict.keep) console.log(verdict.reasons.join('\n'));
 */
export function rulesJudge(options: RulesJudgeOptions = {}): Judge {
  const thresholds = {
    accuracy: options.minAccuracy ?? 1,
    effectiveness: options.minEffectiveness ?? 1,
    toolRationality: options.minToolRationality ?? 0,
    skillSelection: options.minSkillSelection ?? 0,
    total: options.minTotal ?? 0,
  };
  for (const [option, reward] of thresholdNames) checkThreshold(option, thresholds[reward]);
  return {
    name: 'rules',
    async judge(input, judgeOptions = {}) {
      judgeOptions.signal?.throwIfAborted();
      const validation = validateTrajectory(input.trajectory, input.harness, options.validation);
      const reasons = validation.issues.map((issue) => `invalid trajectory: ${formatIssue(issue)}`);
      // An invalid shape leaves nothing the rewards could read.
      if (!validation.trajectory) return { keep: false, score: 0, reasons };
      const score = scoreEpisode(validation.trajectory, input.harness, input.task, {
        ...(options.weights ? { weights: options.weights } : {}),
      });
      const findings: Record<(typeof thresholdNames)[number][1], RewardFinding[]> = {
        accuracy: score.details.accuracy.findings,
        effectiveness: score.details.effectiveness.findings,
        toolRationality: score.details.toolRationality.findings,
        skillSelection: score.details.skillSelection.findings,
        total: [],
      };
      let below = false;
      for (const [, reward] of thresholdNames) {
        if (score[reward] >= thresholds[reward]) continue;
        below = true;
        reasons.push(`${reward} ${score[reward]} is below ${thresholds[reward]}`);
        for (const finding of findings[reward]) reasons.push(`${reward}: ${formatFinding(finding)}`);
      }
      return { keep: validation.valid && !below, score: score.total, reasons };
    },
  };
}

/** The verdict of a vote, with each judge's verdict in judge order. */
export interface MajorityVerdict extends JudgeVerdict {
  votes: JudgeVerdict[];
}

/** A judge that votes; its verdicts carry the individual votes. */
export interface MajorityJudge extends Judge {
  judge(input: JudgeInput, options?: JudgeOptions): Promise<MajorityVerdict>;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function checkVerdict(judge: Judge, verdict: unknown): JudgeVerdict {
  const value = verdict as Partial<JudgeVerdict> | null;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof value.keep !== 'boolean' ||
    typeof value.score !== 'number' ||
    !Number.isFinite(value.score) ||
    !Array.isArray(value.reasons) ||
    !value.reasons.every((reason) => typeof reason === 'string')
  )
    throw new HarnessAugmentError(
      `judge "${judge.name}" returned a malformed verdict: expected { keep: boolean, score: number, reasons: string[] }`,
    );
  return { keep: value.keep, score: value.score, reasons: value.reasons };
}

/** Rejects with the signal's reason once it aborts, so that a judge ignoring its signal cannot hold the vote. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Combines judges by majority: runs every judge (or one judge k times) concurrently on the same input and
 * keeps when more than half of the votes keep; a tie is not kept. The score is the median of the votes'
 * scores (the mean of the two middle ones for an even count); the reasons are all votes' reasons in judge
 * order, each kept once. When one judge fails or the signal aborts, the others are aborted and the vote
 * rejects with that error.
 *
 * @example
 * const judge = majorityVote({ judge: modelJudge, k: 3 });
 * const { keep, score, votes } = await judge.judge({ trajectory, harness, task }, { signal });
 */
export function majorityVote(judges: readonly Judge[] | { judge: Judge; k: number }): MajorityJudge {
  let panel: Judge[];
  let name: string;
  if (Array.isArray(judges)) {
    panel = [...judges];
    name = `majority(${panel.map((judge) => judge.name).join(', ')})`;
  } else {
    const { judge, k } = judges as { judge: Judge; k: number };
    if (!Number.isInteger(k) || k < 1)
      throw new HarnessAugmentError(`majorityVote: k must be a positive integer, got ${k}`, {
        kind: 'usage',
      });
    panel = Array.from({ length: k }, () => judge);
    name = `majority(${k}×${judge.name})`;
  }
  if (panel.length === 0)
    throw new HarnessAugmentError('majorityVote needs at least one judge', { kind: 'usage' });
  return {
    name,
    async judge(input, options = {}) {
      const outer = options.signal;
      outer?.throwIfAborted();
      const controller = new AbortController();
      const forward = () => controller.abort(outer?.reason);
      outer?.addEventListener('abort', forward, { once: true });
      try {
        const votes = await untilAborted(
          Promise.all(
            panel.map(async (judge) => {
              try {
                return checkVerdict(judge, await judge.judge(input, { signal: controller.signal }));
              } catch (error) {
                controller.abort(error);
                throw error;
              }
            }),
          ),
          controller.signal,
        );
        const kept = votes.filter((vote) => vote.keep).length;
        const reasons = [...new Set(votes.flatMap((vote) => vote.reasons))];
        return {
          keep: kept * 2 > votes.length,
          score: median(votes.map((vote) => vote.score)),
          reasons,
          votes,
        };
      } finally {
        outer?.removeEventListener('abort', forward);
      }
    },
  };
}

/**
 * A judge that keeps only what every judge keeps, asked in order and stopping at the first refusal (a
 * cheap rules judge first spares the model judge's calls). Its score is the lowest score given.
 *
 * @example
 * const judge = allOf([rulesJudge(), majorityVote({ judge: modelJudge(options), k: 3 })]);
 */
export function allOf(judges: readonly Judge[]): Judge {
  if (judges.length === 0) throw new HarnessAugmentError('allOf needs at least one judge', { kind: 'usage' });
  return {
    name: judges.map((judge) => judge.name).join(' + '),
    async judge(input, options = {}) {
      let score = 1;
      const reasons: string[] = [];
      for (const judge of judges) {
        const verdict = checkVerdict(judge, await judge.judge(input, options));
        score = Math.min(score, verdict.score);
        reasons.push(...verdict.reasons);
        if (!verdict.keep) return { keep: false, score, reasons };
      }
      return { keep: true, score, reasons };
    },
  };
}
