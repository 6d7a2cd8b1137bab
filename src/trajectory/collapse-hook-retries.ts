// Hook-retry collapsing: turns a trajectory with hook failures into its final good behaviour for SFT by
// removing each rejected attempt with its feedback, and picks (seeded, per trajectory id) the small share of
// trajectories that keep their full retry trace so that a model also learns to recover. Purely structural:
// no harness is needed, and every rule below keeps a valid trajectory valid under the harness it came from.
import seedrandom from 'seedrandom';
import { HarnessAugmentError } from '../harness/issues.js';
import type { AssistantMessage, Message, Trajectory } from './schema.js';

/** The outcome of collapsing one trajectory. */
export interface CollapseResult {
  /** The collapsed trajectory; the very same object when nothing was removed. */
  trajectory: Trajectory;
  /** Rejected attempts removed: one per rejected reply, one per rejected tool call. */
  collapsed: number;
  /**
   * Whether the returned trajectory still shows rejected attempts: a turn whose failures justify its
   * fallback or block (or that never recovers) stays whole, as does a trajectory chosen to keep its trace.
   */
  kept: boolean;
}

/** How `collapseHookRetriesSample` chooses the trajectories that keep their full retry trace. */
export interface CollapseSampleOptions {
  /** Share in [0, 1] of the trajectories with hook failures that keep their full retry trace. */
  keepShare: number;
  /** The seed of the choice; each trajectory draws from `${seed}:${trajectory.id}`. */
  seed: string;
}

/** One trajectory's outcome under `collapseHookRetriesSample`. */
export interface SampledCollapseResult extends CollapseResult {
  /** True when the trajectory has hook failures and was chosen to keep its full retry trace (`collapsed` is 0). */
  fullTrace: boolean;
}

/** What to do with one turn: nothing to do, keep it whole, or drop and replace some of its messages. */
type TurnPlan =
  | { kind: 'clean' }
  | { kind: 'keep' }
  | { kind: 'collapse'; remove: Set<number>; replace: Map<number, Message>; collapsed: number };

const isRejected = (message: Message) =>
  message.role === 'assistant' && message.hsa?.event === 'hook_rejected';

const isFeedbackOf = (message: Message | undefined, hook: string) =>
  (message?.role === 'user' || message?.role === 'tool') &&
  message.hsa?.event === 'hook_feedback' &&
  message.hsa.hook === hook;

/** A user message starts a turn; hook feedback turns are user messages too, but belong to the turn. */
const startsTurn = (message: Message) => message.role === 'user' && message.hsa === undefined;

/** The reply a turn recovers to: an assistant text that no hook marked. */
const isAcceptedReply = (message: Message | undefined) =>
  message?.role === 'assistant' &&
  message.hsa === undefined &&
  message.tool_calls === undefined &&
  message.content !== null;

/** Index ranges [start, end) of the turns: the preamble (system prompt), then one per user message. */
function turnsOf(messages: readonly Message[]): Array<[number, number]> {
  const starts = [0];
  messages.forEach((message, index) => {
    if (index > 0 && startsTurn(message)) starts.push(index);
  });
  return starts.map((start, position) => [start, starts[position + 1] ?? messages.length]);
}

/**
 * Plans the collapse of one turn. A turn collapses only when it recovers: it ends in an accepted reply, holds
 * no fallback or block, and every rejected attempt is answered by its feedback. Anything else stays whole,
 * which is always safe: the original turn validated, and an unchanged turn still does.
 */
function planTurn(messages: readonly Message[], start: number, end: number): TurnPlan {
  const turn = messages.slice(start, end);
  if (!turn.some(isRejected)) return { kind: 'clean' };
  // A fallback or block is justified by the failures before it (an exhausted budget counts them all).
  const ended = turn.some(
    (message) =>
      'hsa' in message && (message.hsa?.event === 'hook_fallback' || message.hsa?.event === 'hook_blocked'),
  );
  if (ended || !isAcceptedReply(messages[end - 1])) return { kind: 'keep' };

  const remove = new Set<number>();
  const replace = new Map<number, Message>();
  let collapsed = 0;
  for (let index = start; index < end; index++) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant' || message.hsa?.event !== 'hook_rejected') continue;
    const hook = message.hsa.hook;
    if (!message.tool_calls) {
      // A rejected reply: its feedback is the user message right after it.
      if (index + 1 >= end || !isFeedbackOf(messages[index + 1], hook)) return { kind: 'keep' };
      remove.add(index).add(index + 1);
      collapsed++;
      continue;
    }
    const answers = answersOf(messages, message, index, end);
    if (!answers) return { kind: 'keep' };
    const rejected = message.tool_calls.filter((call) =>
      isFeedbackOf(messages[answers.get(call.id) as number], hook),
    );
    if (rejected.length === 0) return { kind: 'keep' };
    for (const call of rejected) remove.add(answers.get(call.id) as number);
    collapsed += rejected.length;
    if (rejected.length === message.tool_calls.length) {
      remove.add(index);
      continue;
    }
    // Parallel calls with only some rejected: the accepted ones ran, and what follows may rely on their results
    // (a loaded skill, numbers to ground), so the message stays with the accepted calls only and no marker.
    replace.set(index, withoutRejectedCalls(message, new Set(rejected.map((call) => call.id))));
  }
  // Every hook marker of the turn must be one of the removed attempts or feedback turns.
  for (let index = start; index < end; index++) {
    const message = messages[index] as Message;
    if ('hsa' in message && message.hsa && !remove.has(index) && !replace.has(index)) return { kind: 'keep' };
  }
  return { kind: 'collapse', remove, replace, collapsed };
}

/** The index of each call's tool message, which must follow the call before any other message. */
function answersOf(
  messages: readonly Message[],
  message: AssistantMessage,
  index: number,
  end: number,
): Map<string, number> | undefined {
  const answers = new Map<string, number>();
  for (let next = index + 1; next < end; next++) {
    const answer = messages[next] as Message;
    if (answer.role !== 'tool') break;
    if (!answers.has(answer.tool_call_id)) answers.set(answer.tool_call_id, next);
  }
  return message.tool_calls?.every((call) => answers.has(call.id)) ? answers : undefined;
}

/** The same message with the rejected calls and the rejection marker left out; every other field as it was. */
function withoutRejectedCalls(message: AssistantMessage, rejected: ReadonlySet<string>): AssistantMessage {
  const { hsa: _marker, ...rest } = message;
  return { ...rest, tool_calls: message.tool_calls?.filter((call) => !rejected.has(call.id)) };
}

/**
 * Collapses the hook retries of a trajectory into its final good behaviour: each `hook_rejected` attempt is
 * removed with its `hook_feedback` turn (for a rejected tool call, the tool message answering it), injected
 * recovery episodes included. A turn whose failures end in a `hook_fallback` or `hook_blocked` reply, or that
 * never recovers to an accepted reply, stays whole. Every other message is kept as the same object, in order;
 * a trajectory with nothing to collapse comes back as the same object. Collapsing twice changes nothing more.
 *
 * @example
 * const { trajectory, collapsed, kept } = collapseHookRetries(JSON.parse(line));
 * // collapsed: 1 rejected reply removed with its feedback; kept: false (no retry trace left)
 */
export function collapseHookRetries(trajectory: Trajectory): CollapseResult {
  const { messages } = trajectory;
  const remove = new Set<number>();
  const replace = new Map<number, Message>();
  let collapsed = 0;
  let kept = false;
  for (const [start, end] of turnsOf(messages)) {
    const plan = planTurn(messages, start, end);
    if (plan.kind === 'keep') kept = true;
    if (plan.kind !== 'collapse') continue;
    for (const index of plan.remove) remove.add(index);
    for (const [index, message] of plan.replace) replace.set(index, message);
    collapsed += plan.collapsed;
  }
  if (collapsed === 0) return { trajectory, collapsed, kept };
  const remaining = messages.flatMap((message, index) =>
    remove.has(index) ? [] : [replace.get(index) ?? message],
  );
  return { trajectory: { ...trajectory, messages: remaining }, collapsed, kept };
}

function checkSampleOptions(options: CollapseSampleOptions): void {
  const { keepShare, seed } = options;
  if (typeof keepShare !== 'number' || !Number.isFinite(keepShare) || keepShare < 0 || keepShare > 1) {
    throw new HarnessAugmentError(`keepShare must be a number in [0, 1], got ${String(keepShare)}`, {
      kind: 'usage',
    });
  }
  if (typeof seed !== 'string') {
    throw new HarnessAugmentError(`seed must be a string, got ${typeof seed}`, { kind: 'usage' });
  }
}

/**
 * Whether the trajectory with this id keeps its full retry trace: a draw in [0, 1) from
 * `seedrandom(`${seed}:${id}`)` below `keepShare`. It depends on the id and the options alone, never on
 * order, batch size or shard count; `keepShare` 0 keeps none and 1 keeps all.
 *
 * @example
 * keepsFullTrace('ls-0001', { keepShare: 0.15, seed: '42' }) // true for about 15% of ids
 */
export function keepsFullTrace(id: string, options: CollapseSampleOptions): boolean {
  checkSampleOptions(options);
  return seedrandom(`${options.seed}:${id}`)() < options.keepShare;
}

const hasHookFailures = (trajectory: Trajectory) => trajectory.messages.some(isRejected);

function sampleOne(trajectory: Trajectory, options: CollapseSampleOptions): SampledCollapseResult {
  if (hasHookFailures(trajectory) && keepsFullTrace(trajectory.id, options)) {
    return { trajectory, collapsed: 0, kept: true, fullTrace: true };
  }
  return { ...collapseHookRetries(trajectory), fullTrace: false };
}

/**
 * Collapses hook retries for SFT while a seeded share of the trajectories with hook failures keeps its full
 * retry trace (returned unchanged, `fullTrace: true`); the choice is `keepsFullTrace(trajectory.id, options)`,
 * so each trajectory's outcome is the same whatever the order, batch or shard it comes in.
 *
 * @example
 * const results = collapseHookRetriesSample(trajectories, { keepShare: 0.1, seed: '42' });
 * results.filter((result) => result.fullTrace).length // about 10% of those with hook failures
 */
export function collapseHookRetriesSample(
  trajectory: Trajectory,
  options: CollapseSampleOptions,
): SampledCollapseResult;
export function collapseHookRetriesSample(
  trajectories: readonly Trajectory[],
  options: CollapseSampleOptions,
): SampledCollapseResult[];
export function collapseHookRetriesSample(
  input: Trajectory | readonly Trajectory[],
  options: CollapseSampleOptions,
): SampledCollapseResult | SampledCollapseResult[] {
  checkSampleOptions(options);
  return Array.isArray(input)
    ? input.map((trajectory: Trajectory) => sampleOne(trajectory, options))
    : sampleOne(input as Trajectory, options);
}
