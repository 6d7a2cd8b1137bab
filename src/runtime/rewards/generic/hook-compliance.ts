// The hook-compliance reward: every hook failure of a turn (a rejected reply or call, a post_tool failure,
// a block or fallback) must be corrected: the turn still ends with a reply the harness accepted.
import type { ScoreInput } from '../../scenario.js';
import type { RewardFinding, RewardResult } from '../reward.js';
import { genericView } from './view.js';

export interface TurnHookCompliance {
  turn: number;
  /** Hooks (other than input hooks) that failed in the turn, in order of first failure. */
  failed: string[];
  /** How the turn ended. */
  ending: string;
  /** True when the turn ended with an accepted reply, or ended exactly as the gold's turn ends. */
  complies: boolean;
}

export interface HookComplianceDetails {
  /** The turns in which some hook failed. */
  turns: TurnHookCompliance[];
  /** `uncorrected_hook_failure`, one per turn that does not comply. */
  findings: RewardFinding[];
}

/**
 * Scores whether the agent corrected what the hooks held against it. A turn is scored when a hook other
 * than an input hook failed in it (input hooks judge the user's message, not the agent); it complies when
 * it still ends with a reply no hook rejected, or when it ends with the same hook's block or fallback as
 * the gold's turn (the log's own behaviour, e.g. a tool budget the task is built to exhaust). The score is
 * the share of complying turns, 1 when no hook failed. Hook ids do not change under a variant, so the
 * played trajectory is read as it is.
 *
 * @example
 * hookComplianceReward(input).score // 0.5: one of two turns with a failure ended in a fallback
 */
export function hookComplianceReward(input: ScoreInput): RewardResult<HookComplianceDetails> {
  const view = genericView(input);
  const stages = new Map(
    [...view.base.hooks.items, ...view.played.hooks.items].map((hook) => [hook.id, hook.stage]),
  );
  const messages = view.trajectory.messages;
  const turns: TurnHookCompliance[] = [];
  const findings: RewardFinding[] = [];
  for (const turn of view.playedTurns) {
    const failed: string[] = [];
    let last = -1;
    for (let index = turn.userMessage + 1; index < turn.end; index++) {
      const marker = (messages[index] as { hsa?: { hook: string } }).hsa;
      if (!marker || stages.get(marker.hook) === 'input') continue;
      if (!failed.includes(marker.hook)) failed.push(marker.hook);
      last = index;
    }
    if (failed.length === 0) continue;
    const gold = view.goldTurns?.[turn.index];
    const asGold =
      gold !== undefined &&
      turn.ending !== 'reply' &&
      turn.ending !== 'none' &&
      gold.ending === turn.ending &&
      gold.endingHook === turn.endingHook;
    const complies = turn.ending === 'reply' || asGold;
    turns.push({ turn: turn.index, failed, ending: turn.ending, complies });
    if (!complies)
      findings.push({
        code: 'uncorrected_hook_failure',
        turn: turn.index,
        message: last,
        reason:
          turn.ending === 'none'
            ? `hook(s) ${failed.map((hook) => `"${hook}"`).join(', ')} failed and the turn ended without a reply`
            : `hook(s) ${failed.map((hook) => `"${hook}"`).join(', ')} failed and the turn ended with the ${turn.ending === 'hook_fallback' ? 'fallback' : 'block'} of "${turn.endingHook}"`,
        values: failed,
      });
  }
  const complying = turns.filter((turn) => turn.complies).length;
  return { score: turns.length === 0 ? 1 : complying / turns.length, details: { turns, findings } };
}
