// Brings conversations logged by another system under a harness: normalises the log's messages, maps legacy
// tool and skill names through an alias map, keeps or re-renders the system prompt, fills skill loads with
// the skill body, and replays the harness's hooks to add the markers the validator expects to unmarked
// retries. The markers come from the validator's own decisions, so a written trajectory always validates;
// what cannot be reconciled is rejected with a reason.
import { z } from 'zod';
import { hashHarness } from '../harness/hash.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { formatPath, type Issue, type JsonPath } from '../harness/issues.js';
import { offeredTools, toChatCompletionTools } from '../harness/offered-tools.js';
import { renderSystemPrompt } from '../harness/render-prompt.js';
import { type RunContext, runContextOf } from '../harness/run-context.js';
import type { Harness, Hook } from '../harness/schema.js';
import { parseJsonlLine } from './read-jsonl.js';
import { type HookEvent, HookEventSchema, type Message, type ToolCall, type Trajectory } from './schema.js';
import { type HookDecision, rederiveTrajectory, validateTrajectory } from './validate-trajectory.js';

/**
 * Legacy names a log may use, mapped to the harness's names: `{ tools: { old: new }, skills: { old: new } }`.
 *
 * @example
 * LogAliasesSchema.parse({ tools: { lookup_employee: 'lookup_user' } }) // { tools: {…}, skills: {} }
 */
export const LogAliasesSchema = z
  .strictObject({
    tools: z
      .record(z.string(), z.string().min(1))
      .default({})
      .describe('Legacy tool name → harness tool name.'),
    skills: z
      .record(z.string(), z.string().min(1))
      .default({})
      .describe('Legacy skill id → harness skill id.'),
  })
  .describe('Name aliases for `hsa import trajectories`.');

/** Legacy tool and skill names a log may use, mapped to the harness's names (`LogAliasesSchema`). */
export type LogAliases = z.input<typeof LogAliasesSchema>;

/**
 * How `importLogLine` reads a log: name aliases, whether the system message is rendered or kept, strict or
 * loose hook turns.
 */
export interface ImportLogOptions {
  aliases?: LogAliases;
  /** `render` (default): the system message becomes the prompt the harness renders for the log's context; `keep`: the logged text stays. */
  system?: 'keep' | 'render';
  /**
   * `strict` (default): a logged turn that a hook decision explains (feedback, fallback, a rejected call's
   * result) must carry the harness's text, whitespace aside; `loose`: any turn in that position is taken
   * as it and re-rendered from the harness.
   */
  hookTurns?: 'strict' | 'loose';
  /** The custom hook checks the harness names (default: none), when no `run` is given. */
  hookChecks?: HookCheckRegistry | undefined;
  /** The import run the line belongs to (`createRunContext`); default: one of its own, with `hookChecks`. */
  run?: RunContext | undefined;
}

/** Why a log line was not written. `reason` is a stable snake_case code. */
export interface LogReject {
  line: number;
  id?: string;
  reason: string;
  message: string;
  path?: JsonPath;
}

/** What the import changed in a written trajectory, for the summary. */
export interface ImportRepairs {
  aliasedTools: number;
  aliasedSkills: number;
  skillBodies: number;
  hookMarkers: number;
  systemRendered: boolean;
  /**
   * User turns dropped because they answer a reply the user never saw: a hook the log's system did not run
   * ended the turn before it (the trajectory's `meta.import.dropped` says which hook and where).
   */
  droppedTurns: number;
}

/** One imported log line: the trajectory and what was repaired, or the reject with its reasons. */
export type ImportLogResult =
  | { ok: true; line: number; trajectory: Trajectory; repairs: ImportRepairs }
  | { ok: false; reject: LogReject };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

class Rejection extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly path?: JsonPath,
  ) {
    super(message);
  }
}

function fail(reason: string, message: string, path?: JsonPath): never {
  throw new Rejection(reason, message, path);
}

/** Top-level fields a log line may use for the trajectory id, in order of preference. */
const idFields = ['id', 'conversation_id', 'session_id', 'request_id'] as const;
/** Top-level fields the trajectory takes over; every other field goes to `meta.log`. */
const ownFields = new Set(['id', 'messages', 'context', 'tools', 'meta', 'harness']);

/**
 * Imports one JSONL line of a log (blank lines give undefined). A torn or non-JSON line is a reject.
 *
 * @example
 * const result = importLogLine(text, 12, harness, { aliases: { tools: { find_order: 'lookup_order' } } });
 * if (result?.ok) write(result.trajectory); else if (result) reject(result.reject);
 */
export function importLogLine(
  text: string,
  line: number,
  harness: Harness,
  options: ImportLogOptions = {},
): ImportLogResult | undefined {
  const record = parseJsonlLine(text, line);
  if (!record) return undefined;
  if ('issue' in record)
    return { ok: false, reject: { line, reason: 'invalid_json', message: record.issue.message } };
  return importLogRecord(record.value, harness, options, line);
}

/**
 * Imports one parsed log record under a harness: the trajectory it becomes (valid under the harness), or
 * the reason it cannot be reconciled.
 *
 * @example
 * const result = importLogRecord(JSON.parse(text), harness, { system: 'render' }, 1);
 */
export function importLogRecord(
  record: unknown,
  harness: Harness,
  options: ImportLogOptions = {},
  line = 0,
): ImportLogResult {
  let id: string | undefined;
  try {
    if (!isObject(record)) fail('not_an_object', 'a log line must be a JSON object');
    const source = record as Json;
    const given = idFields
      .map((field) => source[field])
      .find((value) => typeof value === 'string' || typeof value === 'number');
    id = given === undefined ? `line-${line}` : String(given);
    const aliases = LogAliasesSchema.parse(options.aliases ?? {});
    const repairs: ImportRepairs = {
      aliasedTools: 0,
      aliasedSkills: 0,
      skillBodies: 0,
      hookMarkers: 0,
      systemRendered: false,
      droppedTurns: 0,
    };
    const context = source.context === undefined ? {} : source.context;
    if (!isObject(context)) fail('invalid_context', 'context must be an object', ['context']);
    const messages = normaliseMessages(source.messages, harness, aliases, repairs);
    const systemMode = options.system ?? 'render';
    placeSystemMessage(messages, harness, context as Json, systemMode, repairs);
    const log = Object.fromEntries(Object.entries(source).filter(([key]) => !ownFields.has(key)));
    const meta: Json = {
      ...(isObject(source.meta) ? source.meta : {}),
      import: { line, ...(Object.keys(log).length > 0 ? { log } : {}) },
    };
    const trajectory: Trajectory = {
      id,
      harness: { id: harness.id, hash: hashHarness(harness).harness },
      context: context as Json,
      tools: toChatCompletionTools(harness),
      messages,
      meta,
    };
    const result = reconcileHooks(
      trajectory,
      harness,
      systemMode,
      options.hookTurns ?? 'strict',
      repairs,
      runContextOf(options.run, options.hookChecks),
    );
    return { ok: true, line, trajectory: result, repairs };
  } catch (error) {
    if (!(error instanceof Rejection)) throw error;
    return {
      ok: false,
      reject: {
        line,
        ...(id !== undefined ? { id } : {}),
        reason: error.reason,
        message: error.path ? `${formatPath(error.path)}: ${error.message}` : error.message,
        ...(error.path ? { path: error.path } : {}),
      },
    };
  }
}

// ── messages ────────────────────────────────────────────────────────────────────────────────────────

function textContent(value: unknown, path: JsonPath, nullable: boolean): string | null {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) {
    if (nullable) return null;
    return '';
  }
  // Content parts: text parts are the text; anything else cannot be carried into a trajectory.
  if (
    Array.isArray(value) &&
    value.every((part) => isObject(part) && part.type === 'text' && typeof part.text === 'string')
  )
    return value.map((part) => (part as { text: string }).text).join('');
  return fail('invalid_message', 'content must be a string, null or text parts', path);
}

function normaliseMessages(
  value: unknown,
  harness: Harness,
  aliases: z.output<typeof LogAliasesSchema>,
  repairs: ImportRepairs,
): Message[] {
  if (!Array.isArray(value) || value.length === 0)
    fail('missing_messages', 'the line has no non-empty `messages` array', ['messages']);
  const known = new Set(offeredTools(harness).map((tool) => tool.name));
  const skills = new Set(harness.skills.items.map((skill) => skill.id));
  const loader = harness.skills.loader;
  return (value as unknown[]).map((raw, index): Message => {
    const at: JsonPath = ['messages', index];
    if (!isObject(raw)) return fail('invalid_message', 'a message must be an object', at);
    const name = typeof raw.name === 'string' ? { name: raw.name } : {};
    const marker = raw.hsa === undefined ? undefined : HookEventSchema.safeParse(raw.hsa);
    if (marker && !marker.success) fail('invalid_message', 'hsa is not a hook marker', [...at, 'hsa']);
    const hsa = marker?.success ? { hsa: marker.data } : {};
    switch (raw.role) {
      case 'system':
      case 'developer':
        return {
          role: 'system',
          content: textContent(raw.content, [...at, 'content'], false) as string,
          ...name,
        };
      case 'user':
        return {
          role: 'user',
          content: textContent(raw.content, [...at, 'content'], false) as string,
          ...name,
          ...hsa,
        };
      case 'assistant': {
        const content = textContent(raw.content, [...at, 'content'], true);
        const calls = raw.tool_calls === undefined || raw.tool_calls === null ? [] : raw.tool_calls;
        if (!Array.isArray(calls))
          return fail('invalid_message', 'tool_calls must be an array', [...at, 'tool_calls']);
        const toolCalls = calls.map((call, position) =>
          normaliseCall(call, [...at, 'tool_calls', position], { known, skills, loader, aliases, repairs }),
        );
        if (content === null && toolCalls.length === 0)
          fail('invalid_message', 'an assistant message needs content or tool_calls', at);
        return {
          role: 'assistant',
          content,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          ...name,
          ...hsa,
        };
      }
      case 'tool': {
        if (typeof raw.tool_call_id !== 'string' || raw.tool_call_id === '')
          return fail('invalid_message', 'a tool message needs its tool_call_id', [...at, 'tool_call_id']);
        const content = isObject(raw.content)
          ? JSON.stringify(raw.content)
          : textContent(raw.content, [...at, 'content'], false);
        return { role: 'tool', tool_call_id: raw.tool_call_id, content: content as string, ...hsa };
      }
      default:
        return fail('invalid_message', `unknown role ${JSON.stringify(raw.role)}`, [...at, 'role']);
    }
  });
}

function normaliseCall(
  raw: unknown,
  at: JsonPath,
  names: {
    known: Set<string>;
    skills: Set<string>;
    loader: Harness['skills']['loader'];
    aliases: z.output<typeof LogAliasesSchema>;
    repairs: ImportRepairs;
  },
): ToolCall {
  if (!isObject(raw) || !isObject(raw.function))
    return fail('invalid_message', 'a tool call needs a `function`', at);
  if (typeof raw.id !== 'string' || raw.id === '')
    return fail('invalid_message', 'a tool call needs an id', [...at, 'id']);
  const given = raw.function.name;
  if (typeof given !== 'string' || given === '')
    return fail('invalid_message', 'a tool call needs a function name', [...at, 'function', 'name']);
  let name = given;
  if (!names.known.has(name) && Object.hasOwn(names.aliases.tools, name)) {
    name = names.aliases.tools[name] as string;
    names.repairs.aliasedTools++;
  }
  if (!names.known.has(name))
    fail(
      'unknown_tool',
      `tool "${given}" is not offered by the harness${name !== given ? ` (its alias "${name}" is not either)` : ''} and no alias maps it`,
      [...at, 'function', 'name'],
    );
  const rawArguments = raw.function.arguments;
  let args =
    rawArguments === undefined || rawArguments === null || rawArguments === ''
      ? '{}'
      : typeof rawArguments === 'string'
        ? rawArguments
        : JSON.stringify(rawArguments);
  if (name === names.loader.tool) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args);
    } catch {
      parsed = undefined; // Left to the hooks and the validator, which say what is wrong with it.
    }
    const skill = isObject(parsed) ? parsed[names.loader.argument] : undefined;
    if (typeof skill === 'string' && !names.skills.has(skill)) {
      const mapped = Object.hasOwn(names.aliases.skills, skill) ? names.aliases.skills[skill] : undefined;
      if (mapped === undefined || !names.skills.has(mapped))
        fail(
          'unknown_skill',
          `skill "${skill}" does not exist in the harness${mapped ? ` (its alias "${mapped}" does not either)` : ''} and no alias maps it`,
          [...at, 'function', 'arguments'],
        );
      args = JSON.stringify({ ...(parsed as Json), [names.loader.argument]: mapped });
      names.repairs.aliasedSkills++;
    }
  }
  return { id: raw.id, type: 'function', function: { name, arguments: args } };
}

function placeSystemMessage(
  messages: Message[],
  harness: Harness,
  context: Json,
  mode: 'keep' | 'render',
  repairs: ImportRepairs,
) {
  const first = messages[0];
  if (mode === 'keep') {
    if (first?.role !== 'system')
      fail('missing_system_message', 'the log has no system message to keep (use --system render)', [
        'messages',
        0,
      ]);
    return;
  }
  let prompt: string;
  try {
    prompt = renderSystemPrompt(harness, context);
  } catch (error) {
    return fail(
      'template_error',
      `the system prompt cannot be rendered for this context: ${(error as Error).message}`,
      ['context'],
    );
  }
  if (first?.role === 'system') first.content = prompt;
  else messages.unshift({ role: 'system', content: prompt });
  repairs.systemRendered = true;
}

// ── hooks ───────────────────────────────────────────────────────────────────────────────────────────

/** Issues the importer resolves by adding a marker; every other issue rejects the line. */
const markable = new Set(['hook_failed_unmarked', 'missing_hook_outcome']);

/** A turn whose text the harness writes (feedback, fallback, a rejected call's result): the log's own text. */
interface DerivedTurn {
  index: number;
  logged: string;
  hook: string;
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const samePath = (a: JsonPath, b: JsonPath) =>
  a.length === b.length && a.every((key, index) => key === b[index]);

/**
 * Adds hook markers until the trajectory validates: each round validates, takes the first hook decision
 * the log leaves unmarked, marks the message it concerns and the turn that answers it, and lets the
 * validator's repair pass write the harness's feedback, fallback and skill-body text.
 */
function reconcileHooks(
  start: Trajectory,
  harness: Harness,
  systemMode: 'keep' | 'render',
  hookTurns: 'strict' | 'loose',
  repairs: ImportRepairs,
  run: RunContext,
): Trajectory {
  const checks = { hookChecks: run.hookChecks };
  const keptSystem = start.messages[0]?.content ?? '';
  const derived: DerivedTurn[] = [];
  const skillResults = countSkillResults(start, harness);
  let current = start;
  const rounds = start.messages.length * 2 + 4;
  for (let round = 0; round < rounds; round++) {
    const repaired = rederiveTrajectory(current, harness, checks).trajectory;
    if (systemMode === 'keep' && repaired.messages[0]) repaired.messages[0].content = keptSystem;
    const validation = validateTrajectory(repaired, harness, {
      checkSystemPrompt: systemMode === 'render',
      ...checks,
    });
    if (validation.valid) {
      if (hookTurns === 'strict') checkDerivedTurns(derived, repaired);
      repairs.skillBodies = skillResults(repaired);
      return dropUnseenAnswers(start, repaired, repairs);
    }
    const issue = validation.issues.find((candidate) => markable.has(candidate.code));
    if (!issue) {
      const first = validation.issues[0] as Issue;
      fail(first.code, first.message, first.path);
    }
    current = mark(repaired, harness, issue as Issue, validation.decisions, derived);
    repairs.hookMarkers++;
  }
  return fail('unreconciled', 'the hook markers did not settle; the log does not follow the harness', [
    'messages',
  ]);
}

/** Indexes of the user's own messages (hook feedback excluded). */
const userTurns = (messages: readonly Message[]) =>
  messages.flatMap((message, index) => (message.role === 'user' && !message.hsa ? [index] : []));

/** The text the user saw at the end of the turn that starts at `from`: its last reply, block or fallback. */
function seenReply(messages: readonly Message[], from: number, to: number): { text: string; at: number } {
  for (let index = to - 1; index > from; index--) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant' || message.tool_calls || message.hsa?.event === 'hook_rejected')
      continue;
    return { text: message.content ?? '', at: index };
  }
  return { text: '', at: -1 };
}

/**
 * Drops the user turns that answer a reply the user never saw. When a hook the log's system did not run
 * ends a turn (a block marker inserted, a reply rejected or replaced), the logged next user message answers
 * the logged reply, which under this harness never reached the user: that turn and every later one are
 * dropped, and `meta.import.dropped` names the hook and the turn.
 */
function dropUnseenAnswers(start: Trajectory, repaired: Trajectory, repairs: ImportRepairs): Trajectory {
  const logged = userTurns(start.messages);
  const now = userTurns(repaired.messages);
  for (let turn = 0; turn + 1 < now.length; turn++) {
    const before = seenReply(start.messages, logged[turn]!, logged[turn + 1] ?? start.messages.length);
    const after = seenReply(repaired.messages, now[turn]!, now[turn + 1]!);
    if (squash(before.text) === squash(after.text)) continue;
    const cut = now[turn + 1]!;
    const last = repaired.messages[after.at];
    const ending = last && 'hsa' in last ? last.hsa : undefined;
    const why = ending
      ? `hook "${ending.hook}" ended turn ${turn} with a ${ending.event === 'hook_fallback' ? 'fallback' : 'block'}`
      : `turn ${turn} ends with another reply under this harness`;
    const dropped = now.length - turn - 1;
    repairs.droppedTurns += dropped;
    const meta = (repaired.meta ?? {}) as Json;
    return {
      ...repaired,
      messages: repaired.messages.slice(0, cut),
      meta: {
        ...meta,
        import: {
          ...((meta.import as Json | undefined) ?? {}),
          dropped: {
            from_message: cut,
            turns: dropped,
            reason: `${why}: the user never saw the logged reply that message ${cut} answers`,
          },
        },
      },
    };
  }
  return repaired;
}

/** After the last round, the turns the harness wrote must be the turns the log holds (strict mode). */
function checkDerivedTurns(derived: DerivedTurn[], trajectory: Trajectory) {
  for (const turn of derived) {
    const message = trajectory.messages[turn.index];
    const written = message?.content ?? '';
    if (squash(written) !== squash(turn.logged))
      fail(
        'hook_turn_mismatch',
        `hook "${turn.hook}" decides this ${message?.role} turn, but the log holds other text: expected ${JSON.stringify(
          written.slice(0, 80),
        )}, found ${JSON.stringify(turn.logged.slice(0, 80))} (a hook the log's system did not run, or other wording: --hook-turns loose takes it)`,
        ['messages', turn.index, 'content'],
      );
  }
}

/** Counts skill-load results that were not the body before the repair pass. */
function countSkillResults(start: Trajectory, harness: Harness) {
  const loader = harness.skills.loader;
  const bodies = new Map(harness.skills.items.map((skill) => [skill.id, skill.body]));
  const loads = new Map<string, string>();
  for (const message of start.messages)
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? [])
        if (call.function.name === loader.tool) {
          try {
            loads.set(call.id, String(JSON.parse(call.function.arguments)[loader.argument]));
          } catch {
            // not a load the repair pass fills
          }
        }
  const before = new Map(
    start.messages.flatMap((message) =>
      message.role === 'tool' ? [[message.tool_call_id, message.content] as const] : [],
    ),
  );
  return (repaired: Trajectory) =>
    repaired.messages.filter(
      (message) =>
        message.role === 'tool' &&
        !message.hsa &&
        loads.has(message.tool_call_id) &&
        message.content === bodies.get(loads.get(message.tool_call_id) as string) &&
        before.get(message.tool_call_id) !== message.content,
    ).length;
}

type Outcome = 'feedback' | 'fallback' | 'blocked';

/** What follows a failure of `hook`, counted against its budget as the validator counts it. */
function outcomeOf(hook: Hook, decisions: readonly HookDecision[], at: number): Outcome {
  const { onFail } = hook;
  if (onFail.action === 'fallback') return 'fallback';
  if (onFail.action === 'block') return 'blocked';
  let failures = 0;
  for (let index = at; index >= 0; index--) {
    const decision = decisions[index] as HookDecision;
    if (decision.failed === hook.id) failures++;
    if (decision.stage === 'input' && index !== at) break;
  }
  if (failures <= onFail.maxRetries) return 'feedback';
  return onFail.exhausted === 'fallback' ? 'fallback' : 'blocked';
}

function mark(
  trajectory: Trajectory,
  harness: Harness,
  issue: Issue,
  decisions: readonly HookDecision[],
  derived: DerivedTurn[],
): Trajectory {
  const path = issue.path.at(-1) === 'content' ? issue.path.slice(0, -1) : issue.path;
  const at = decisions.findIndex(
    (decision) => decision.failed !== undefined && samePath(decision.path, path),
  );
  if (at === -1) return fail(issue.code, issue.message, issue.path);
  const decision = decisions[at] as HookDecision;
  const hook = harness.hooks.items.find((candidate) => candidate.id === decision.failed) as Hook;
  const messages = trajectory.messages.slice();
  const index = path[1] as number;
  const message = messages[index] as Message;
  const outcome = outcomeOf(hook, decisions, at);
  const event = (name: HookEvent['event']): HookEvent => ({ event: name, hook: hook.id });
  let after = index;
  if (decision.stage === 'pre_reply' || decision.stage === 'post_reply') {
    if (message.role === 'assistant' && !message.hsa)
      messages[index] = { ...message, hsa: event('hook_rejected') };
  } else if (decision.stage === 'pre_tool') {
    const assistant = message as Extract<Message, { role: 'assistant' }>;
    if (!assistant.hsa) messages[index] = { ...assistant, hsa: event('hook_rejected') };
    const call = assistant.tool_calls?.[path[3] as number] as ToolCall;
    const answer = messages.findIndex(
      (candidate, position) =>
        position > index && candidate.role === 'tool' && candidate.tool_call_id === call.id,
    );
    if (answer === -1) fail('unanswered_tool_call', `tool call "${call.id}" has no result in the log`, path);
    const result = messages[answer] as Extract<Message, { role: 'tool' }>;
    if (!result.hsa) {
      derived.push({ index: answer, logged: result.content, hook: hook.id });
      messages[answer] = { ...result, hsa: event('hook_feedback') };
    }
    if (outcome === 'feedback') {
      requireRetry(messages, index, call, hook, path, issue.message);
      return { ...trajectory, messages };
    }
    after = lastToolMessage(messages, index);
  } else if (decision.stage === 'post_tool') {
    after = lastToolMessage(messages, index);
  }
  // The turn that answers the decision: the next message after the step (and its results).
  const next = after + 1;
  const target = messages[next];
  const where = `hook "${hook.id}" fails here (${issue.message})`;
  if (outcome === 'feedback') {
    if (target?.role !== 'user' || target.hsa)
      fail(
        'hook_not_retried',
        `${where} and retries, but the log does not continue with a feedback turn`,
        path,
      );
    derived.push({ index: next, logged: target.content, hook: hook.id });
    messages[next] = { ...target, hsa: event('hook_feedback') };
  } else if (outcome === 'fallback') {
    if (target?.role !== 'assistant' || target.tool_calls || target.hsa)
      fail(
        'hook_outcome_missing',
        `${where} and falls back, but the log does not continue with its fallback reply`,
        path,
      );
    derived.push({ index: next, logged: target.content ?? '', hook: hook.id });
    messages[next] = { ...target, hsa: event('hook_fallback') };
  } else if (target?.role === 'assistant' && !target.tool_calls && !target.hsa) {
    derived.push({ index: next, logged: target.content ?? '', hook: hook.id });
    messages[next] = { ...target, hsa: event('hook_blocked') };
  } else {
    // A block sends nothing to the user, so loggers often write no message for it: the marker stands alone.
    for (const turn of derived) if (turn.index >= next) turn.index++;
    messages.splice(next, 0, { role: 'assistant', content: '', hsa: event('hook_blocked') });
  }
  return { ...trajectory, messages };
}

/** The index of the last tool message of the step that message `index` opened. */
function lastToolMessage(messages: readonly Message[], index: number): number {
  let last = index;
  while (messages[last + 1]?.role === 'tool') last++;
  return last;
}

/** A call rejected with feedback must be made again in the same turn; otherwise the log used it as if it ran. */
function requireRetry(
  messages: readonly Message[],
  index: number,
  call: ToolCall,
  hook: Hook,
  path: JsonPath,
  why: string,
) {
  for (let position = index + 1; position < messages.length; position++) {
    const message = messages[position] as Message;
    if (message.role === 'user' && !message.hsa) break;
    if (
      message.role === 'assistant' &&
      message.tool_calls?.some((other) => other.function.name === call.function.name)
    )
      return;
  }
  // The validator's message reads `hook "…" fails on this call (<reason>), but …`: keep the reason.
  const reason = /\((.*)\), but /.exec(why)?.[1] ?? why;
  fail(
    'rejected_call_not_retried',
    `hook "${hook.id}" rejects this call (${reason}), and the log never calls "${call.function.name}" again in this turn: it went on as if the call had run`,
    path,
  );
}
