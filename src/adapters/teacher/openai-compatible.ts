// The OpenAI-compatible teacher: runs the runtime's agent loop against an endpoint (vLLM, SGLang, a hosted
// API) under the variant harness. Simulated tasks use their scenario's tool backend; tasks from a dataset
// get their tools answered from the gold trajectory's recorded results.
import type { HookCheckRegistry } from '../../harness/hook-checks.js';
import type { RunContext } from '../../harness/run-context.js';
import type { Teacher } from '../../pipeline/teacher.js';
import { runAgent } from '../../runtime/agent-loop.js';
import type { ChatModel, ChatRequest } from '../../runtime/chat-model.js';
import { recordedTools } from '../../runtime/recorded-tools.js';
import { playScenarioEpisode } from '../../runtime/sim/play.js';
import type { Message } from '../../trajectory/schema.js';

/**
 * Options of `openAICompatibleTeacher`: the model it plays with, the request fields of every call, and the
 * run it plays in.
 */
export interface OpenAICompatibleTeacherOptions {
  /** The chat model that plays the agent (e.g. `createOpenAICompatible`). */
  model: ChatModel;
  /** Request fields for every call (model name, temperature, max_tokens, …). */
  request: Omit<ChatRequest, 'messages' | 'tools'>;
  /** Most assistant messages per user turn (default `DEFAULT_MAX_STEPS_PER_TURN`). */
  maxStepsPerTurn?: number;
  /** The custom hook checks the harness names (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
  /** The run the teacher plays in (the pipeline's); default: a run of its own for each play. */
  run?: RunContext | undefined;
}

const isUserMessage = (message: Message) => message.role === 'user' && !message.hsa;

/**
 * A teacher that has a model play each task under the variant harness: a simulated task with its
 * scenario's tools, a dataset task with its tools answered from the gold trajectory's recorded results.
 *
 * @example
 * const teacher = openAICompatibleTeacher({ model: createOpenAICompatible({ baseURL }), request: { model: 'qwen3-32b' } });
 */
export function openAICompatibleTeacher(options: OpenAICompatibleTeacherOptions): Teacher {
  return {
    name: 'openai-compatible',
    exact: false,
    async generate(request) {
      const variant = request.variant
        ? { harness: request.variant.harness, relabel: request.variant.relabel }
        : undefined;
      const simulated = request.task.episode;
      if (simulated) {
        const played = await playScenarioEpisode({
          scenario: simulated.scenario,
          episode: simulated.episode,
          seed: simulated.seed,
          base: request.base,
          model: { model: options.model, request: options.request },
          ...(variant ? { variant } : {}),
          ...(options.maxStepsPerTurn ? { maxStepsPerTurn: options.maxStepsPerTurn } : {}),
          hookChecks: options.hookChecks,
          run: options.run,
          ...(request.signal ? { signal: request.signal } : {}),
        });
        return { trajectory: { ...played.trajectory, id: request.task.id } };
      }
      const gold = request.task.trajectory;
      const harness = variant?.harness ?? request.base;
      const run = await runAgent({
        harness,
        context: gold.context,
        tools: recordedTools(gold, variant?.relabel),
        model: options.model,
        userMessages: gold.messages.filter(isUserMessage).map((message) => message.content as string),
        request: options.request,
        ...(options.maxStepsPerTurn ? { maxStepsPerTurn: options.maxStepsPerTurn } : {}),
        hookChecks: options.hookChecks,
        run: options.run,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      return { trajectory: run.trajectory(request.task.id, gold.meta) };
    },
  };
}
