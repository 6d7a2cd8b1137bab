// Validates a trajectory under a harness: its shape, the system prompt, every tool call and result, every
// skill load, and every hook decision, replaying the agent loop's rules message by message.
import { BoundedCache } from '../harness/bounded-cache.js';
import { sameCanonicalJson } from '../harness/canonical-json.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import {
  type DecideHooksOptions,
  decideHooks,
  decideReplyHooks,
  type FailedHookDecision,
  type HookStageDecision,
  hookFailed,
  rejectedCallContent,
} from '../harness/hook-decision.js';
import type { HookStep } from '../harness/hook-engine.js';
import { HarnessAugmentError, type Issue, type JsonPath, quote } from '../harness/issues.js';
import { validateAgainstSchema } from '../harness/json-schema-validator.js';
import { objectNumber } from '../harness/object-number.js';
import { offeredTools, sharedChatCompletionTools } from '../harness/offered-tools.js';
import { fromZodIssues } from '../harness/parse-harness.js';
import { renderSystemPrompt } from '../harness/render-prompt.js';
import type { Harness, HookStage, Tool } from '../harness/schema.js';
import { type HookEvent, type Trajectory, TrajectorySchema } from './schema.js';

/** One hook evaluation during validation: where, at which stage, and which hook failed (if any). */
export interface HookDecision {
  path: JsonPath;
  stage: HookStage;
  failed?: string;
}

/** Counts over a trajectory: messages, turns, tool calls, skill loads, hook rejections. */
export interface TrajectoryStats {
  messages: number;
  turns: number;
  toolCalls: number;
  skillLoads: number;
  hookRejections: number;
}

/** What `validateTrajectory` found: valid or not, the issues, every hook decision, counts. */
export interface TrajectoryValidation {
  valid: boolean;
  issues: Issue[];
  /** The parsed trajectory, when its shape is valid. */
  trajectory?: Trajectory;
  /** Every hook evaluation, in order: certificates compare these between a trajectory and its variant. */
  decisions: HookDecision[];
  stats: TrajectoryStats;
}

/** Which comparisons `validateTrajectory` makes besides the structural checks, and the custom hook checks. */
export interface ValidateTrajectoryOptions {
  /** Compare the system message with the prompt rendered from the harness (default true). */
  checkSystemPrompt?: boolean;
  /** Compare the `tools` field, when present, with the harness's offered tools (default true). */
  checkOfferedTools?: boolean;
  /** The custom hook checks the harness names (default: none). */
  hookChecks?: HookCheckRegistry | undefined;
}

/** The result of re-deriving a trajectory's derived content from a harness. */
export interface Rederived {
  /** The trajectory with its system prompt, offered tools, skill bodies and hook turns as the harness makes them. */
  trajectory: Trajectory;
  /** What is still wrong once the derived content is the harness's: the free content breaks a rule. */
  issues: Issue[];
  decisions: HookDecision[];
  /**
   * The walk proof the result was told by (`forwardByProof`: from the trajectory's walk under the proof's
   * base, the same result decided without walking); `false` when a proof was offered and did not cover it,
   * so it was walked. (A `WalkProof`, typed by what it proves between, so that this module does not import
   * the one that reads it.)
   */
  byProof?: Readonly<{ base: Harness; harness: Harness }> | false;
}

interface PendingCall {
  name: string;
  path: JsonPath;
  skill?: string;
  /** Set when a pre_tool hook rejected the call: its tool message must carry this feedback. */
  rejection?: { hook: string; content: string };
}

/** What the next message must be after a hook decided, for a turn to stay consistent. */
interface Expectation {
  role: 'user' | 'assistant';
  event: HookEvent['event'];
  hook: string;
  content: string;
  at: JsonPath;
}

type Failed = FailedHookDecision;

const walks = { validate: 0, rederive: 0 };
/**
 * How many walks this process has made (`validateTrajectory`, `rederiveTrajectory`; every forward and
 * inverse relabel is one of the latter): tests count the work of a certificate with it, not time.
 *
 * @example
 * const before = trajectoryWalks().rederive; forwardTrajectory(t, relabel, variant); trajectoryWalks().rederive - before // 1
 */
export function trajectoryWalks(): { validate: number; rederive: number } {
  return { ...walks };
}

const emptyStats = (): TrajectoryStats => ({
  messages: 0,
  turns: 0,
  toolCalls: 0,
  skillLoads: 0,
  hookRejections: 0,
});

/**
 * Validates one trajectory (raw data or parsed) under a harness and reports every issue with its JSON path.
 *
 * @example
 * const { valid, issues } = validateTrajectory(JSON.parse(line), harness);
 */
export function validateTrajectory(
  input: unknown,
  harness: Harness,
  options: ValidateTrajectoryOptions = {},
): TrajectoryValidation {
  const parsed = TrajectorySchema.safeParse(input);
  if (!parsed.success) {
    return { valid: false, issues: fromZodIssues(parsed.error.issues), decisions: [], stats: emptyStats() };
  }
  const trajectory = parsed.data;
  walks.validate++;
  const walker = new TrajectoryWalker(harness, trajectory, false, options.hookChecks);
  if (options.checkOfferedTools !== false) walker.checkOfferedTools();
  walker.checkSystemMessage(options.checkSystemPrompt !== false);
  walker.walk();
  const issues = walker.issues;
  const result = {
    valid: issues.length === 0,
    issues,
    trajectory,
    decisions: walker.decisions,
    stats: walker.stats,
  };
  if (options.checkOfferedTools !== false && options.checkSystemPrompt !== false)
    validatedAtParse.set(trajectory, { harness, hookChecks: options.hookChecks, validation: result });
  derivedOfWalk.set(walker.decisions, walker.derived);
  return result;
}

/**
 * The hook decisions of a parsed trajectory under a harness: what `validateTrajectory(trajectory, harness,
 * { checkSystemPrompt: false, checkOfferedTools: false })` reports as `decisions`, without parsing the
 * trajectory again or checking call arguments against their schemas (no decision reads either). For a
 * check that asks only which hooks decide where, as often as it likes (a hook operator trying candidates).
 *
 * @example
 * walkHookDecisions(trajectory, harness).filter((decision) => decision.failed !== undefined)
 */
export function walkHookDecisions(
  trajectory: Trajectory,
  harness: Harness,
  options: { hookChecks?: HookCheckRegistry | undefined } = {},
): HookDecision[] {
  walks.validate++;
  const walker = new TrajectoryWalker(harness, trajectory, false, options.hookChecks, true);
  walker.checkSystemMessage(false);
  walker.walk();
  return walker.decisions;
}
/** The full validation that parsed a trajectory object (the object is the parse's own, new each time). */
// Pure function of content across runs: the validation that made a parsed trajectory object.
const validatedAtParse = new WeakMap<
  Trajectory,
  { harness: Harness; hookChecks: HookCheckRegistry | undefined; validation: TrajectoryValidation }
>();

/**
 * The validation `validateTrajectory` made when it parsed this trajectory object (every check on), with
 * the harness and hook checks it ran under; undefined for a trajectory it did not parse. The trajectory
 * facts read it (`validationFacts`), so an input validated on the way in is not walked again.
 *
 * @example
 * const { trajectory } = validateTrajectory(line, base); validationAtParse(trajectory)?.validation.valid
 */
export function validationAtParse(
  trajectory: Trajectory,
):
  | { harness: Harness; hookChecks: HookCheckRegistry | undefined; validation: TrajectoryValidation }
  | undefined {
  return validatedAtParse.get(trajectory);
}

/**
 * Records `validation` as the parse-time validation of `trajectory`, a structured copy of an input another
 * thread validated under the same harness content and hook checks (an augment worker thread gets the
 * validation with the example), so that its facts read it instead of walking the input again. `derived` is
 * what that walk derived (`derivedContent` of its decisions there), which the copy of the decisions does
 * not carry.
 *
 * @example
 * adoptValidationAtParse(task.trajectory, harness, hookChecks, task.validation, task.derived)
 */
export function adoptValidationAtParse(
  trajectory: Trajectory,
  harness: Harness,
  hookChecks: HookCheckRegistry | undefined,
  validation: Omit<TrajectoryValidation, 'trajectory'>,
  derived?: DerivedMessages,
): void {
  validatedAtParse.set(trajectory, { harness, hookChecks, validation: { ...validation, trajectory } });
  if (derived) derivedOfWalk.set(validation.decisions, derived);
}

/**
 * Rewrites the content a harness determines — the system prompt, the offered tools, the result of each skill
 * load, hook feedback, block and fallback turns — as the given harness makes it, and validates the rest.
 * Relabels use it to move a trajectory to a variant harness (and back) without patching any of that text.
 *
 * @example
 * const { trajectory, issues } = rederiveTrajectory(movedTrajectory, variantHarness);
 */
export function rederiveTrajectory(
  trajectory: Trajectory,
  harness: Harness,
  options: { hookChecks?: HookCheckRegistry | undefined } = {},
): Rederived {
  // The walk writes only the `content` of messages (derived content) and `tools`: a copy of each message
  // is enough, its parts (tool calls, hook events) are shared with the input and never written. A deep
  // copy of every trajectory at every move was most of this function's own time, and garbage after it.
  const copy: Trajectory = {
    ...trajectory,
    messages: trajectory.messages.map((message) => ({ ...message })),
  };
  walks.rederive++;
  const walker = new TrajectoryWalker(harness, copy, true, options.hookChecks);
  // One array per variant (shared, as the walk shares the messages' parts): see sharedChatCompletionTools.
  if (copy.tools) copy.tools = sharedChatCompletionTools(harness);
  walker.checkSystemMessage(true);
  walker.walk();
  derivedOfWalk.set(walker.decisions, walker.derived);
  return { trajectory: copy, issues: walker.issues, decisions: walker.decisions };
}

/**
 * The messages whose `content` a walk derives from the harness (the system prompt, skill-load results,
 * hook turns, rejected calls' results) and that hold it (equal to it, or written with it by a re-derivation),
 * by the walk's decision list (the one object every fact of a walk shares: `validationFacts` and
 * `forwardFacts` pass it on). A walk reads those contents only to compare them: which messages it derives,
 * and what it writes there, depend on the other fields alone (see `restoresWithoutWalk` in
 * src/augment/certificate.ts, which relies on this).
 */
// Pure function of content across runs: the derived messages of the walk that made a decision list.
const derivedOfWalk = new WeakMap<readonly HookDecision[], DerivedMessages>();

/**
 * The messages a walk derives, by index, each with the skill whose body it holds (a skill load's result) or
 * undefined (the system prompt, a hook turn, a rejected call's result).
 */
export type DerivedMessages = ReadonlyMap<number, string | undefined>;

/**
 * The derived messages of the walk that made `decisions` (see `derivedOfWalk`), or undefined for a
 * decision list no walk of this module made.
 *
 * @example
 * derivedContent(validateTrajectory(line, harness).decisions)?.has(0) // the system prompt, when it matches
 */
export function derivedContent(decisions: readonly HookDecision[]): DerivedMessages | undefined {
  return derivedOfWalk.get(decisions);
}

/** What a walk reads of a harness: its offered tools and its skill bodies, by name. */
export interface WalkedHarness {
  tools: ReadonlyMap<string, Tool>;
  skills: ReadonlyMap<string, string>;
}
// Pure function of content across runs: a harness object's tools and skills by name.
const walkedHarnesses = new WeakMap<Harness, WalkedHarness>();

/**
 * The offered tools and skill bodies of a harness by name, once per harness object (harnesses are treated
 * as immutable): every walk under a variant reads the same tool objects, so a schema is compiled, and its
 * validator found, by object (`validateAgainstSchema`) instead of by hashing a fresh loader schema per walk.
 *
 * @example
 * walkedHarness(harness).tools.get('load_skill')?.parameters
 */
export function walkedHarness(harness: Harness): WalkedHarness {
  let known = walkedHarnesses.get(harness);
  if (!known) {
    known = {
      tools: new Map(offeredTools(harness).map((tool) => [tool.name, tool])),
      skills: new Map(harness.skills.items.map((skill) => [skill.id, skill.body])),
    };
    walkedHarnesses.set(harness, known);
  }
  return known;
}

/**
 * The schema errors of a call's arguments under a harness, as a walk finds them: empty when they validate,
 * undefined when the harness offers no such tool or the arguments are not JSON.
 *
 * @example
 * callArgumentErrors(variant, 'get_price', '{"item_id":"a1"}') // []
 */
export function callArgumentErrors(
  harness: Harness,
  name: string,
  rawArguments: string,
): readonly string[] | undefined {
  const tool = walkedHarness(harness).tools.get(name);
  return tool ? argumentErrors(tool.parameters, rawArguments) : undefined;
}

/** The skill a loader call's arguments name (a string at `argument`), or undefined. */
function loadedSkillOf(rawArguments: string, argument: string): string | undefined {
  try {
    const skill = (JSON.parse(rawArguments) as Record<string, unknown> | null)?.[argument];
    return typeof skill === 'string' ? skill : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The schema errors of a call's arguments (undefined when they are not JSON), once per (schema object,
 * arguments text): the walks of one example under a variant and under each candidate of its hook steps
 * share the variant's tool objects, and check the same calls.
 */
function argumentErrors(schema: Tool['parameters'], rawArguments: string): readonly string[] | undefined {
  const key = `${objectNumber(schema)}\u0000${rawArguments}`;
  const known = checkedArguments.get(key);
  if (known !== undefined) return known ?? undefined;
  let value: unknown;
  try {
    value = JSON.parse(rawArguments);
  } catch {
    checkedArguments.set(key, null);
    return undefined;
  }
  return checkedArguments.set(key, validateAgainstSchema(schema, value)) ?? undefined;
}
// Pure function of content across runs: a call's argument errors (null: not JSON), by schema object and text.
const checkedArguments = new BoundedCache<string, readonly string[] | null>(
  4 << 20,
  (key, errors) =>
    2 * key.length + 64 + (errors ?? []).reduce((sum, error) => sum + 2 * error.length + 32, 0),
  'validate-trajectory.checkedArguments',
);

class TrajectoryWalker {
  readonly issues: Issue[] = [];
  readonly decisions: HookDecision[] = [];
  /** Messages whose content the walk derives and that hold it (`derivedContent`), with the skill loaded. */
  readonly derived = new Map<number, string | undefined>();
  readonly stats: TrajectoryStats;
  private readonly tools: ReadonlyMap<string, Tool>;
  private readonly skills: ReadonlyMap<string, string>;
  private readonly loader: Harness['skills']['loader'];

  // Per-conversation state.
  private readonly pending = new Map<string, PendingCall>();
  private readonly seenCallIds = new Set<string>();
  private readonly toolResults: string[] = [];
  private readonly userMessages: string[] = [];
  private readonly loadedConversation: string[] = [];
  private expectation: Expectation | undefined;
  // Per-turn state, reset by each user message.
  private loadedTurn: string[] = [];
  private callsThisTurn = 0;
  private failuresThisTurn = new Map<string, number>();

  constructor(
    private readonly harness: Harness,
    private readonly trajectory: Trajectory,
    /** Overwrite derived content with what the harness makes, instead of reporting a mismatch. */
    private readonly repair: boolean,
    private readonly hookChecks: HookCheckRegistry | undefined,
    /** Only the decisions are read: arguments are not checked against their schemas. */
    private readonly decisionsOnly = false,
  ) {
    const known = walkedHarness(harness);
    this.tools = known.tools;
    this.skills = known.skills;
    this.loader = harness.skills.loader;
    this.stats = { ...emptyStats(), messages: trajectory.messages.length };
  }

  private messageAt(path: JsonPath) {
    return path.length === 2 && path[0] === 'messages'
      ? this.trajectory.messages[path[1] as number]
      : undefined;
  }

  private issue(code: string, path: JsonPath, message: string) {
    this.issues.push({ code, path, message });
  }

  checkOfferedTools() {
    const offered = this.trajectory.tools;
    if (!offered) return;
    const expected = sharedChatCompletionTools(this.harness);
    const length = Math.max(offered.length, expected.length);
    for (let index = 0; index < length; index++) {
      if (!sameCanonicalJson(offered[index] ?? null, expected[index] ?? null)) {
        const name = expected[index]?.function.name;
        this.issue(
          'tools_mismatch',
          ['tools', index],
          name === undefined
            ? 'the harness offers no tool at this position'
            : `does not match the harness's offered tool ${quote(name)} at this position`,
        );
        return;
      }
    }
  }

  checkSystemMessage(compareContent: boolean) {
    const first = this.trajectory.messages[0];
    if (first?.role !== 'system') {
      this.issue('missing_system_message', ['messages', 0], 'the first message must be the system prompt');
      return;
    }
    if (!compareContent) return;
    let rendered: string;
    try {
      rendered = renderSystemPrompt(this.harness, this.trajectory.context);
    } catch (error) {
      this.issue(
        'template_error',
        ['context'],
        `the system prompt cannot be rendered for this context: ${(error as Error).message}`,
      );
      return;
    }
    if (rendered === first.content) this.derived.set(0, undefined);
    else if (this.repair) {
      first.content = rendered;
      this.derived.set(0, undefined);
    } else {
      const at = firstDifference(rendered, first.content);
      this.issue(
        'system_prompt_mismatch',
        ['messages', 0, 'content'],
        `differs from the prompt rendered from the harness at character ${at}: expected ${JSON.stringify(
          rendered.slice(at, at + 40),
        )}, found ${JSON.stringify(first.content.slice(at, at + 40))}`,
      );
    }
  }

  walk() {
    this.trajectory.messages.forEach((message, index) => {
      const path: JsonPath = ['messages', index];
      if (index === 0 && message.role === 'system') return;
      switch (message.role) {
        case 'system':
          this.issue('unexpected_system_message', path, 'a system message may only come first');
          return;
        case 'user':
          if (message.hsa?.event === 'hook_feedback')
            this.meetExpectation('user', message.hsa, message.content, path);
          else if (message.hsa)
            this.issue(
              'invalid_hook_event',
              [...path, 'hsa', 'event'],
              `a user message cannot be ${quote(message.hsa.event)}`,
            );
          else this.userMessage(message.content, path);
          return;
        case 'assistant':
          this.assistantMessage(message, path);
          return;
        case 'tool':
          this.toolMessage(message, path);
          return;
      }
    });
    this.closeOpenCalls();
    this.reportUnmetExpectation();
  }

  /** A hook decided, but the turn moved on without the message its decision requires. */
  private reportUnmetExpectation() {
    if (!this.expectation) return;
    const { event, hook, at } = this.expectation;
    this.issue('missing_hook_outcome', at, `hook "${hook}" decided here, but no "${event}" message follows`);
    this.expectation = undefined;
  }

  private closeOpenCalls() {
    for (const [id, call] of this.pending) {
      this.issue(
        'unanswered_tool_call',
        call.path,
        `tool call ${quote(id)} (${quote(call.name)}) has no tool result`,
      );
    }
    this.pending.clear();
  }

  private meetExpectation(
    role: Expectation['role'],
    event: HookEvent | undefined,
    content: string | null,
    path: JsonPath,
  ) {
    const expected = this.expectation;
    if (!expected) {
      this.issue(
        'unexpected_hook_event',
        [...path, 'hsa'],
        `no hook decision calls for a ${quote(event?.event)} message here`,
      );
      return;
    }
    this.expectation = undefined;
    if (expected.role !== role || event?.event !== expected.event || event.hook !== expected.hook) {
      this.issue(
        'hook_outcome_mismatch',
        path,
        `hook "${expected.hook}" requires a ${expected.role} "${expected.event}" message here`,
      );
      return;
    }
    const message = this.messageAt(path);
    // A null content where the hook renders '' is let through and left as it is: not derived.
    if (content === expected.content) this.derived.set(path[1] as number, undefined);
    else if ((content ?? '') !== expected.content && this.repair && message) {
      message.content = expected.content;
      this.derived.set(path[1] as number, undefined);
    } else if ((content ?? '') !== expected.content) {
      this.issue(
        'hook_outcome_mismatch',
        [...path, 'content'],
        `must be ${quote(expected.content)} as hook "${expected.hook}" renders it, found ${quote(content)}`,
      );
    }
  }

  private userMessage(content: string, path: JsonPath) {
    this.reportUnmetExpectation();
    this.closeOpenCalls();
    this.stats.turns++;
    this.loadedTurn = [];
    this.callsThisTurn = 0;
    this.failuresThisTurn = new Map();
    this.userMessages.push(content);
    const decision = this.decide(path, { stage: 'input', text: content });
    if (decision) this.expectOutcome(decision, path);
  }

  /** Decides the hooks of a stage (the one hook decision), records it and returns it when a hook failed. */
  private decide(path: JsonPath, step: HookStep): Failed | undefined {
    return this.record(path, (options) => [decideHooks(this.harness, this.fullStep(step), options)]);
  }

  /** Decides a reply: pre_reply, then post_reply when those pass. */
  private decideReply(path: JsonPath, text: string): Failed | undefined {
    return this.record(path, (options) =>
      decideReplyHooks(this.harness, this.fullStep({ stage: 'pre_reply', text }), options),
    );
  }

  private fullStep(step: HookStep): HookStep {
    return {
      loadedSkills: { turn: this.loadedTurn, conversation: this.loadedConversation },
      toolResults: this.toolResults,
      userMessages: this.userMessages,
      context: this.trajectory.context,
      toolCallsThisTurn: this.callsThisTurn,
      ...step,
    };
  }

  private record(
    path: JsonPath,
    compute: (options: DecideHooksOptions) => HookStageDecision[],
  ): Failed | undefined {
    let decisions: HookStageDecision[];
    try {
      decisions = compute({
        failures: this.failuresThisTurn,
        hookChecks: this.hookChecks,
      });
    } catch (error) {
      // A feedback that cannot render, an unregistered custom check or a refused pattern: the step cannot be decided.
      if (HarnessAugmentError.isInstance(error) && error.issues.length > 0)
        for (const problem of error.issues) this.issue(problem.code, path, problem.message);
      else
        this.issue('template_error', path, `a hook feedback failed to render: ${(error as Error).message}`);
      return undefined;
    }
    for (const decision of decisions)
      this.decisions.push({
        path,
        stage: decision.stage,
        ...(decision.failure ? { failed: decision.failure.hook } : {}),
      });
    const last = decisions.at(-1);
    return hookFailed(last) ? last : undefined;
  }

  /**
   * After a failure: counts it against the hook's retry budget and returns the feedback when a retry is
   * allowed, or sets the expectation of the block/fallback message that ends the turn.
   */
  private expectOutcome(decision: Failed, at: JsonPath): string | undefined {
    const { failure, consequence } = decision;
    this.failuresThisTurn.set(failure.hook, decision.failures);
    if (consequence.action === 'retry') return consequence.feedback;
    if (consequence.action === 'pass_through') return '';
    this.expectation = { role: 'assistant', ...consequence.end, hook: failure.hook, at };
    return undefined;
  }

  private assistantMessage(
    message: Extract<Trajectory['messages'][number], { role: 'assistant' }>,
    path: JsonPath,
  ) {
    const event = message.hsa?.event;
    if (event === 'hook_blocked' || event === 'hook_fallback' || event === 'hook_feedback') {
      this.meetExpectation('assistant', message.hsa, message.content, path);
      return;
    }
    this.reportUnmetExpectation();
    if (this.pending.size > 0) this.closeOpenCalls();
    if (message.tool_calls) {
      this.toolCalls(message.tool_calls, message.hsa, path);
      return;
    }
    if (message.content === null) {
      this.issue('empty_assistant_message', path, 'an assistant message needs content or tool_calls');
      return;
    }
    const decision = this.decideReply(path, message.content);
    const failure = decision?.failure;
    if (event === 'hook_rejected') {
      this.stats.hookRejections++;
      if (!failure) {
        this.issue(
          'hook_outcome_mismatch',
          [...path, 'hsa'],
          `marked as rejected by ${quote(message.hsa?.hook)}, but every hook passes`,
        );
        return;
      }
      if (failure.hook !== message.hsa?.hook) {
        this.issue(
          'hook_outcome_mismatch',
          [...path, 'hsa', 'hook'],
          `the first failing hook is "${failure.hook}", not ${quote(message.hsa?.hook)}`,
        );
        return;
      }
      const feedback = this.expectOutcome(decision as Failed, path);
      if (feedback !== undefined) {
        this.expectation = {
          role: 'user',
          event: 'hook_feedback',
          hook: failure.hook,
          content: feedback,
          at: path,
        };
      }
      return;
    }
    if (failure) {
      this.issue(
        'hook_failed_unmarked',
        [...path, 'content'],
        `hook "${failure.hook}" fails on this reply (${failure.reason}), but it is not marked as rejected`,
      );
    }
  }

  private toolCalls(
    calls: NonNullable<Extract<Trajectory['messages'][number], { role: 'assistant' }>['tool_calls']>,
    event: HookEvent | undefined,
    path: JsonPath,
  ) {
    let rejected = false;
    calls.forEach((call, index) => {
      const at: JsonPath = [...path, 'tool_calls', index];
      this.stats.toolCalls++;
      this.callsThisTurn++;
      if (this.seenCallIds.has(call.id))
        this.issue('duplicate_tool_call_id', [...at, 'id'], `tool call id ${quote(call.id)} is used twice`);
      this.seenCallIds.add(call.id);
      const pending: PendingCall = { name: call.function.name, path: at };
      const before = this.issues.length;
      this.checkCall(call.function.name, call.function.arguments, at, pending);
      const callIssues = this.issues.splice(before);
      const decision = this.decide(at, {
        stage: 'pre_tool',
        call: call.function,
        toolCallsThisTurn: this.callsThisTurn,
      });
      const failure = decision?.failure;
      // In a message marked as rejected, every call that fails a pre_tool hook was rejected by that hook
      // (its feedback names it); the marker names the first one.
      const rejectedHere = failure !== undefined && event?.event === 'hook_rejected';
      // A call that a hook rejected never ran: what is wrong with it is the reason for the rejection, not a fault.
      if (!rejectedHere) this.issues.push(...callIssues);
      if (failure && !rejectedHere) {
        this.issue(
          'hook_failed_unmarked',
          at,
          `hook "${failure.hook}" fails on this call (${failure.reason}), but the message is not marked as rejected by it`,
        );
      } else if (decision && failure) {
        if (failure.hook === event?.hook) rejected = true;
        this.stats.hookRejections++;
        this.expectOutcome(decision, at);
        pending.rejection = { hook: failure.hook, content: rejectedCallContent(decision) };
      }
      this.pending.set(call.id, pending);
    });
    if (event?.event === 'hook_rejected' && !rejected) {
      this.issue(
        'hook_outcome_mismatch',
        [...path, 'hsa'],
        `marked as rejected by "${event.hook}", but no call fails that hook`,
      );
    }
  }

  private checkCall(name: string, rawArguments: string, at: JsonPath, pending: PendingCall) {
    const tool = this.tools.get(name);
    if (!tool) {
      this.issue(
        'unknown_tool',
        [...at, 'function', 'name'],
        `tool ${quote(name)} does not exist in the harness`,
      );
      return;
    }
    if (name === this.loader.tool) {
      // Only the loader's arguments decide anything (the skill it loads, read here); every call's are checked
      // against its schema below, which no decision reads.
      const skill = loadedSkillOf(rawArguments, this.loader.argument);
      if (skill !== undefined && !this.skills.has(skill)) {
        this.issue(
          'unknown_skill',
          [...at, 'function', 'arguments'],
          `skill ${quote(skill)} does not exist in the harness`,
        );
        return;
      }
      if (skill !== undefined) pending.skill = skill;
    }
    if (this.decisionsOnly) return;
    const errors = argumentErrors(tool.parameters, rawArguments);
    if (errors === undefined)
      this.issue(
        'invalid_arguments_json',
        [...at, 'function', 'arguments'],
        `arguments of ${quote(name)} are not valid JSON`,
      );
    else
      for (const error of errors)
        this.issue(
          'invalid_arguments',
          [...at, 'function', 'arguments'],
          `arguments of ${quote(name)}: ${error}`,
        );
  }

  private toolMessage(message: Extract<Trajectory['messages'][number], { role: 'tool' }>, path: JsonPath) {
    const call = this.pending.get(message.tool_call_id);
    if (!call) {
      const known = this.seenCallIds.has(message.tool_call_id);
      this.issue(
        known ? 'duplicate_tool_result' : 'orphan_tool_result',
        [...path, 'tool_call_id'],
        known
          ? `tool call ${quote(message.tool_call_id)} is already answered`
          : `no open tool call has the id ${quote(message.tool_call_id)}`,
      );
      return;
    }
    this.pending.delete(message.tool_call_id);
    if (call.rejection) {
      const { hook, content } = call.rejection;
      if (message.hsa?.event !== 'hook_feedback' || message.hsa.hook !== hook) {
        this.issue(
          'hook_outcome_mismatch',
          path,
          `hook "${hook}" rejected this call: its result must be marked as its feedback`,
        );
      } else if (message.content === content) {
        this.derived.set(path[1] as number, undefined);
      } else if (this.repair) {
        message.content = content;
        this.derived.set(path[1] as number, undefined);
      } else {
        this.issue(
          'hook_outcome_mismatch',
          [...path, 'content'],
          `must be ${quote(content)} as hook "${hook}" renders it`,
        );
      }
      return;
    }
    if (message.hsa) {
      this.issue('unexpected_hook_event', [...path, 'hsa'], 'no hook rejected this call');
      return;
    }
    if (call.skill !== undefined) {
      this.stats.skillLoads++;
      const body = this.skills.get(call.skill) as string;
      if (message.content === body) this.derived.set(path[1] as number, call.skill);
      else if (this.repair) {
        message.content = body;
        this.derived.set(path[1] as number, call.skill);
      } else {
        this.issue(
          'skill_body_mismatch',
          [...path, 'content'],
          `the result of loading ${quote(call.skill)} must be the skill's body`,
        );
      }
      this.loadedTurn.push(call.skill);
      this.loadedConversation.push(call.skill);
      return;
    }
    this.toolResults.push(message.content);
    const decision = this.decide(path, {
      stage: 'post_tool',
      call: { name: call.name, arguments: '' },
      text: message.content,
    });
    // A result that fails a post_tool hook: after the step's results, a user message with the feedback
    // (retry) or the message that ends the turn (block, fallback). With several, the last one decides.
    if (decision) {
      const feedback = this.expectOutcome(decision, path);
      if (feedback !== undefined)
        this.expectation = {
          role: 'user',
          event: 'hook_feedback',
          hook: decision.failure.hook,
          content: feedback,
          at: path,
        };
    }
  }
}

function firstDifference(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return index;
  return length;
}
