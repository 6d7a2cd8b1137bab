// What an episode asks of the agent, turn by turn, in the base harness's vocabulary: the gold labels that
// rewards compare a trajectory against. The simulator produces one per episode; an external dataset can
// supply its own.
import { z } from 'zod';
import type { Harness } from '../harness/schema.js';
import type { Relabel } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';
import { MALFORMED_OUTPUT_MARK } from './faults.js';

/**
 * The gold labels of one user turn.
 *
 * @example
 * const turn = TurnTaskSchema.parse(task.turns[0]);
 */
export const TurnTaskSchema = z.strictObject({
  /** The user message of this turn. */
  user: z.string(),
  /** Intent labels of the message, e.g. `['price']`, or `['price', 'size']` for a message that asks two things. */
  intents: z.array(z.string().min(1)).default([]),
  /** Skills a correct turn loads (strategy skills included), base ids. */
  skills: z.array(z.string().min(1)).default([]),
  /** Tools a correct turn calls with a successful result (the skill loader excluded), base names, in order. */
  tools: z.array(z.string().min(1)).default([]),
  /** The input hook that must stop this message, when the correct behaviour is to block it. */
  blockedBy: z.string().min(1).optional(),
  /** Strings a correct final reply contains (prices, sizes), when known; not required by every reward. */
  facts: z.array(z.string().min(1)).default([]),
});

/**
 * The gold labels of an episode: its user turns with the intents, skills, tools and facts of each.
 *
 * @example
 * const task = EpisodeTaskSchema.parse(JSON.parse(line));
 */
export const EpisodeTaskSchema = z.strictObject({
  id: z.string().min(1),
  turns: z.array(TurnTaskSchema),
});

/** The gold labels of one user turn (`TurnTaskSchema`). */
export type TurnTask = z.infer<typeof TurnTaskSchema>;
/** The gold labels of an episode: its user turns with the intents, skills, tools and facts of each. */
export type EpisodeTask = z.infer<typeof EpisodeTaskSchema>;

/**
 * Whether a tool message's content reports a failure. A result is an error only when the backend said so:
 * a JSON object whose top-level `error` is set (the runtime's own `toolError` shape, which an MCP `isError`
 * result, a thrown call, a timeout, a permission fault and bad arguments all become; and a tool whose
 * contract answers failures that way), or the output of an injected `malformed_output` fault. Any other
 * text, JSON or not, is a result: prose such as "Entities deleted successfully" or a directory listing is a
 * fact the reply may quote, not a failed call.
 *
 * @example
 * isToolError('{"error":{"type":"timeout","message":"…"}}') // true
 * isToolError('[FILE] server.conf') // false
 */
export function isToolError(content: string): boolean {
  if (content.endsWith(MALFORMED_OUTPUT_MARK)) return true;
  // Only an object can carry `error`; skip parsing prose.
  if (!content.trimStart().startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(content);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const error = (value as Record<string, unknown>).error;
    return error !== undefined && error !== null && error !== false;
  } catch {
    return false;
  }
}

/**
 * Moves gold labels into a variant's vocabulary: tool names and skill ids follow the relabel's renames and
 * merges (arguments are not part of the labels). Hook ids and texts do not change.
 *
 * @example
 * const labels = taskInVariant(task, row.relabel);
 */
export function taskInVariant(task: EpisodeTask, relabel: Relabel): EpisodeTask {
  let turns = task.turns.map((turn) => ({ ...turn, skills: [...turn.skills], tools: [...turn.tools] }));
  for (const step of relabel.steps) {
    switch (step.type) {
      case 'rename_tools':
        turns = turns.map((turn) => ({ ...turn, tools: turn.tools.map((name) => step.map[name] ?? name) }));
        break;
      case 'rename_skills':
        turns = turns.map((turn) => ({ ...turn, skills: turn.skills.map((id) => step.map[id] ?? id) }));
        break;
      case 'merge_skills': {
        const sources = new Set(step.sources);
        turns = turns.map((turn) => ({
          ...turn,
          skills: [...new Set(turn.skills.map((id) => (sources.has(id) ? step.into : id)))],
        }));
        break;
      }
      default:
        break;
    }
  }
  return { ...task, turns };
}

/**
 * Gold labels read off a gold trajectory: per user turn, the skills its accepted loader calls load, the
 * registry tools that answered successfully, and the input hook that blocked it. Intents come from
 * `meta.intents` when the trajectory has them (for the whole episode, on each turn).
 *
 * @example
 * const task = taskFromTrajectory(trajectory, harness);
 */
export function taskFromTrajectory(trajectory: Trajectory, harness: Harness): EpisodeTask {
  const loader = harness.skills.loader;
  const intents = Array.isArray(trajectory.meta?.intents)
    ? (trajectory.meta.intents as unknown[]).filter((intent): intent is string => typeof intent === 'string')
    : [];
  const turns: TurnTask[] = [];
  const calls = new Map<string, { name: string; arguments: string }>();
  for (const message of trajectory.messages) {
    const turn = turns[turns.length - 1];
    switch (message.role) {
      case 'user':
        if (!message.hsa) turns.push({ user: message.content, intents, skills: [], tools: [], facts: [] });
        break;
      case 'assistant':
        if (
          turn &&
          message.hsa &&
          (message.hsa.event === 'hook_blocked' || message.hsa.event === 'hook_fallback')
        ) {
          const stage = harness.hooks.items.find((hook) => hook.id === message.hsa?.hook)?.stage;
          if (stage === 'input') turn.blockedBy = message.hsa.hook;
        }
        for (const call of message.tool_calls ?? []) calls.set(call.id, call.function);
        break;
      case 'tool': {
        const call = calls.get(message.tool_call_id);
        if (!turn || !call || message.hsa) break;
        if (call.name === loader.tool) {
          try {
            const id = (JSON.parse(call.arguments) as Record<string, unknown>)[loader.argument];
            if (typeof id === 'string' && !turn.skills.includes(id)) turn.skills.push(id);
          } catch {
            // An unparseable load loaded nothing.
          }
        } else if (!isToolError(message.content) && !turn.tools.includes(call.name))
          turn.tools.push(call.name);
        break;
      }
      default:
        break;
    }
  }
  return { id: trajectory.id, turns };
}
