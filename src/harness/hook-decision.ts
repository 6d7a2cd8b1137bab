// The hook decision of one step of the agent loop, in one place: which hooks run at the stage (enabled,
// scoped to the call's tool), in harness order until one fails, and what the failure leads to — a retry with
// the rendered feedback while the hook's budget lasts, a block, a fallback — counted per turn. The trajectory
// validator and the runtime's Episode both call it, so they cannot drift apart.
import type { HookCheckRegistry } from './hook-checks.js';
import { evaluateHook, type HookOutcome, type HookStep, hookRunsOn } from './hook-engine.js';
import type { Harness, Hook, HookStage } from './schema.js';

/** A failed hook evaluation. */
export type HookFailure = Extract<HookOutcome, { pass: false }>;

/** The message that ends a turn after a hook blocked or fell back. */
export interface HookTurnEnd {
  event: 'hook_blocked' | 'hook_fallback';
  /** Content of the assistant message that ends the turn. */
  content: string;
}

/**
 * What a failure leads to once counted against its hook's budget for the turn:
 * - `retry`: the model gets `feedback` and tries again (budget left);
 * - `pass_through`: an input hook with budget left lets the user message through (it cannot be redone);
 * - `end`: the turn ends with a block or fallback message; `exhausted` when a retry budget ran out.
 */
export type HookConsequence =
  | { action: 'retry'; feedback: string }
  | { action: 'pass_through' }
  | { action: 'end'; end: HookTurnEnd; exhausted: boolean };

/** The decision of one stage of one step. */
export interface HookStageDecision {
  stage: HookStage;
  /** Ids of the hooks that ran, in order; the failing one, if any, is last. */
  evaluated: string[];
  /** The first failure, when a hook failed. */
  failure?: HookFailure;
  /** What the failure leads to (with `failure`). */
  consequence?: HookConsequence;
  /** Failures of the failing hook in this turn, this one included (with `failure`). */
  failures?: number;
}

/** A stage decision in which a hook failed: its failure, consequence and count are set. */
export type FailedHookDecision = HookStageDecision &
  Required<Pick<HookStageDecision, 'failure' | 'consequence' | 'failures'>>;

/**
 * Whether a hook failed in the decision.
 *
 * @example
 * if (hookFailed(decision)) countFailure(decision.failure.hook, decision.failures);
 */
export const hookFailed = (decision: HookStageDecision | undefined): decision is FailedHookDecision =>
  decision?.failure !== undefined;

/**
 * What `decideHooks` needs besides the step: failures so far per hook, the custom hook checks, a hook to
 * leave out.
 */
export interface DecideHooksOptions {
  /** Failures per hook id so far in this turn; a retry hook allows `maxRetries` of them. */
  failures?: ReadonlyMap<string, number>;
  hookChecks?: HookCheckRegistry | undefined;
  /** A hook left out (previews that ask what else would fail). */
  skip?: string;
}

/**
 * Decides one stage of a step: runs the hooks that run there in harness order (a hook scoped to tools only
 * for calls to them), stops at the first failure, and says what it leads to within the hook's retry budget.
 * Pure: the caller counts the failure (`failures`) when the step is taken.
 *
 * @example
 * const decision = decideHooks(harness, { stage: 'pre_tool', call, loadedSkills, toolCallsThisTurn: 1 }, { failures });
 * if (decision.consequence?.action === 'retry') feedbackTurn(decision.consequence.feedback);
 */
export function decideHooks(
  harness: Harness,
  step: HookStep,
  options: DecideHooksOptions = {},
): HookStageDecision {
  const evaluated: string[] = [];
  for (const hook of harness.hooks.items) {
    if (hook.id === options.skip || !hookRunsOn(hook, step)) continue;
    evaluated.push(hook.id);
    const before = options.failures?.get(hook.id) ?? 0;
    const outcome = evaluateHook(hook, step, harness, options.hookChecks, before + 1);
    if (outcome.pass) continue;
    return {
      stage: step.stage,
      evaluated,
      failure: outcome,
      consequence: consequenceOf(hook, outcome, before + 1, step.stage),
      failures: before + 1,
    };
  }
  return { stage: step.stage, evaluated };
}

/**
 * Decides a reply: the `pre_reply` hooks, then, when they all pass, the `post_reply` hooks. The last
 * decision holds the failure, if any.
 *
 * @example
 * const decisions = decideReplyHooks(harness, { text, loadedSkills, toolResults, userMessages }, { failures });
 * const failed = decisions.at(-1)?.failure;
 */
export function decideReplyHooks(
  harness: Harness,
  step: Omit<HookStep, 'stage'>,
  options: DecideHooksOptions = {},
): HookStageDecision[] {
  const before = decideHooks(harness, { ...step, stage: 'pre_reply' }, options);
  if (before.failure) return [before];
  return [before, decideHooks(harness, { ...step, stage: 'post_reply' }, options)];
}

function consequenceOf(
  hook: Hook,
  failure: HookFailure,
  failures: number,
  stage: HookStage,
): HookConsequence {
  const { onFail } = hook;
  if (onFail.action === 'retry') {
    if (failures <= onFail.maxRetries)
      return stage === 'input'
        ? { action: 'pass_through' }
        : { action: 'retry', feedback: failure.feedback ?? '' };
    return {
      action: 'end',
      exhausted: true,
      end:
        onFail.exhausted === 'fallback'
          ? { event: 'hook_fallback', content: onFail.fallback ?? '' }
          : { event: 'hook_blocked', content: '' },
    };
  }
  if (onFail.action === 'fallback')
    return { action: 'end', exhausted: false, end: { event: 'hook_fallback', content: onFail.reply } };
  return { action: 'end', exhausted: false, end: { event: 'hook_blocked', content: onFail.message ?? '' } };
}

/**
 * The content of the tool message that answers a call a `pre_tool` hook rejected: the feedback when the hook
 * retries, else a line saying which hook blocked it and why.
 *
 * @example
 * rejectedCallContent(decision) // 'blocked by hook "protected_accounts": email "ceo@example.com" is protected'
 */
export function rejectedCallContent(decision: HookStageDecision): string {
  const { failure, consequence } = decision;
  if (!failure) return '';
  return consequence?.action === 'retry'
    ? consequence.feedback
    : `blocked by hook "${failure.hook}": ${failure.reason}`;
}
