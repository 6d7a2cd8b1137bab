// What an episode asks of the agent, turn by turn, in the base harness's vocabulary: the gold labels that
// rewards compare a trajectory against. The simulator produces one per episode; an external dataset can
// supply its own.
import { z } from 'zod';

export const TurnTaskSchema = z.strictObject({
  /** The viewer message of this turn. */
  viewer: z.string(),
  /** Intent labels of the message, e.g. `['price']`, or `['price', 'size']` for a multi-intent danmaku. */
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

export const EpisodeTaskSchema = z.strictObject({
  id: z.string().min(1),
  turns: z.array(TurnTaskSchema),
});

export type TurnTask = z.infer<typeof TurnTaskSchema>;
export type EpisodeTask = z.infer<typeof EpisodeTaskSchema>;

/**
 * Whether a tool message's content reports a failure: not JSON (malformed output), or a JSON object with a
 * top-level `error` (timeout, permission denied, bad arguments). The simulator's tools and the runtime's
 * fault injection produce exactly these shapes.
 */
export function isToolError(content: string): boolean {
  try {
    const value: unknown = JSON.parse(content);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'error' in value;
  } catch {
    return true;
  }
}
