import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import type { Harness } from '../../src/harness/schema.js';
import {
  type Judge,
  type JudgeInput,
  type JudgeVerdict,
  majorityVote,
  rulesJudge,
} from '../../src/runtime/judge.js';
import { type Trajectory, TrajectorySchema } from '../../src/trajectory/schema.js';
import { projectRoot } from '../support/run-cli.js';
import { livestreamHarness, task } from './rewards/build.js';
import { goldTask } from './rewards/gold-task.js';

let harness: Harness;
let gold: Trajectory;
beforeAll(async () => {
  harness = await livestreamHarness();
  const line = readFileSync(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8').split(
    '\n',
  )[0]!;
  gold = TrajectorySchema.parse(JSON.parse(line));
});

const input = (): JudgeInput => ({ trajectory: gold, harness, task: goldTask(gold, harness) });

/** A judge that answers the given verdicts in turn, one per call. */
function scripted(name: string, ...verdicts: JudgeVerdict[]): Judge & { calls: number } {
  const judge = {
    name,
    calls: 0,
    async judge() {
      const verdict = verdicts[judge.calls % verdicts.length]!;
      judge.calls++;
      return verdict;
    },
  };
  return judge;
}

const keep = (score: number, ...reasons: string[]): JudgeVerdict => ({ keep: true, score, reasons });
const drop = (score: number, ...reasons: string[]): JudgeVerdict => ({ keep: false, score, reasons });

/** A judge that waits until its signal aborts (or, `deaf`, forever), and tells when it has started. */
function waiting(deaf = false) {
  let started!: () => void;
  const start = new Promise<void>((resolve) => {
    started = resolve;
  });
  const signals: AbortSignal[] = [];
  const judge: Judge = {
    name: deaf ? 'deaf' : 'patient',
    judge(_input, options) {
      signals.push(options!.signal!);
      started();
      return new Promise((_resolve, reject) => {
        if (!deaf) options?.signal?.addEventListener('abort', () => reject(options.signal!.reason));
      });
    },
  };
  return { judge, start, signals };
}

describe('rulesJudge', () => {
  it('keeps a valid gold trajectory with full rewards', async () => {
    expect(gold.id).toBe('ls-0001');
    const verdict = await rulesJudge().judge(input());
    expect(verdict).toEqual({ keep: true, score: 1, reasons: [] });
  });

  it('rejects a trajectory that fails validation and explains the accuracy it lost', async () => {
    const broken = structuredClone(gold);
    const last = broken.messages.at(-1)!;
    last.content = 'Best deal: link 4 is ¥69 live.';
    const verdict = await rulesJudge().judge({ ...input(), trajectory: broken });
    expect(verdict.keep).toBe(false);
    expect(verdict.score).toBe(0.75);
    expect(verdict.reasons).toEqual([
      expect.stringMatching(
        /^invalid trajectory: \$\.messages\[8\]\.content: hook "no_absolute_claims" fails on this reply/,
      ),
      'accuracy 0 is below 1',
      'accuracy: turn 0, message 8: reply uses banned term(s): best (hook "no_absolute_claims") [banned_term]',
    ]);
  });

  it('applies its thresholds', async () => {
    const harder = task({
      user: 'link 4 price?',
      skills: ['price_and_coupons'],
      tools: ['get_price_and_coupons', 'get_promotion_rules'],
    });
    const strict = await rulesJudge().judge({ ...input(), task: harder });
    expect(strict.keep).toBe(false);
    expect(strict.reasons.slice(0, 2)).toEqual([
      'effectiveness 0.5 is below 1',
      'effectiveness: turn 0: no successful result in this turn from "get_promotion_rules" [missing_tool_result]',
    ]);
    const lenient = await rulesJudge({ minEffectiveness: 0.5 }).judge({ ...input(), task: harder });
    expect(lenient.keep).toBe(true);
    const picky = await rulesJudge({ minEffectiveness: 0.5, minToolRationality: 0.9 }).judge({
      ...input(),
      task: harder,
    });
    expect(picky.keep).toBe(false);
    expect(picky.reasons[0]).toBe(`toolRationality ${(0.5 + 1 + 1) / 3} is below 0.9`);
  });

  it('rejects thresholds outside [0, 1] at once', () => {
    expect(() => rulesJudge({ minAccuracy: 2 })).toThrow(HarnessAugmentError);
  });

  it('rejects a trajectory of the wrong shape without scoring it', async () => {
    const verdict = await rulesJudge().judge({
      ...input(),
      trajectory: { id: 'x' } as unknown as Trajectory,
    });
    expect(verdict).toMatchObject({ keep: false, score: 0 });
    expect(verdict.reasons[0]).toMatch(/^invalid trajectory: \$\.messages/);
  });

  it('stops when its signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(rulesJudge().judge(input(), { signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('majorityVote', () => {
  it('keeps when more than half of three judges keep, with the median score and merged reasons', async () => {
    const vote = majorityVote([
      scripted('a', keep(0.9, 'grounded', 'polite')),
      scripted('b', drop(0.2, 'ungrounded 5000', 'grounded')),
      scripted('c', keep(0.6, 'polite', 'short')),
    ]);
    expect(vote.name).toBe('majority(a, b, c)');
    const verdict = await vote.judge(input());
    expect(verdict).toEqual({
      keep: true,
      score: 0.6,
      reasons: ['grounded', 'polite', 'ungrounded 5000', 'short'],
      votes: [
        keep(0.9, 'grounded', 'polite'),
        drop(0.2, 'ungrounded 5000', 'grounded'),
        keep(0.6, 'polite', 'short'),
      ],
    });
  });

  it('does not keep when only one of three keeps', async () => {
    const verdict = await majorityVote([
      scripted('a', drop(0.1)),
      scripted('b', keep(0.8)),
      scripted('c', drop(0.3)),
    ]).judge(input());
    expect(verdict).toMatchObject({ keep: false, score: 0.3 });
  });

  it('does not keep a tie; the median of an even count is the mean of the middle two', async () => {
    const two = await majorityVote([scripted('a', keep(1)), scripted('b', drop(0.5))]).judge(input());
    expect(two).toMatchObject({ keep: false, score: 0.75 });
    const four = await majorityVote([
      scripted('a', keep(0.9)),
      scripted('b', drop(0.1)),
      scripted('c', keep(0.7)),
      scripted('d', drop(0.3)),
    ]).judge(input());
    expect(four).toMatchObject({ keep: false, score: 0.5 });
  });

  it('runs one judge k times', async () => {
    const judge = scripted('model', keep(0.8, 'ok'), drop(0.4, 'vague'), keep(0.7, 'ok'));
    const vote = majorityVote({ judge, k: 3 });
    expect(vote.name).toBe('majority(3×model)');
    const verdict = await vote.judge(input());
    expect(judge.calls).toBe(3);
    expect(verdict).toMatchObject({ keep: true, score: 0.7, reasons: ['ok', 'vague'] });
    expect(verdict.votes).toHaveLength(3);
  });

  it('votes with rules judges', async () => {
    const verdict = await majorityVote({ judge: rulesJudge(), k: 3 }).judge(input());
    expect(verdict).toMatchObject({ keep: true, score: 1, reasons: [] });
  });

  it('rejects an empty panel, a bad k and a malformed verdict', async () => {
    expect(() => majorityVote([])).toThrow(HarnessAugmentError);
    expect(() => majorityVote({ judge: scripted('a', keep(1)), k: 0 })).toThrow(/positive integer/);
    expect(() => majorityVote({ judge: scripted('a', keep(1)), k: 1.5 })).toThrow(/positive integer/);
    const bad = scripted('bad', { keep: 'yes', score: 1, reasons: [] } as unknown as JudgeVerdict);
    await expect(majorityVote([bad]).judge(input())).rejects.toThrow(
      /judge "bad" returned a malformed verdict/,
    );
  });

  it('aborts every judge and rejects with the reason when its signal aborts', async () => {
    const patient = waiting();
    const deaf = waiting(true);
    const controller = new AbortController();
    const pending = majorityVote([patient.judge, deaf.judge]).judge(input(), { signal: controller.signal });
    await Promise.all([patient.start, deaf.start]);
    controller.abort(new Error('shutting down'));
    await expect(pending).rejects.toThrow('shutting down');
    expect([...patient.signals, ...deaf.signals].map((signal) => signal.aborted)).toEqual([true, true]);
  });

  it('does not start when its signal is already aborted', async () => {
    const judge = scripted('a', keep(1));
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(majorityVote([judge]).judge(input(), { signal: controller.signal })).rejects.toThrow(
      'too late',
    );
    expect(judge.calls).toBe(0);
  });

  it('fails with the first error of a judge and aborts the others', async () => {
    const patient = waiting();
    const failing: Judge = {
      name: 'failing',
      async judge() {
        await patient.start;
        throw new Error('endpoint returned 500');
      },
    };
    await expect(majorityVote([patient.judge, failing]).judge(input())).rejects.toThrow(
      'endpoint returned 500',
    );
    expect(patient.signals[0]?.aborted).toBe(true);
  });
});
