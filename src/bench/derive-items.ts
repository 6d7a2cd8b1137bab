// Bench items derived from gold trajectories: one item per scorable user turn, whose answer key is what the
// gold did in that turn. The rule, in one place (`hsa bench items`, the demo and the fixture generators use it):
//
// - A turn starts at a user message that is not a hook-feedback turn (`hsa` unset) and runs to the next one.
// - It qualifies when it ends in a plain assistant reply (no tool calls, not a hook-marked attempt) and no
//   hook blocked it or fell back in it (`turn_not_scorable` otherwise: there is no reply to score).
// - The item's input is the conversation up to and including that user message (earlier turns verbatim,
//   without the system prompt, which each variant renders); its gold is the trajectory cut at the turn's end.
// - The answer key: the tool calls of the turn that no hook rejected, with the values of each tool's required
//   arguments; the skills the turn loaded; the terms of the harness's enabled reply-stage `banned_terms`
//   hooks as forbidden. No facts: which strings a reply must contain is not something a log says.
// - Ids: `<trajectory id>-turn-<k>`, k counting user turns from 1.
import type { Harness } from '../harness/schema.js';
import type { Message, Trajectory } from '../trajectory/schema.js';
import type { BenchItem, ExpectedCall } from './schema.js';
import { BenchItemSchema } from './schema.js';

/** Why a turn yields no item. */
export type SkippedTurnReason = 'turn_not_scorable';

/** A user turn of a trajectory: where its user message is and where the turn ends (exclusive). */
export interface TrajectoryTurn {
  /** 1-based. */
  number: number;
  start: number;
  end: number;
}

const isUserTurn = (message: Message) => message.role === 'user' && !message.hsa;

/**
 * The user turns of a trajectory, in order.
 *
 * @example
 * trajectoryTurns(gold).length // 1 for a one-question conversation
 */
export function trajectoryTurns(trajectory: Trajectory): TrajectoryTurn[] {
  const starts = trajectory.messages.flatMap((message, index) => (isUserTurn(message) ? [index] : []));
  return starts.map((start, index) => ({
    number: index + 1,
    start,
    end: starts[index + 1] ?? trajectory.messages.length,
  }));
}

/**
 * Whether a turn can be scored as a bench item (see the header): it ends in a plain reply, with no block or
 * fallback in it.
 *
 * @example
 * trajectoryTurns(gold).filter((turn) => isScorableTurn(gold, turn))
 */
export function isScorableTurn(trajectory: Trajectory, turn: TrajectoryTurn): boolean {
  const messages = trajectory.messages.slice(turn.start, turn.end);
  if (
    messages.some((message) => 'hsa' in message && message.hsa && /blocked|fallback/.test(message.hsa.event))
  )
    return false;
  const last = messages.at(-1);
  return last?.role === 'assistant' && !last.hsa && !last.tool_calls && typeof last.content === 'string';
}

/**
 * A one-turn trajectory whose turn is scorable: the items the demo holds out.
 *
 * @example
 * golds.filter(isItemCandidate)
 */
export function isItemCandidate(trajectory: Trajectory): boolean {
  const turns = trajectoryTurns(trajectory);
  return turns.length === 1 && isScorableTurn(trajectory, turns[0]!);
}

function acceptedCalls(messages: readonly Message[]) {
  const rejected = new Set<string>();
  for (const message of messages)
    if (message.role === 'tool' && message.hsa) rejected.add(message.tool_call_id);
  return messages.flatMap((message) =>
    message.role === 'assistant' && !message.hsa && message.tool_calls
      ? message.tool_calls.filter((call) => !rejected.has(call.id))
      : [],
  );
}

/**
 * The banned terms of the enabled reply hooks, once each: what a bench item's reply must not say.
 *
 * @example
 * forbiddenTerms(harness) // ['guaranteed', 'lowest price ever']
 */
export function forbiddenTerms(harness: Harness): string[] {
  const terms: string[] = [];
  for (const hook of harness.hooks.items) {
    if (!hook.enabled || hook.check.type !== 'banned_terms') continue;
    if (hook.stage !== 'pre_reply' && hook.stage !== 'post_reply') continue;
    for (const term of hook.check.terms) if (!terms.includes(term)) terms.push(term);
  }
  return terms;
}

/**
 * The bench item of one turn of a gold trajectory (see the header for its input, gold and answer key).
 *
 * @example
 * const item = itemFromTurn(harness, gold, trajectoryTurns(gold)[1]!, `${gold.id}-turn-2`);
 */
export function itemFromTurn(
  harness: Harness,
  gold: Trajectory,
  turn: TrajectoryTurn,
  id: string,
): BenchItem {
  const loader = harness.skills.loader;
  const toolCalls: ExpectedCall[] = [];
  const skills: string[] = [];
  for (const call of acceptedCalls(gold.messages.slice(turn.start, turn.end))) {
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(call.function.arguments);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        args = parsed as Record<string, unknown>;
    } catch {
      // Arguments that do not parse expect nothing.
    }
    if (call.function.name === loader.tool) {
      const skill = args[loader.argument];
      if (typeof skill === 'string' && !skills.includes(skill)) skills.push(skill);
      continue;
    }
    const tool = harness.tools.items.find((candidate) => candidate.name === call.function.name);
    const required = (tool?.parameters as { required?: unknown } | undefined)?.required;
    const expected: Record<string, unknown> = {};
    for (const key of Array.isArray(required) ? required : [])
      if (typeof key === 'string' && Object.hasOwn(args, key)) expected[key] = args[key];
    toolCalls.push({ name: call.function.name, arguments: expected });
  }
  const firstTurn = gold.messages.findIndex(isUserTurn);
  const input =
    turn.start === firstTurn
      ? [gold.messages[turn.start]!]
      : gold.messages.slice(0, turn.start + 1).filter((message) => message.role !== 'system');
  const cut =
    turn.end === gold.messages.length ? gold : { ...gold, messages: gold.messages.slice(0, turn.end) };
  return BenchItemSchema.parse({
    id,
    harness: { id: harness.id },
    context: gold.context,
    input,
    expect: { toolCalls, skills, facts: [], forbidden: forbiddenTerms(harness) },
    gold: cut === gold ? gold : { ...cut, id },
    meta: { source: gold.id, derived: true },
  });
}

/**
 * The bench item of a one-turn gold trajectory (its single turn; see `isItemCandidate`).
 *
 * @example
 * const item = itemFromTrajectory(harness, gold, 'item-0001');
 */
export function itemFromTrajectory(harness: Harness, gold: Trajectory, id: string): BenchItem {
  const turns = trajectoryTurns(gold);
  return itemFromTurn(harness, gold, turns.at(-1)!, id);
}

/**
 * Every item a gold trajectory gives, one per scorable turn (`<id>-turn-<k>`), and the turns skipped with
 * their reason.
 *
 * @example
 * const { items, skipped } = itemsFromTrajectory(harness, gold);
 */
export function itemsFromTrajectory(
  harness: Harness,
  gold: Trajectory,
): { items: BenchItem[]; skipped: Array<{ turn: number; reason: SkippedTurnReason }> } {
  const items: BenchItem[] = [];
  const skipped: Array<{ turn: number; reason: SkippedTurnReason }> = [];
  for (const turn of trajectoryTurns(gold)) {
    if (!isScorableTurn(gold, turn)) {
      skipped.push({ turn: turn.number, reason: 'turn_not_scorable' });
      continue;
    }
    const item = itemFromTurn(harness, gold, turn, `${gold.id}-turn-${turn.number}`);
    items.push({ ...item, meta: { ...item.meta, turn: turn.number } });
  }
  return { items, skipped };
}
