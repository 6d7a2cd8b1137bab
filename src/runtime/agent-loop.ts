// The agent loop: render the prompt, ask the model, run its tool calls and the hooks, retry with feedback,
// until the turn ends — the production loop of DESIGN.md §1 with any ChatModel plugged in. Timings and token
// counts are returned beside the trajectory, never inside it, so that trajectories stay byte-deterministic.
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { RunContext } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import type { Message, Trajectory } from '../trajectory/schema.js';
import type { ChatModel, ChatRequest, ChatUsage } from './chat-model.js';
import { Episode, type Observation, type TurnEnd, toChatMessages } from './episode.js';
import type { ToolRuntime } from './tool-runtime.js';

/** One model call of the loop, with what the model reported. */
export interface StepRecord {
  turn: number;
  step: number;
  /** Milliseconds the model took. */
  modelMs: number;
  /** Milliseconds the tools of this step took (longest call, as they run concurrently). */
  toolMs: number;
  usage?: ChatUsage;
  finishReason?: string | null;
  hookEvents: Observation['hookEvents'];
}

/**
 * What `runAgent` plays: the harness and context, the tools, the model, the user messages and request fields.
 */
export interface AgentRunOptions {
  harness: Harness;
  context?: Record<string, unknown>;
  tools: ToolRuntime;
  model: ChatModel;
  /** The user messages, one turn each. */
  userMessages: readonly string[];
  /** Request fields sent with every call (model name, temperature, max_tokens, seed, …). */
  request?: Omit<ChatRequest, 'messages' | 'tools'>;
  /** Most assistant messages per turn (default `DEFAULT_MAX_STEPS_PER_TURN`); a cut turn ends `step_limit`. */
  maxStepsPerTurn?: number;
  toolTimeoutMs?: number;
  signal?: AbortSignal;
  /** The custom hook checks the harness names (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
  /** The run the episode belongs to (`createRunContext`); default: one of its own, with `hookChecks`. */
  run?: RunContext | undefined;
}

/**
 * A played conversation: its messages, how each turn ended, every step, and the episode to make a trajectory
 * of.
 */
export interface AgentRun {
  messages: Message[];
  /** How each turn ended. */
  turnEnds: Array<TurnEnd | undefined>;
  steps: StepRecord[];
  episode: Episode;
  trajectory(id: string, meta?: Record<string, unknown>): Trajectory;
}

/**
 * Runs one user turn of an episode with a model until the turn ends.
 *
 * @example
 * await episode.user('link 3 price?');
 * const steps = await runTurn(episode, model, { model: 'qwen3-4b' });
 */
export async function runTurn(
  episode: Episode,
  model: ChatModel,
  request: Omit<ChatRequest, 'messages' | 'tools'> = {},
  signal?: AbortSignal,
): Promise<StepRecord[]> {
  const steps: StepRecord[] = [];
  const turn = episode.turns - 1;
  while (episode.turnOpen) {
    signal?.throwIfAborted();
    const started = performance.now();
    const completion = await model.complete(
      { ...request, messages: toChatMessages(episode.messages), tools: episode.tools },
      signal ? { signal } : {},
    );
    const modelMs = performance.now() - started;
    const choice = completion.choices[0];
    if (!choice) throw new Error('the model returned no choices');
    const { content, tool_calls } = choice.message;
    // An empty answer is an empty reply: the reply hooks judge it like any other.
    const message =
      tool_calls && tool_calls.length > 0
        ? { role: 'assistant' as const, content: content ?? null, tool_calls }
        : { role: 'assistant' as const, content: content ?? '' };
    const observation = await episode.assistant(message);
    const record: StepRecord = {
      turn,
      step: steps.length,
      modelMs,
      toolMs: Math.max(0, ...observation.tools.map((tool) => tool.ms)),
      finishReason: choice.finish_reason,
      hookEvents: observation.hookEvents,
    };
    if (completion.usage) record.usage = completion.usage;
    steps.push(record);
  }
  return steps;
}

/**
 * Runs a whole episode: each user message in turn, the model answering until each turn ends. The episode
 * plays in the run given; given both `run` and `hookChecks`, they must be the run's own, else a usage error.
 *
 * @example
 * const played = await runAgent({ harness, context, tools, model, userMessages: ['hi', 'link 3 price?'] });
 * played.trajectory('ep-1').messages
 * // In a run of your own (its hook checks), shared with what else the run plays:
 * await runAgent({ harness, tools, model, userMessages, run: createRunContext({ hookChecks }) });
 */
export async function runAgent(options: AgentRunOptions): Promise<AgentRun> {
  const episode = new Episode({
    harness: options.harness,
    tools: options.tools,
    ...(options.context ? { context: options.context } : {}),
    ...(options.maxStepsPerTurn !== undefined ? { maxStepsPerTurn: options.maxStepsPerTurn } : {}),
    ...(options.toolTimeoutMs !== undefined ? { toolTimeoutMs: options.toolTimeoutMs } : {}),
    hookChecks: options.hookChecks,
    run: options.run,
  });
  const steps: StepRecord[] = [];
  try {
    for (const text of options.userMessages) {
      await episode.user(text);
      steps.push(...(await runTurn(episode, options.model, options.request, options.signal)));
    }
  } finally {
    episode.close();
  }
  return {
    messages: episode.messages,
    turnEnds: episode.turnEnds,
    steps,
    episode,
    trajectory: (id, meta) => episode.trajectory(id, meta),
  };
}
