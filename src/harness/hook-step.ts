// What a hook sees at one step of a conversation: the plain type the engine and the custom checks share.
import type { HookStage } from './schema.js';

/** What a hook sees of the agent loop at its stage. */
export interface HookStep {
  stage: HookStage;
  /** input: the user message; post_tool: the tool result; pre_reply and post_reply: the reply. */
  text?: string;
  /** pre_tool and post_tool: the tool call. */
  call?: { name: string; arguments: string };
  /** Skill ids loaded by accepted skill-loader calls, since the latest user message and in the whole conversation. */
  loadedSkills?: { turn: readonly string[]; conversation: readonly string[] };
  /** pre_tool: tool calls in the current turn, this one included. */
  toolCallsThisTurn?: number;
  /** Contents of the real tool results so far. */
  toolResults?: readonly string[];
  /** User messages so far. */
  userMessages?: readonly string[];
  /** The request context. */
  context?: Record<string, unknown>;
  /** 1-based number of the attempt that the feedback would answer. */
  attempt?: number;
}
