// One conversation under a harness, advanced one message at a time: the production agent loop's rules
// without the model. A user message runs the input hooks; an assistant message runs the pre_tool hooks and
// the tools, or the reply hooks; a failure retries with the rendered feedback within the hook's budget, or
// ends the turn with the block or fallback the hook names. Every decision is the one the trajectory
// validator replays, so what an Episode records always validates under its harness. The agent loop, the
// simulator's oracle and the environment server all drive this one class.
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import {
  decideHooks,
  decideReplyHooks,
  type FailedHookDecision,
  type HookConsequence,
  type HookFailure,
  hookFailed,
  rejectedCallContent,
} from '../harness/hook-decision.js';
import type { HookStep } from '../harness/hook-engine.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { validateAgainstSchema } from '../harness/json-schema-validator.js';
import { offeredTools, toChatCompletionTools } from '../harness/offered-tools.js';
import { renderSystemPrompt } from '../harness/render-prompt.js';
import { type RunContext, runContextOf } from '../harness/run-context.js';
import type { Harness, HookStage, Tool } from '../harness/schema.js';
import type { AssistantMessage, Message, OfferedTool, ToolCall, Trajectory } from '../trajectory/schema.js';
import { DEFAULT_MAX_STEPS_PER_TURN, type TurnEnd } from './step-limit.js';
import { type ToolErrorKind, type ToolOutcome, type ToolRuntime, toolError } from './tool-runtime.js';

type Failure = HookFailure;
type Failed = FailedHookDecision;

/**
 * A step the episode cannot take: the message is malformed or no turn is open. The episode is unchanged.
 *
 * @example
 * try {
 *   await episode.assistant(message);
 * } catch (error) {
 *   if (error instanceof StepError) console.error(error.message); // the episode is unchanged
 * }
 */
export class StepError extends HarnessAugmentError {
  constructor(message: string) {
    super(message, { kind: 'usage' });
    this.name = 'StepError';
  }
}

/** What an `Episode` runs under: the harness, the request context, the tools, and its limits. */
export interface EpisodeOptions {
  harness: Harness;
  /** The request context the system prompt is rendered from. */
  context?: Record<string, unknown>;
  tools: ToolRuntime;
  /**
   * Most assistant messages in one user turn; the turn then ends without a reply, as `step_limit`
   * (default `DEFAULT_MAX_STEPS_PER_TURN`, 50).
   */
  maxStepsPerTurn?: number;
  /** Milliseconds a tool may take before its call is answered with a timeout error (default 10 000). */
  toolTimeoutMs?: number;
  /** Clock for timings, in milliseconds (default `performance.now`). */
  now?: () => number;
  /** The custom hook checks the harness names (default: none), when no `run` is given. */
  hookChecks?: HookCheckRegistry | undefined;
  /** The run the episode belongs to (`createRunContext`); default: one of its own, with `hookChecks`. */
  run?: RunContext | undefined;
}

export type { TurnEnd } from './step-limit.js';

/** A hook that failed during a step, and what followed. */
export interface HookEventRecord {
  hook: string;
  stage: HookStage;
  /** `retry`: feedback was given; `blocked` / `fallback`: the hook ended the turn. */
  outcome: 'retry' | 'blocked' | 'fallback' | 'pass_through';
  reason: string;
}

/** A registry tool call that ran (or failed) during a step. */
export interface ToolRecord {
  callId: string;
  name: string;
  content: string;
  error?: ToolErrorKind;
  ms: number;
}

/** What one step appended and decided. */
export interface Observation {
  /** The messages this step appended to the conversation, in order. */
  messages: Message[];
  /** True when the current turn is over (`end` says how). */
  turnEnded: boolean;
  end?: TurnEnd;
  hookEvents: HookEventRecord[];
  tools: ToolRecord[];
}

type AssistantInput = {
  role?: unknown;
  content?: unknown;
  tool_calls?: unknown;
  name?: unknown;
};

/**
 * An episode under one harness.
 *
 * @example
 * const episode = new Episode({ harness, context, tools });
 * await episode.user('link 3 price?');
 * const observation = await episode.assistant({ role: 'assistant', content: null, tool_calls: [...] });
 */
export class Episode {
  readonly harness: Harness;
  readonly context: Record<string, unknown>;
  readonly messages: Message[];
  /** The tools offered to the model, in the Chat Completions shape. */
  readonly tools: OfferedTool[];
  /** Ids of the hooks that rejected, blocked or fell back, in order. */
  readonly hookEvents: string[] = [];
  /** Every registry tool call that ran, in order. */
  readonly toolLog: ToolRecord[] = [];
  /** How each turn ended, by turn index; undefined while a turn is open or when it never ended. */
  readonly turnEnds: Array<TurnEnd | undefined> = [];

  private readonly runtime: ToolRuntime;
  private readonly toolsByName: Map<string, Tool>;
  private readonly maxSteps: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly run: RunContext;
  private readonly toolResults: string[] = [];
  private readonly userMessages: string[] = [];
  private readonly loadedConversation: string[] = [];
  private readonly seenCallIds = new Set<string>();
  private loadedTurn: string[] = [];
  private callsThisTurn = 0;
  private stepsThisTurn = 0;
  private registryCalls = 0;
  private failuresThisTurn = new Map<string, number>();
  private open = false;
  private busy = false;
  private readonly abort = new AbortController();

  constructor(options: EpisodeOptions) {
    this.harness = options.harness;
    this.context = options.context ?? {};
    this.runtime = options.tools;
    this.maxSteps = options.maxStepsPerTurn ?? DEFAULT_MAX_STEPS_PER_TURN;
    // setTimeout takes at most 2³¹−1 ms; more (or Infinity) would fire at once.
    this.timeoutMs = Math.min(options.toolTimeoutMs ?? 10_000, 2 ** 31 - 1);
    this.now = options.now ?? (() => performance.now());
    this.run = runContextOf(options.run, options.hookChecks);
    this.toolsByName = new Map(offeredTools(this.harness).map((tool) => [tool.name, tool]));
    this.tools = toChatCompletionTools(this.harness);
    this.messages = [{ role: 'system', content: renderSystemPrompt(this.harness, this.context) }];
  }

  /** The step limit of each turn. */
  get maxStepsPerTurn(): number {
    return this.maxSteps;
  }

  /** Whether a user turn is open and waiting for the assistant. */
  get turnOpen(): boolean {
    return this.open;
  }

  /** Number of user messages so far. */
  get turns(): number {
    return this.userMessages.length;
  }

  /** Skills loaded in the current turn, in order. */
  get loadedThisTurn(): readonly string[] {
    return this.loadedTurn;
  }

  /** Stops tools still running (their calls are answered with a timeout). */
  close(): void {
    this.abort.abort(new Error('episode closed'));
  }

  /** The conversation as a trajectory. */
  trajectory(id: string, meta?: Record<string, unknown>): Trajectory {
    return {
      id,
      ...(this.harness.id ? { harness: { id: this.harness.id } } : {}),
      context: this.context,
      tools: this.tools,
      messages: this.messages,
      ...(meta ? { meta } : {}),
    };
  }

  /** A user message: starts a turn and runs the input hooks. */
  async user(text: string): Promise<Observation> {
    if (typeof text !== 'string') throw new StepError('a user message must be a string');
    const observation = this.observation();
    this.loadedTurn = [];
    this.callsThisTurn = 0;
    this.stepsThisTurn = 0;
    this.failuresThisTurn = new Map();
    this.turnEnds.push(undefined);
    this.push(observation, { role: 'user', content: text });
    this.userMessages.push(text);
    this.open = true;
    const decision = this.decide('input', { text });
    if (decision) {
      // An input hook cannot ask the user to retry: a retry action lets the message through, as the
      // validator reads it.
      const next = this.commit(decision, observation);
      if (next.action === 'end') this.endTurn(observation, decision, next);
    }
    return observation;
  }

  /**
   * An assistant message: tool calls run through the pre_tool hooks and the tools; a reply runs through the
   * reply hooks. Throws StepError (and changes nothing) for a malformed message or when no turn is open.
   */
  async assistant(input: AssistantInput): Promise<Observation> {
    const message = this.checkAssistant(input);
    if (!this.open) throw new StepError('no turn is open: the conversation waits for a user message');
    if (this.busy) throw new StepError('the previous step is still running');
    const observation = this.observation();
    this.stepsThisTurn++;
    this.busy = true;
    try {
      if (message.tool_calls)
        await this.toolStep(message as AssistantMessage & { tool_calls: ToolCall[] }, observation);
      else this.replyStep(message.content ?? '', message, observation);
    } finally {
      this.busy = false;
    }
    if (this.open && this.stepsThisTurn >= this.maxSteps) {
      this.open = false;
      this.turnEnds[this.turnEnds.length - 1] = 'step_limit';
      observation.turnEnded = true;
      observation.end = 'step_limit';
    }
    return observation;
  }

  /** The first reply hook that would fail on `text` right now, without recording anything. */
  previewReply(text: string, skipHook?: string): Failure | undefined {
    return this.replyFailure(text, skipHook);
  }

  /** The first pre_tool hook that would fail on a one-call message right now, without recording anything. */
  previewCall(name: string, rawArguments: string): Failure | undefined {
    return this.decide('pre_tool', {
      call: { name, arguments: rawArguments },
      toolCallsThisTurn: this.callsThisTurn + 1,
    })?.failure;
  }

  // ── steps ─────────────────────────────────────────────────────────────────────────────────────

  private checkAssistant(input: AssistantInput): AssistantMessage {
    if (typeof input !== 'object' || input === null) throw new StepError('the step must be a message object');
    if (input.role !== undefined && input.role !== 'assistant')
      throw new StepError(`the step must be an assistant message, got role ${JSON.stringify(input.role)}`);
    let content = input.content;
    // Some servers answer with content parts; text parts are the text.
    if (Array.isArray(content)) {
      if (!content.every((part) => part?.type === 'text' && typeof part.text === 'string'))
        throw new StepError('content parts must all be {"type":"text","text":…}');
      content = content.map((part: { text: string }) => part.text).join('');
    }
    if (content !== undefined && content !== null && typeof content !== 'string')
      throw new StepError('content must be a string, text parts, or null');
    let calls: ToolCall[] | undefined;
    if (input.tool_calls !== undefined && input.tool_calls !== null) {
      if (!Array.isArray(input.tool_calls)) throw new StepError('tool_calls must be an array');
      calls = input.tool_calls.map((call: unknown, index) => {
        const raw = call as {
          id?: unknown;
          type?: unknown;
          function?: { name?: unknown; arguments?: unknown };
        };
        const where = `tool_calls[${index}]`;
        if (typeof raw !== 'object' || raw === null) throw new StepError(`${where} must be an object`);
        if (raw.type !== undefined && raw.type !== 'function')
          throw new StepError(`${where}.type must be "function"`);
        if (typeof raw.function !== 'object' || raw.function === null)
          throw new StepError(`${where}.function is missing`);
        if (typeof raw.function.name !== 'string' || raw.function.name === '')
          throw new StepError(`${where}.function.name must be a non-empty string`);
        // Some servers send "" for a call without arguments (the empty object), or the arguments as an
        // object instead of their JSON text.
        const given = raw.function.arguments;
        const args =
          given === '' || given === undefined || given === null
            ? '{}'
            : typeof given === 'object'
              ? JSON.stringify(given)
              : given;
        if (typeof args !== 'string')
          throw new StepError(
            `${where}.function.arguments must be the JSON text of the arguments (a string)`,
          );
        return {
          id: typeof raw.id === 'string' ? raw.id : '',
          type: 'function' as const,
          function: { name: raw.function.name, arguments: args },
        };
      });
      if (calls.length === 0) calls = undefined;
    }
    const text = (content ?? null) as string | null;
    if (text === null && !calls) throw new StepError('an assistant message needs content or tool_calls');
    const message: AssistantMessage = { role: 'assistant', content: text };
    if (calls) message.tool_calls = this.uniqueIds(calls);
    if (typeof input.name === 'string') message.name = input.name;
    return message;
  }

  /** Models sometimes repeat or omit call ids; the trajectory needs them unique, so repeats get a suffix. */
  private uniqueIds(calls: ToolCall[]): ToolCall[] {
    const taken = new Set(this.seenCallIds);
    return calls.map((call, index) => {
      let id = call.id || `call_${this.turns}_${this.stepsThisTurn}_${index}`;
      for (let n = 2; taken.has(id); n++) id = `${call.id || 'call'}_${n}`;
      taken.add(id);
      return id === call.id ? call : { ...call, id };
    });
  }

  private async toolStep(message: AssistantMessage & { tool_calls: ToolCall[] }, observation: Observation) {
    type Planned =
      | { kind: 'rejected'; call: ToolCall; feedback: string; hook: string }
      | { kind: 'skill'; call: ToolCall; skill: string; body: string }
      | { kind: 'run'; call: ToolCall; args: Record<string, unknown> }
      | { kind: 'error'; call: ToolCall; outcome: ToolOutcome };
    const planned: Planned[] = [];
    let marker: string | undefined;
    // What follows the step's results, decided as the validator replays it: the last pre_tool failure that
    // ends the turn, then each post_tool failure in result order (the last one decides).
    let outcome: Failed | undefined;
    for (const call of message.tool_calls) {
      this.seenCallIds.add(call.id);
      this.callsThisTurn++;
      const decision = this.decide('pre_tool', {
        call: call.function,
        toolCallsThisTurn: this.callsThisTurn,
      });
      if (decision) {
        marker ??= decision.failure.hook;
        if (this.commit(decision, observation).action === 'end') outcome = decision;
        planned.push({
          kind: 'rejected',
          call,
          hook: decision.failure.hook,
          feedback: rejectedCallContent(decision),
        });
        continue;
      }
      planned.push(this.plan(call));
    }
    this.push(observation, marker ? { ...message, hsa: { event: 'hook_rejected', hook: marker } } : message);
    // Tools of one message run concurrently, as a production runtime runs parallel calls; results keep call order.
    const outcomes = await Promise.all(
      planned.map((entry) => (entry.kind === 'run' ? this.runTool(entry.call, entry.args) : undefined)),
    );
    planned.forEach((entry, index) => {
      const id = entry.call.id;
      switch (entry.kind) {
        case 'rejected':
          this.push(observation, {
            role: 'tool',
            tool_call_id: id,
            content: entry.feedback,
            hsa: { event: 'hook_feedback', hook: entry.hook },
          });
          return;
        case 'skill':
          this.push(observation, { role: 'tool', tool_call_id: id, content: entry.body });
          this.loadedTurn.push(entry.skill);
          this.loadedConversation.push(entry.skill);
          return;
        case 'error':
        case 'run': {
          const record = entry.kind === 'run' ? outcomes[index]! : { ...entry.outcome, ms: 0 };
          const content = record.content;
          this.push(observation, { role: 'tool', tool_call_id: id, content });
          this.toolResults.push(content);
          const logged: ToolRecord = { callId: id, name: entry.call.function.name, content, ms: record.ms };
          if (record.error) logged.error = record.error;
          this.toolLog.push(logged);
          observation.tools.push(logged);
          const decision = this.decide('post_tool', {
            call: { name: entry.call.function.name, arguments: '' },
            text: content,
          });
          if (decision) {
            this.commit(decision, observation);
            outcome = decision;
          }
        }
      }
    });
    const next = outcome?.consequence;
    if (outcome && next?.action === 'end') this.endTurn(observation, outcome, next);
    else if (outcome && next?.action === 'retry')
      this.push(observation, {
        role: 'user',
        content: next.feedback,
        hsa: { event: 'hook_feedback', hook: outcome.failure.hook },
      });
  }

  /** What an accepted call will do: load a skill, run a tool, or answer with an error without running. */
  private plan(call: ToolCall) {
    const tool = this.toolsByName.get(call.function.name);
    if (!tool)
      return {
        kind: 'error' as const,
        call,
        outcome: toolError('unknown_tool', `tool "${call.function.name}" does not exist`),
      };
    let args: unknown;
    try {
      args = JSON.parse(call.function.arguments);
    } catch {
      return {
        kind: 'error' as const,
        call,
        outcome: toolError('invalid_arguments', `the arguments of "${tool.name}" are not valid JSON`),
      };
    }
    const errors = validateAgainstSchema(tool.parameters, args);
    const loader = this.harness.skills.loader;
    if (tool.name === loader.tool) {
      const id = (args as Record<string, unknown> | null)?.[loader.argument];
      const skill = this.harness.skills.items.find((item) => item.id === id);
      if (typeof id === 'string' && skill && errors.length === 0)
        return { kind: 'skill' as const, call, skill: skill.id, body: skill.body };
      return {
        kind: 'error' as const,
        call,
        outcome: toolError('unknown_skill', `no skill ${JSON.stringify(id ?? null)} exists`),
      };
    }
    if (errors.length > 0)
      return {
        kind: 'error' as const,
        call,
        outcome: toolError('invalid_arguments', `arguments of "${tool.name}": ${errors.join('; ')}`),
      };
    return { kind: 'run' as const, call, args: args as Record<string, unknown> };
  }

  private async runTool(
    call: ToolCall,
    args: Record<string, unknown>,
  ): Promise<ToolOutcome & { ms: number }> {
    const started = this.now();
    const callIndex = this.registryCalls++;
    const timeout = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onClose: (() => void) | undefined;
    const timedOut = new Promise<ToolOutcome>((resolve) => {
      timer = setTimeout(() => {
        timeout.abort(new Error('tool timeout'));
        resolve(toolError('timeout', `"${call.function.name}" did not answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      // Closing the episode answers a running call at once, whether or not the tool heeds its signal.
      onClose = () =>
        resolve(toolError('timeout', `the episode closed before "${call.function.name}" answered`));
      if (this.abort.signal.aborted) onClose();
      else this.abort.signal.addEventListener('abort', onClose, { once: true });
    });
    const signal = AbortSignal.any([timeout.signal, this.abort.signal]);
    let outcome: ToolOutcome;
    try {
      outcome = await Promise.race([
        Promise.resolve(
          this.runtime.call(
            { id: call.id, name: call.function.name, arguments: args, rawArguments: call.function.arguments },
            { harness: this.harness, signal, callIndex },
          ),
        ),
        timedOut,
      ]);
    } catch (error) {
      outcome = toolError('tool_error', error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
      if (onClose) this.abort.signal.removeEventListener('abort', onClose);
    }
    if (typeof outcome?.content !== 'string')
      outcome = toolError('malformed_output', `"${call.function.name}" returned no text content`);
    return { ...outcome, ms: this.now() - started };
  }

  private replyStep(text: string, message: AssistantMessage, observation: Observation) {
    const decision = this.decideReply(text);
    if (!decision) {
      this.push(observation, { ...message, content: text });
      this.open = false;
      this.turnEnds[this.turnEnds.length - 1] = 'reply';
      observation.turnEnded = true;
      observation.end = 'reply';
      return;
    }
    const { hook } = decision.failure;
    this.push(observation, { ...message, content: text, hsa: { event: 'hook_rejected', hook } });
    const next = this.commit(decision, observation);
    if (next.action === 'end') {
      this.endTurn(observation, decision, next);
      return;
    }
    if (next.action === 'retry')
      this.push(observation, { role: 'user', content: next.feedback, hsa: { event: 'hook_feedback', hook } });
  }

  // ── hooks ─────────────────────────────────────────────────────────────────────────────────────

  private replyFailure(text: string, skipHook?: string): Failure | undefined {
    return this.decideReply(text, skipHook)?.failure;
  }

  /** The state a hook sees now, for the one hook decision the validator also makes. */
  private step(stage: HookStage, step: Omit<HookStep, 'stage'>): HookStep {
    return {
      stage,
      loadedSkills: { turn: [...this.loadedTurn], conversation: [...this.loadedConversation] },
      toolResults: [...this.toolResults],
      userMessages: [...this.userMessages],
      context: this.context,
      toolCallsThisTurn: this.callsThisTurn,
      ...step,
    };
  }

  private decisionOptions(skipHook?: string) {
    return {
      failures: this.failuresThisTurn,
      hookChecks: this.run.hookChecks,
      ...(skipHook !== undefined ? { skip: skipHook } : {}),
    };
  }

  /** Decides one stage; returns the decision when a hook failed. */
  private decide(stage: HookStage, step: Omit<HookStep, 'stage'>): Failed | undefined {
    const decision = decideHooks(this.harness, this.step(stage, step), this.decisionOptions());
    return hookFailed(decision) ? decision : undefined;
  }

  /** Decides a reply (pre_reply, then post_reply); returns the decision when a hook failed. */
  private decideReply(text: string, skipHook?: string): Failed | undefined {
    const decision = decideReplyHooks(
      this.harness,
      this.step('pre_reply', { text }),
      this.decisionOptions(skipHook),
    ).at(-1);
    return hookFailed(decision) ? decision : undefined;
  }

  /** Counts a failure against its hook's budget for the turn and records what followed. */
  private commit(decision: Failed, observation: Observation): HookConsequence {
    const { failure, consequence, stage } = decision;
    this.hookEvents.push(failure.hook);
    this.failuresThisTurn.set(failure.hook, decision.failures);
    const outcome: HookEventRecord['outcome'] =
      consequence.action === 'end'
        ? consequence.end.event === 'hook_fallback'
          ? 'fallback'
          : 'blocked'
        : consequence.action;
    observation.hookEvents.push({ hook: failure.hook, stage, outcome, reason: failure.reason });
    return consequence;
  }

  private endTurn(
    observation: Observation,
    decision: Failed,
    consequence: Extract<HookConsequence, { action: 'end' }>,
  ) {
    const { event, content } = consequence.end;
    this.push(observation, { role: 'assistant', content, hsa: { event, hook: decision.failure.hook } });
    this.open = false;
    this.turnEnds[this.turnEnds.length - 1] = event;
    observation.turnEnded = true;
    observation.end = event;
  }

  private observation(): Observation {
    return { messages: [], turnEnded: false, hookEvents: [], tools: [] };
  }

  private push(observation: Observation, message: Message) {
    this.messages.push(message);
    observation.messages.push(message);
  }
}

/**
 * Messages as a Chat Completions endpoint takes them: trajectory markers stripped.
 *
 * @example
 * const request = { model: 'qwen', messages: toChatMessages(trajectory.messages) };
 */
export function toChatMessages(messages: readonly Message[]) {
  return messages.map((message) => {
    const { hsa: _marker, ...rest } = message as Message & { hsa?: unknown };
    return rest;
  });
}
