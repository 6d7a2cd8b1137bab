// Splits a trajectory into user turns for the rewards: each turn's tool calls with what became of them
// (ran, failed, rejected by a hook), the skills it loaded, how it ended and the reply the user saw.
import type { Harness } from '../../harness/schema.js';
import type { HookEvent, Trajectory } from '../../trajectory/schema.js';
import { isToolError } from '../episode-task.js';

/** What became of a tool call: a usable result, an error result, a hook rejection, or no result at all. */
export type CallStatus = 'ok' | 'error' | 'rejected' | 'unanswered';

/** One tool call of a turn, located by message index and position in that message's `tool_calls`. */
export interface TurnToolCall {
  /** Index of the assistant message in `trajectory.messages`. */
  message: number;
  /** Position of the call in the message's `tool_calls`. */
  position: number;
  id: string;
  name: string;
  /** The raw JSON text of the arguments. */
  arguments: string;
  /** `loader`: the skill loader; `registry`: a harness tool; `unknown`: no such tool in the harness. */
  kind: 'loader' | 'registry' | 'unknown';
  status: CallStatus;
  /** Index of the tool message that answered the call. */
  result?: number;
  /** The hook whose feedback answered the call, when a pre_tool hook rejected it. */
  rejectedBy?: string;
  /** Loader calls: the skill id the arguments name, when they name one. */
  skill?: string;
}

/** How a turn ended: a normal reply, a hook's fallback or block message, or without any of these. */
export type TurnEnding = 'reply' | 'hook_fallback' | 'hook_blocked' | 'none';

/** One user message and everything up to the next one. */
export interface UserTurn {
  /** 0-based turn number. */
  index: number;
  /** The user message. */
  user: string;
  /** Index of the user message in `trajectory.messages`. */
  userMessage: number;
  /** Index one past the turn's last message. */
  end: number;
  calls: TurnToolCall[];
  /** Skills named by accepted loader calls of this turn, first load first, without repeats. */
  loadedSkills: string[];
  ending: TurnEnding;
  /** The hook of a `hook_fallback` or `hook_blocked` ending. */
  endingHook?: string;
  /** The final reply the user saw: the last assistant text without tool calls that no hook rejected. */
  reply?: { message: number; text: string; event?: 'hook_fallback' | 'hook_blocked' };
  /** A block or fallback marker right after the user message: an input hook stopped the message. */
  inputHook?: { event: 'hook_fallback' | 'hook_blocked'; hook: string };
}

function namedSkill(rawArguments: string, argument: string): string | undefined {
  try {
    const value: unknown = JSON.parse(rawArguments);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const skill = (value as Record<string, unknown>)[argument];
    return typeof skill === 'string' ? skill : undefined;
  } catch {
    return undefined;
  }
}

const endingEvent = (event: HookEvent['event'] | undefined) =>
  event === 'hook_fallback' || event === 'hook_blocked' ? event : undefined;

/**
 * Splits a trajectory (in the harness's vocabulary) into user turns. A user message is a `user`-role message
 * without an `hsa` marker; hook feedback turns belong to the turn they answer. Messages before the first
 * user message (the system prompt) belong to no turn.
 *
 * A call is `ok` when its result is not marked and not an error (`isToolError`: the backend said it
 * failed; a text result is a result); a loader call is accepted, and its skill counted as loaded, when it is `ok` and names a skill of the harness.
 *
 * @example
 * const turns = splitTurns(trajectory, harness);
 * turns[0].reply?.text // 'Link 4 is ¥69 live.'
 * turns[0].calls.filter((call) => call.kind === 'registry' && call.status === 'ok').map((call) => call.name)
 */
export function splitTurns(trajectory: Trajectory, harness: Harness): UserTurn[] {
  const loader = harness.skills.loader;
  const registry = new Set(harness.tools.items.map((tool) => tool.name));
  const skills = new Set(harness.skills.items.map((skill) => skill.id));
  const messages = trajectory.messages;
  const turns: UserTurn[] = [];
  const pending = new Map<string, { call: TurnToolCall; owner: UserTurn }>();
  let turn: UserTurn | undefined;

  for (const [index, message] of messages.entries()) {
    if (message.role === 'user' && !message.hsa) {
      if (turn) {
        turn.end = index;
        turns.push(turn);
      }
      turn = {
        index: turns.length,
        user: message.content,
        userMessage: index,
        end: messages.length,
        calls: [],
        loadedSkills: [],
        ending: 'none',
      };
      continue;
    }
    if (!turn) continue;
    if (message.role === 'assistant') {
      for (const [position, call] of (message.tool_calls ?? []).entries()) {
        const name = call.function.name;
        const entry: TurnToolCall = {
          message: index,
          position,
          id: call.id,
          name,
          arguments: call.function.arguments,
          kind: name === loader.tool ? 'loader' : registry.has(name) ? 'registry' : 'unknown',
          status: 'unanswered',
        };
        if (entry.kind === 'loader') {
          const skill = namedSkill(call.function.arguments, loader.argument);
          if (skill !== undefined) entry.skill = skill;
        }
        turn.calls.push(entry);
        if (!pending.has(call.id)) pending.set(call.id, { call: entry, owner: turn });
      }
      continue;
    }
    if (message.role === 'tool') {
      const answered = pending.get(message.tool_call_id);
      if (!answered) continue;
      pending.delete(message.tool_call_id);
      const { call, owner } = answered;
      call.result = index;
      if (message.hsa?.event === 'hook_feedback') {
        call.status = 'rejected';
        call.rejectedBy = message.hsa.hook;
      } else if (message.hsa) call.status = 'error';
      else call.status = isToolError(message.content) ? 'error' : 'ok';
      if (
        call.kind === 'loader' &&
        call.status === 'ok' &&
        call.skill !== undefined &&
        skills.has(call.skill) &&
        !owner.loadedSkills.includes(call.skill)
      )
        owner.loadedSkills.push(call.skill);
    }
  }
  if (turn) {
    turn.end = messages.length;
    turns.push(turn);
  }

  for (const current of turns) describeEnding(current, trajectory);
  return turns;
}

function describeEnding(turn: UserTurn, trajectory: Trajectory) {
  const messages = trajectory.messages;
  const afterUser = messages[turn.userMessage + 1];
  if (turn.userMessage + 1 < turn.end && afterUser?.role === 'assistant' && afterUser.hsa) {
    const event = endingEvent(afterUser.hsa.event);
    if (event) turn.inputHook = { event, hook: afterUser.hsa.hook };
  }
  const last = turn.end - 1 > turn.userMessage ? messages[turn.end - 1] : undefined;
  if (last?.role === 'assistant' && !last.tool_calls) {
    const event = last.hsa?.event;
    const ending = endingEvent(event);
    if (ending) {
      turn.ending = ending;
      turn.endingHook = last.hsa?.hook;
    } else if (event === undefined) turn.ending = 'reply';
  }
  for (let index = turn.end - 1; index > turn.userMessage; index--) {
    const message = messages[index];
    if (message?.role !== 'assistant' || message.tool_calls) continue;
    if (message.hsa?.event === 'hook_rejected' || !message.content) continue;
    const event = endingEvent(message.hsa?.event);
    turn.reply = { message: index, text: message.content, ...(event ? { event } : {}) };
    return;
  }
}
