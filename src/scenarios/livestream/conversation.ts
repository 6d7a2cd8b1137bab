// The oracle's side of a live episode: the scripted turns (kit.ts) say what to do in the base harness's
// vocabulary; this class says it to the runtime's Episode in the vocabulary of the harness being run (the
// variant's relabel maps every tool name, argument and skill id), reads the observations back, retries
// calls that failed (faults, or a rejection the harness lets it retry) and stops when the harness ends the
// turn. In strict mode (fixture generation) every hook decision the script expects is asserted instead.
import type { HookOutcome } from '../../harness/hook-engine.js';
import type { Harness } from '../../harness/schema.js';
import type { Episode, Observation } from '../../runtime/episode.js';
import { isToolError } from '../../runtime/episode-task.js';
import { type Relabel, relabelMessages } from '../../trajectory/relabel.js';
import type { AssistantMessage, Message } from '../../trajectory/schema.js';
import type { Rng, ToolResult } from './world.js';

type Failure = Extract<HookOutcome, { pass: false }>;

export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

/** The script cannot go on as written (strict mode), or an expectation of the script does not hold. */
export class GenerationError extends Error {}

/** The harness ended the turn (block, fallback, step limit): the script's turn stops here. */
export class TurnEnded extends Error {}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export interface ConversationOptions {
  /** Maps the script's base vocabulary into the vocabulary of the harness being run. */
  relabel?: Relabel;
  /** Assert every hook decision the script expects (fixture generation); otherwise adapt. */
  strict: boolean;
}

export class Conversation {
  /** Script steps that did not go as written (non-strict mode), for diagnostics. */
  readonly deviations: string[] = [];

  constructor(
    private readonly episode: Episode,
    /** The base harness the script is written against. */
    private readonly base: Harness,
    private readonly idRng: Rng,
    private readonly options: ConversationOptions,
  ) {}

  get messages(): Message[] {
    return this.episode.messages;
  }

  /** Hook ids that rejected something in this conversation, in order. */
  get hookEvents(): string[] {
    return this.episode.hookEvents;
  }

  get strict(): boolean {
    return this.options.strict;
  }

  get loader() {
    return this.base.skills.loader;
  }

  private callId() {
    let id = 'call_';
    for (let index = 0; index < 24; index++) id += ID_ALPHABET[Math.floor(this.idRng() * ID_ALPHABET.length)];
    return id;
  }

  private forward(message: AssistantMessage): AssistantMessage {
    const relabel = this.options.relabel;
    if (!relabel || relabel.steps.length === 0) return message;
    return relabelMessages([message], relabel, 'forward', false)[0] as AssistantMessage;
  }

  private forwardText(text: string): string {
    return this.forward({ role: 'assistant', content: text }).content ?? text;
  }

  private expect(what: string, expected: string | undefined, actual: string | undefined) {
    if (expected === actual) return;
    const message = `${what}: expected ${expected ?? 'no hook'} to fail, got ${actual ?? 'none'}`;
    if (this.options.strict) throw new GenerationError(message);
    this.deviations.push(message);
  }

  /** A viewer message; returns false when an input hook ended the turn. */
  async viewer(text: string, expectHook?: string): Promise<boolean> {
    const observation = await this.episode.user(text);
    this.expect(`viewer message ${JSON.stringify(text)}`, expectHook, observation.hookEvents[0]?.hook);
    return !observation.turnEnded;
  }

  private async send(message: AssistantMessage): Promise<Observation> {
    if (!this.episode.turnOpen) throw new TurnEnded('the turn is over');
    return this.episode.assistant(this.forward(message));
  }

  /**
   * One assistant message with the planned calls; returns their parsed results in order. A call that
   * fails (a fault, or a rejection with feedback) is made again in a new message until it succeeds or the
   * harness ends the turn.
   */
  async calls(planned: PlannedCall[]): Promise<ToolResult[]> {
    const results: Array<ToolResult | undefined> = planned.map(() => undefined);
    let pending = planned.map((_, index) => index);
    while (pending.length > 0) {
      const ids = pending.map(() => this.callId());
      const observation = await this.send({
        role: 'assistant',
        content: null,
        tool_calls: pending.map((index, position) => ({
          id: ids[position]!,
          type: 'function' as const,
          function: { name: planned[index]!.name, arguments: JSON.stringify(planned[index]!.args) },
        })),
      });
      if (observation.hookEvents.length > 0) {
        const hook = observation.hookEvents[0]!.hook;
        if (this.options.strict)
          throw new GenerationError(`calls ${planned.map((call) => call.name).join(', ')} fail hook ${hook}`);
        this.deviations.push(`calls rejected by ${hook}`);
      }
      const byId = new Map<string, Message>();
      for (const message of observation.messages)
        if (message.role === 'tool') byId.set(message.tool_call_id, message);
      const failed: number[] = [];
      pending.forEach((index, position) => {
        const message = byId.get(ids[position]!);
        const isLoad = planned[index]!.name === this.loader.tool;
        if (message?.role !== 'tool' || message.hsa || (!isLoad && isToolError(message.content))) {
          failed.push(index);
          return;
        }
        results[index] = isLoad ? {} : (JSON.parse(message.content) as ToolResult);
      });
      if (observation.turnEnded) throw new TurnEnded('the harness ended the turn during tool calls');
      if (failed.length > 0 && this.options.strict)
        throw new GenerationError(`calls failed: ${failed.map((index) => planned[index]!.name).join(', ')}`);
      pending = failed;
    }
    return results as ToolResult[];
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return (await this.calls([{ name, args }]))[0]!;
  }

  async load(...skills: string[]): Promise<void> {
    await this.calls(skills.map((id) => ({ name: this.loader.tool, args: { [this.loader.argument]: id } })));
  }

  /**
   * A call that a pre_tool hook should reject (raw arguments, as a model would write them). Returns false
   * when the rejection ended the turn.
   */
  async rejectedCall(name: string, rawArguments: string, expectHook: string): Promise<boolean> {
    const observation = await this.send({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: this.callId(), type: 'function', function: { name, arguments: rawArguments } }],
    });
    this.expect(`call ${name}${rawArguments}`, expectHook, observation.hookEvents[0]?.hook);
    return !observation.turnEnded;
  }

  private preview(text: string, skip?: string): Failure | undefined {
    return this.episode.previewReply(this.forwardText(text), skip);
  }

  /** Whether a reply would pass every hook except `hook` right now. */
  passesExcept(text: string, hook: string): boolean {
    return this.preview(text, hook) === undefined;
  }

  /** Whether a reply passes every hook right now. */
  passes(text: string): boolean {
    return this.preview(text) === undefined;
  }

  /** The first failing hook of a reply right now, if any. */
  failingHook(text: string): string | undefined {
    return this.preview(text)?.hook;
  }

  /** The first candidate that fails exactly `hook` first, or undefined. */
  firstFailing(hook: string, candidates: string[]): string | undefined {
    return candidates.find((text) => this.preview(text)?.hook === hook);
  }

  /**
   * Replies with the first candidate that passes every hook. In strict mode none passing is an error; in
   * live mode the candidates are tried in order until one is accepted or the harness ends the turn.
   */
  async reply(...candidates: string[]): Promise<string> {
    const passing = candidates.filter((text) => this.passes(text));
    if (passing.length === 0 && this.options.strict) {
      const reasons = candidates.map((text) => {
        const failure = this.preview(text);
        return `  ${JSON.stringify(text)} → ${failure?.hook}: ${failure?.reason}`;
      });
      throw new GenerationError(`no candidate reply passes the hooks:\n${reasons.join('\n')}`);
    }
    const order = [...passing, ...candidates.filter((text) => !passing.includes(text))];
    for (const text of order) {
      const observation = await this.send({ role: 'assistant', content: text });
      if (observation.end === 'reply') return text;
      if (this.options.strict) throw new GenerationError(`reply ${JSON.stringify(text)} was not accepted`);
      this.deviations.push(`reply rejected by ${observation.hookEvents[0]?.hook ?? 'the runtime'}`);
      if (observation.turnEnded) throw new TurnEnded('the harness ended the turn on a reply');
    }
    throw new TurnEnded('no candidate reply was accepted');
  }

  /**
   * A reply that a reply hook should reject. Returns true when a feedback turn follows (the model may try
   * again), false when the retry budget ran out and the turn ended. Live mode skips an attempt that the
   * harness would accept, so a deliberately wrong reply is never the viewer's answer.
   */
  async rejectedReply(text: string, expectHook: string): Promise<boolean> {
    const failure = this.preview(text);
    if (!this.options.strict && failure === undefined) {
      this.deviations.push(`skipped a failed attempt that ${expectHook} would accept`);
      return true;
    }
    const observation = await this.send({ role: 'assistant', content: text });
    this.expect(`reply ${JSON.stringify(text)}`, expectHook, observation.hookEvents[0]?.hook);
    return !observation.turnEnded;
  }
}
