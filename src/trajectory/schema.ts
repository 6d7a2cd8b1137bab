// Trajectories are OpenAI Chat Completions messages plus the tools offered. Tool-call `arguments` stay the
// raw JSON string the model produced: re-serialising would change bytes that training and relabels rely on.
import { z } from 'zod';

/**
 * Marks turns produced by a hook: the rejected attempt, the feedback turn, and a fallback reply.
 *
 * @example
 * HookEventSchema.shape.event.options // ['hook_rejected', 'hook_feedback', 'hook_fallback', 'hook_blocked']
 */
export const HookEventSchema = z.strictObject({
  event: z.enum(['hook_rejected', 'hook_feedback', 'hook_fallback', 'hook_blocked']),
  hook: z.string().min(1),
  injected: z
    .literal(true)
    .optional()
    .describe('Set on turns that an augmentation inserted (a recovery episode); its inverse removes them.'),
});

export const ToolCallSchema = z.strictObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().min(1),
    arguments: z.string().describe('The raw JSON text of the arguments, exactly as the model wrote it.'),
  }),
});

export const SystemMessageSchema = z.strictObject({
  role: z.literal('system'),
  content: z.string(),
  name: z.string().optional(),
});
export const UserMessageSchema = z.strictObject({
  role: z.literal('user'),
  content: z.string(),
  name: z.string().optional(),
  hsa: HookEventSchema.optional(),
});
export const AssistantMessageSchema = z.strictObject({
  role: z.literal('assistant'),
  content: z.string().nullable(),
  tool_calls: z.array(ToolCallSchema).min(1).optional(),
  name: z.string().optional(),
  hsa: HookEventSchema.optional(),
});
export const ToolMessageSchema = z.strictObject({
  role: z.literal('tool'),
  tool_call_id: z.string().min(1),
  content: z.string(),
  hsa: HookEventSchema.optional().describe(
    'Set when a pre_tool hook rejected the call: the content is its feedback.',
  ),
});

/**
 * One message of a trajectory: system, user, assistant (content and tool calls) or tool.
 *
 * @example
 * MessageSchema.parse({ role: 'user', content: 'Hello' });
 */
export const MessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);

/** A tool as offered to the model in the Chat Completions `tools` array. */
export const OfferedToolSchema = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().optional(),
  }),
});

/**
 * The schema of a trajectory: an id, its messages and where they came from.
 *
 * @example
 * const trajectory = TrajectorySchema.parse(JSON.parse(line)); // validateTrajectory checks it under a harness
 */
export const TrajectorySchema = z.strictObject({
  id: z.string().min(1).describe('Stable id of the example; variants refer to it as `exampleId`.'),
  harness: z
    .strictObject({ id: z.string().min(1), hash: z.string().optional() })
    .optional()
    .describe('The harness the trajectory was produced under.'),
  context: z
    .record(z.string(), z.unknown())
    .default({})
    .describe('Request context the system prompt is rendered from: room state, products, …'),
  tools: z.array(OfferedToolSchema).optional().describe('The tools offered, as sent to the model.'),
  messages: z.array(MessageSchema).min(1),
  meta: z.record(z.string(), z.unknown()).optional().describe('Free data: intent labels, source, split, …'),
});

/** The mark on a turn a hook produced (the rejected attempt, feedback, a fallback or a block). */
export type HookEvent = z.infer<typeof HookEventSchema>;
/** An assistant's tool call, its `arguments` kept as the raw JSON text. */
export type ToolCall = z.infer<typeof ToolCallSchema>;
/** One OpenAI Chat Completions message: system, user, assistant or tool. */
export type Message = z.infer<typeof MessageSchema>;
/** An assistant message: its text and its tool calls. */
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
/** A tool result message, answering one tool call by id. */
export type ToolMessage = z.infer<typeof ToolMessageSchema>;
/** A tool as the trajectory offered it to the model (Chat Completions `tools` entry). */
export type OfferedTool = z.infer<typeof OfferedToolSchema>;
/**
 * A conversation recorded under a harness: its id, the request context, the tools offered and its Chat
 * Completions messages.
 */
export type Trajectory = z.infer<typeof TrajectorySchema>;
