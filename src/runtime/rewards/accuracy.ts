// The accuracy reward: the share of replies the user saw that state only grounded numbers, use no banned
// term and match no forbidden reply pattern (delivery promises), judged by the base harness's own hooks.
import { evaluateHook, type HookStep } from '../../harness/hook-engine.js';
import type { Harness, Hook, HookCheck } from '../../harness/schema.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { EpisodeTask } from '../episode-task.js';
import type { RewardFinding, RewardResult } from './reward.js';
import { splitTurns } from './turns.js';

/** One reply the user saw, and whether it broke a rule. */
export interface ReplyCheck {
  turn: number;
  message: number;
  /** Set when the reply is a hook's fallback or block message. */
  event?: 'hook_fallback' | 'hook_blocked';
  accurate: boolean;
}

export interface AccuracyDetails {
  replies: ReplyCheck[];
  /** `ungrounded_number`, `banned_term` and `forbidden_pattern`, one per failed rule and reply. */
  findings: RewardFinding[];
}

type NumbersCheck = Extract<HookCheck, { type: 'numbers_grounded' }>;

/** Used when the harness has no numbers_grounded hook: the default sources of that check, nothing ignored. */
const defaultNumbersCheck: NumbersCheck = {
  type: 'numbers_grounded',
  sources: ['tool_results', 'user'],
  ignore: [],
};

/** A hook that only evaluates a check: a `block` action renders no feedback template. */
const probe = (id: string, check: HookCheck): Hook => ({
  id,
  stage: 'post_reply',
  enabled: true,
  check,
  onFail: { action: 'block' },
});

/** The rules a reply is held to, read once from the harness's enabled hooks. */
function replyRules(harness: Harness): { code: string; hook: Hook }[] {
  const enabled = harness.hooks.items.filter((hook) => hook.enabled);
  const numberHooks = enabled.filter((hook) => hook.check.type === 'numbers_grounded');
  const numbers =
    numberHooks.length > 0 ? numberHooks : [probe('default_numbers_grounded', defaultNumbersCheck)];
  const rules: { code: string; hook: Hook }[] = numbers.map((hook) => ({
    code: 'ungrounded_number',
    hook: probe(hook.id, hook.check),
  }));
  for (const hook of enabled) {
    if (hook.check.type === 'banned_terms')
      rules.push({ code: 'banned_term', hook: probe(hook.id, hook.check) });
    else if (
      hook.check.type === 'regex' &&
      hook.check.mode === 'must_not' &&
      (hook.stage === 'pre_reply' || hook.stage === 'post_reply')
    )
      rules.push({ code: 'forbidden_pattern', hook: probe(hook.id, hook.check) });
  }
  return rules;
}

function offendingValues(code: string, details: Record<string, unknown>): string[] {
  const value =
    code === 'ungrounded_number' ? details.numbers : code === 'banned_term' ? details.found : [details.match];
  return Array.isArray(value) ? value.map(String) : [];
}

/**
 * Scores the replies the user saw: the final assistant text of each turn that no hook rejected (fallback
 * and block messages included). A reply is accurate when every number in it is grounded (as the harness's
 * numbers_grounded hooks define it, over the successful tool results and user messages before it), it
 * uses no term of any banned_terms hook, and it matches no must_not regex of a reply-stage hook. The score
 * is the share of accurate replies; 1 when no reply was seen.
 *
 * @example
 * const { score, details } = accuracyReward(trajectory, harness);
 * // 0.5, details.findings: [{ code: 'banned_term', turn: 1, message: 9, reason: '…', values: ['best'] }]
 */
export function accuracyReward(
  trajectory: Trajectory,
  harness: Harness,
  _task?: EpisodeTask,
): RewardResult<AccuracyDetails> {
  const rules = replyRules(harness);
  const turns = splitTurns(trajectory, harness);
  // Successful registry results and user messages, by message index, to take those before each reply.
  const toolResults: { at: number; content: string }[] = [];
  for (const turn of turns)
    for (const call of turn.calls)
      if (call.kind === 'registry' && call.status === 'ok' && call.result !== undefined) {
        const message = trajectory.messages[call.result];
        if (message?.role === 'tool') toolResults.push({ at: call.result, content: message.content });
      }
  const replies: ReplyCheck[] = [];
  const findings: RewardFinding[] = [];
  for (const turn of turns) {
    const reply = turn.reply;
    if (!reply) continue;
    const step: HookStep = {
      stage: 'post_reply',
      text: reply.text,
      toolResults: toolResults.filter((result) => result.at < reply.message).map((result) => result.content),
      userMessages: turns.filter((other) => other.index <= turn.index).map((other) => other.user),
      context: trajectory.context,
    };
    let accurate = true;
    for (const rule of rules) {
      const outcome = evaluateHook(rule.hook, step, harness);
      if (outcome.pass) continue;
      accurate = false;
      findings.push({
        code: rule.code,
        turn: turn.index,
        message: reply.message,
        reason: `reply ${outcome.reason} (hook "${rule.hook.id}")`,
        values: offendingValues(rule.code, outcome.details),
      });
    }
    replies.push({
      turn: turn.index,
      message: reply.message,
      ...(reply.event ? { event: reply.event } : {}),
      accurate,
    });
  }
  const accurate = replies.filter((reply) => reply.accurate).length;
  return { score: replies.length === 0 ? 1 : accurate / replies.length, details: { replies, findings } };
}
