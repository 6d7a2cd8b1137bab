// The wire shapes of the environment protocol: zod schemas for what a client sends (checked at the service
// boundary, so a bad request becomes a 400 listing every issue) and plain types for what the service answers.
import { z } from 'zod';
import { fromZodIssues } from '../../harness/parse-harness.js';
import type { OfferedTool } from '../../trajectory/schema.js';
import { MessageSchema } from '../../trajectory/schema.js';
import type { HookEventRecord, TurnEnd } from '../episode.js';
import { EnvError } from './env-error.js';

const SeveritySchema = z.union([z.enum(['slight', 'medium', 'heavy']), z.number().min(0).max(1)]);

const LoaderNamesSchema = z.strictObject({ tool: z.string().min(1), argument: z.string().min(1) });
const RenameMapSchema = z.record(z.string(), z.string());

/** A relabel as plain data (src/trajectory/relabel.ts), as a client sends it with its own variant. */
export const RelabelSchema = z.strictObject({
  steps: z.array(
    z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('rename_tools'), map: RenameMapSchema }),
      z.strictObject({ type: z.literal('rename_skills'), map: RenameMapSchema, loader: LoaderNamesSchema }),
      z.strictObject({
        type: z.literal('rename_arguments'),
        tool: z.string().min(1),
        renames: z.array(z.strictObject({ path: z.array(z.string()), from: z.string(), to: z.string() })),
      }),
      z.strictObject({
        type: z.literal('nest_arguments'),
        tool: z.string().min(1),
        under: z.string().min(1),
      }),
      z.strictObject({
        type: z.literal('insert_messages'),
        at: z.number().int().min(0),
        messages: z.array(MessageSchema),
      }),
      z.strictObject({
        type: z.literal('merge_skills'),
        into: z.string().min(1),
        sources: z.array(z.string()),
        loads: z.array(z.string()),
        loadTurns: z.array(z.number().int().min(0)).optional(),
        loader: LoaderNamesSchema,
      }),
    ]),
  ),
});

/** Which harness an episode runs under. */
export const HarnessChoiceSchema = z.union([
  z.literal('original'),
  z.strictObject({
    /** A policy preset name (`hat`, `tools-only`, …). */
    augment: z.string().min(1),
    severity: SeveritySchema.optional(),
    /** Draws another variant of the same episode (default 0). */
    variant_index: z.number().int().min(0).max(1_000_000).optional(),
  }),
  z.strictObject({
    /** A variant of the base harness the client made itself; the relabel maps base names to its names. */
    variant: z.strictObject({ harness: z.unknown(), relabel: RelabelSchema.optional() }),
  }),
]);

const FaultsSchema = z.strictObject({ rate: z.number().min(0).max(1) });

export const ResetRequestSchema = z.strictObject({
  seed: z.union([z.string().min(1), z.number()]).optional(),
  index: z.number().int().min(0).optional(),
  harness: HarnessChoiceSchema.optional(),
  faults: FaultsSchema.nullable().optional(),
  /**
   * The variant id the caller expects the harness choice to give (an RL row's `variant_id`); a server whose
   * policies, operators or version draw another variant answers 409 instead of scoring the wrong one.
   */
  variant_id: z.string().min(1).optional(),
});

export const StepRequestSchema = z.strictObject({
  episode_id: z.string().min(1),
  /** An assistant message in the Chat Completions shape; the Episode checks it (a bad one is a 400). */
  message: z.unknown(),
});

/**
 * Refuses a step message whose tool-call `arguments` are not the JSON text of the arguments (a string), as
 * the protocol says: re-serialising an object would train on text the model never wrote.
 *
 * @example
 * checkStepArguments({ role: 'assistant', tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] }) // throws 400 invalid_step
 */
export function checkStepArguments(message: unknown): void {
  const calls = (message as { tool_calls?: unknown } | null)?.tool_calls;
  if (!Array.isArray(calls)) return;
  calls.forEach((call, index) => {
    const given = (call as { function?: { arguments?: unknown } } | null)?.function?.arguments;
    if (given !== undefined && typeof given !== 'string')
      throw new EnvError(
        400,
        'invalid_step',
        `/step: tool_calls[${index}].function.arguments must be the JSON text of the arguments (a string), not ${given === null ? 'null' : Array.isArray(given) ? 'an array' : `a${typeof given === 'object' ? 'n' : ''} ${typeof given}`} (the episode is unchanged)`,
      );
  });
}

/**
 * OpenRLHF's remote reward request (`openrlhf/utils/remote_rm_utils.py`): `query` (prompt + response texts),
 * `prompts`, `labels`, one entry per sample. Extra keys some forks send are ignored.
 */
export const GetRewardRequestSchema = z.object({
  query: z.array(z.string()),
  prompts: z.array(z.string()).optional(),
  labels: z.array(z.string()),
});

/**
 * Checks a request body against a schema; a mismatch is a 400 listing every issue with its path.
 *
 * @example
 * const { episode_id, message } = parseRequest(StepRequestSchema, body, '/step');
 */
export function parseRequest<S extends z.ZodType>(schema: S, body: unknown, route: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = fromZodIssues(parsed.error.issues);
  const first = issues[0]!;
  const where = first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  throw new EnvError(
    400,
    'invalid_request',
    `${route}: invalid request body (${issues.length} issue(s)); first: ${where}${first.message}`,
    { issues },
  );
}

export type HarnessChoice = z.infer<typeof HarnessChoiceSchema>;
export type ResetRequest = z.input<typeof ResetRequestSchema>;
export type StepRequest = z.input<typeof StepRequestSchema>;
export type GetRewardRequest = z.input<typeof GetRewardRequestSchema>;

/** A message as a Chat Completions endpoint takes it (trajectory markers stripped). */
export type ChatMessage = Record<string, unknown> & { role: string };

/** The named rewards of a finished episode, in [0, 1] (the scenario's own, e.g. `accuracy`, `toolMatch`). */
export type EnvRewards = Record<string, number>;

export interface ResetResponse {
  episode_id: string;
  observation: { messages: ChatMessage[]; tools: OfferedTool[] };
  /** True when the episode ended before the agent's first step (every user message was stopped by an input hook). */
  done: boolean;
  /** The episode's total reward when `done`, else 0. */
  reward: number;
  rewards?: EnvRewards;
  info: {
    /** User turns of the episode. */
    turns: number;
    /** The scenario's name. */
    scenario: string;
    /** The planned episode it plays, e.g. `env-0007`. */
    entry_id: string;
    seed: string;
    index: number;
    /** The step limit of each user turn of this episode. */
    max_steps_per_turn: number;
    /** The episode's public labels (its kind, its language), as the scenario gives them. */
    labels?: Record<string, unknown>;
    variant_id?: string;
    /** Why no certified variant was found for an `augment` request (the episode then runs under the base harness). */
    augment_skipped?: string;
    /** Operators of the asked policy left out: they change what the hooks enforce, and this episode runs. */
    left_out?: string[];
    faults?: { rate: number };
    hook_events: HookEventRecord[];
  };
}

export interface StepResponse {
  observation: { messages: ChatMessage[] };
  /** The episode's total reward once done, 0 before. */
  reward: number;
  rewards?: EnvRewards;
  done: boolean;
  info: {
    /** 0-based index of the user turn this step acted in. */
    turn: number;
    /** How that turn ended, when this step ended it. */
    end?: TurnEnd;
    /** True when the step limit cut the turn (`end` is `step_limit`): the turn is truncated, not finished. */
    truncated?: boolean;
    /** Hooks that failed during this step (and during any user message it sent next). */
    hook_events: HookEventRecord[];
  };
}

/** OpenRLHF's remote reward response: `rewards` (advantages), `scores` (dynamic filtering), `extra_logs`. */
export interface GetRewardResponse {
  rewards: number[];
  scores: number[];
  extra_logs: Record<string, number[]>;
}

export interface HealthResponse {
  /** `unhealthy` (answered 503 over HTTP) when the scenario cannot play episodes any more. */
  status: 'ok' | 'unhealthy';
  /** Why it is unhealthy. */
  reason?: string;
  /** Episodes running (not yet done). */
  episodes: number;
  /** Finished episodes still kept for `/get_reward`. */
  finished: number;
  version: string;
}
