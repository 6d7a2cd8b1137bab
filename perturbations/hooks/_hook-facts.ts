// Hook facts of the hook operators (not an operator): what a trajectory says about each hook — where it was
// evaluated, where it failed, how often per turn.
import {
  type Harness,
  type Hook,
  type HookDecision,
  hookRunsOn,
  type RunContext,
  type Trajectory,
  validationFacts,
} from '../../src/kit/index.js';

/** One evaluation of one hook on the trajectory, as the hook engine ran it. */
export interface HookEvaluation {
  decision: HookDecision;
  /** Index of the message the step belongs to. */
  message: number;
  pass: boolean;
}

export interface HookFacts {
  trajectory: Trajectory;
  decisions: HookDecision[];
  /** Turn number of each message: -1 before the first user message, then 0, 1, … */
  turnOf: number[];
  /** Hook id → failures in each turn that had any. */
  failuresPerTurn: Map<string, Map<number, number>>;
}

/** A user message starts a turn; hook feedback turns are user messages too but do not. */
const isUserMessage = (message: Trajectory['messages'][number]) => message.role === 'user' && !message.hsa;

/**
 * Reads the hook facts of a trajectory that validates under the harness; undefined when it does not.
 *
 * @example
 * const facts = hookFacts(trajectory, harness, run); facts?.failuresPerTurn.get('short_reply')
 */
export function hookFacts(trajectory: Trajectory, harness: Harness, run: RunContext): HookFacts | undefined {
  // Read, not walked again: the plan derived the example under this harness before giving it (and the
  // operator's certificate reads the same validation of it).
  const validation = validationFacts(trajectory, harness, run);
  if (!validation.valid || !validation.trajectory) return undefined;
  const turnOf: number[] = [];
  let turn = -1;
  for (const message of validation.trajectory.messages) {
    if (isUserMessage(message)) turn++;
    turnOf.push(turn);
  }
  const failuresPerTurn = new Map<string, Map<number, number>>();
  for (const decision of validation.decisions) {
    if (decision.failed === undefined) continue;
    const perTurn = failuresPerTurn.get(decision.failed) ?? new Map<number, number>();
    const at = turnOf[decision.path[1] as number] ?? -1;
    perTurn.set(at, (perTurn.get(at) ?? 0) + 1);
    failuresPerTurn.set(decision.failed, perTurn);
  }
  return { trajectory: validation.trajectory, decisions: validation.decisions, turnOf, failuresPerTurn };
}

/** The most failures of a hook in one turn (0 when it never failed). */
export const mostFailuresInATurn = (facts: HookFacts, hook: string) =>
  Math.max(0, ...(facts.failuresPerTurn.get(hook)?.values() ?? []));

/** The call a pre_tool or post_tool decision was made on, for tool-scoped hooks. */
function decidedCall(
  facts: HookFacts,
  decision: HookDecision,
): { name: string; arguments: string } | undefined {
  const messages = facts.trajectory.messages;
  const message = messages[decision.path[1] as number];
  if (decision.stage === 'pre_tool' && message?.role === 'assistant')
    return message.tool_calls?.[decision.path[3] as number]?.function;
  if (decision.stage === 'post_tool' && message?.role === 'tool') {
    for (const candidate of messages) {
      if (candidate.role !== 'assistant') continue;
      const call = candidate.tool_calls?.find((item) => item.id === message.tool_call_id);
      if (call) return { name: call.function.name, arguments: '' };
    }
  }
  return undefined;
}

/**
 * Every step where a hook actually ran: the hooks that run on a step (enabled, at its stage, scoped to its
 * call's tool) run in harness order until one fails, so a hook ran on a step when it runs there and the
 * step passed, when it failed there, or when a later hook failed there.
 *
 * @example
 * evaluationsOf(facts, harness, hook).filter((evaluation) => !evaluation.pass)
 */
export function evaluationsOf(facts: HookFacts, harness: Harness, hook: Hook): HookEvaluation[] {
  if (!hook.enabled) return [];
  const order = harness.hooks.items
    .filter((item) => item.enabled && item.stage === hook.stage)
    .map((item) => item.id);
  const position = order.indexOf(hook.id);
  return facts.decisions.flatMap((decision): HookEvaluation[] => {
    if (decision.stage !== hook.stage) return [];
    if (hook.tools !== undefined) {
      const call = decidedCall(facts, decision);
      if (!hookRunsOn(hook, { stage: decision.stage, ...(call ? { call } : {}) })) return [];
    }
    const message = decision.path[1] as number;
    if (decision.failed === undefined) return [{ decision, message, pass: true }];
    if (decision.failed === hook.id) return [{ decision, message, pass: false }];
    return order.indexOf(decision.failed) > position ? [{ decision, message, pass: true }] : [];
  });
}
