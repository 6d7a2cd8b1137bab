// The decisions a learner makes, and their features. At every assistant message it WRITES names: the next
// action (a tool name, `<reply>` or `<end>` of the message), each argument key (or `<end>` of the object),
// and the value of every argument whose schema is an enum (a skill id for the loader). One walker serves
// training (it follows the names an example wrote) and prediction (it follows the learner's choices), so
// the features at training and at prediction time are built by the same code from the same kind of input:
// Chat Completions messages and the `tools` array, nothing else.
import { bucket, type FeatureCache, hashedParts, hashedWords } from './text-features.js';

/** The three kinds of name a learner writes. */
export type Slot = 'action' | 'key' | 'value';
export const slots: readonly Slot[] = ['action', 'key', 'value'];

/** The action that ends the turn with a reply. */
export const replyName = '<reply>';
/** The action that ends a message of tool calls, and the key that ends an arguments object. */
export const endName = '<end>';

/** Flags of a candidate: where its name occurs, whether it was used, what it is, where it stands. */
export const flagNames = [
  'in_tool_text',
  'in_last_user',
  'in_system',
  'used_this_turn',
  'pseudo',
  'required',
  'position_0',
  'position_1',
  'position_2',
  'position_3',
  'position_4',
  'position_5',
  'position_6',
  'position_7_plus',
] as const;
const positionFlag = flagNames.indexOf('position_0');

/** An offered name as the copy route sees it. */
export interface CandidateFeatures {
  name: string;
  tokens: Int32Array;
  flags: Float32Array;
}

/** What one decision sees: its slot, the context as groups of hashed words, and the offered candidates. */
export interface DecisionFeatures {
  slot: Slot;
  groups: Int32Array[];
  candidates: CandidateFeatures[];
}

/** A decision of a training example: its features and the name the example wrote. */
export interface TrainingDecision extends DecisionFeatures {
  target: string;
}

/** A message as a learner reads it: Chat Completions or a TRL row (arguments as text or as an object). */
export interface ReadMessage {
  role: string;
  content?: unknown;
  tool_calls?: ReadonlyArray<{ function: { name: string; arguments: unknown } }>;
}

/** A tool of the `tools` array. */
export interface ReadTool {
  type?: string;
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** The conversation before an assistant message, as plain text. */
export interface Conversation {
  system: string;
  lastUser: string;
  users: string;
  /** Tool results that are not JSON (a loaded skill's text): data results are not read as text. */
  toolText: string;
  /** Names written since the last user message: called tools and string argument values. */
  turnNames: string[];
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
      .join('\n');
  return '';
}

function isJson(text: string): boolean {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/** The arguments of a call as an object (TRL writes an object, Chat Completions JSON text). */
export function argumentsObject(value: unknown): JsonObject | undefined {
  if (isObject(value)) return value;
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function stringValues(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const entry of value) stringValues(entry, into);
  else if (isObject(value)) for (const entry of Object.values(value)) stringValues(entry, into);
}

/**
 * The conversation before message `end` (exclusive), as the learner reads it.
 *
 * @example
 * conversationOf(request.messages, request.messages.length).lastUser // 'link 4 price?'
 */
export function conversationOf(messages: readonly ReadMessage[], end = messages.length): Conversation {
  const users: string[] = [];
  const toolText: string[] = [];
  let system = '';
  let lastUser = '';
  let turnNames: string[] = [];
  for (const message of messages.slice(0, end)) {
    const text = textOf(message.content);
    if (message.role === 'system' || message.role === 'developer') system += `${text}\n`;
    else if (message.role === 'user') {
      users.push(text);
      lastUser = text;
      turnNames = [];
    } else if (message.role === 'tool') {
      if (!isJson(text)) toolText.push(text);
    } else if (message.role === 'assistant')
      for (const call of message.tool_calls ?? []) {
        turnNames.push(call.function.name);
        stringValues(argumentsObject(call.function.arguments), turnNames);
      }
  }
  return { system, lastUser, users: users.join('\n'), toolText: toolText.join('\n'), turnNames };
}

/** Whether `text` holds `name`; memoised per text when a cache is given (a system prompt is long and recurs). */
function holds(text: string, name: string, cache: FeatureCache | undefined): boolean {
  if (!cache || text.length < 256) return text.includes(name);
  return cache.memo(`has\u0000${name}`, text, () => text.includes(name));
}

function flags(
  name: string,
  conversation: Conversation,
  options: { used: boolean; position?: number; pseudo?: boolean; required?: boolean; cache?: FeatureCache },
): Float32Array {
  const out = new Float32Array(flagNames.length);
  if (!options.pseudo) {
    out[0] = holds(conversation.toolText, name, options.cache) ? 1 : 0;
    out[1] = conversation.lastUser.includes(name) ? 1 : 0;
    out[2] = holds(conversation.system, name, options.cache) ? 1 : 0;
  }
  out[3] = options.used ? 1 : 0;
  out[4] = options.pseudo ? 1 : 0;
  out[5] = options.required ? 1 : 0;
  if (options.position !== undefined) out[positionFlag + Math.min(7, options.position)] = 1;
  return out;
}

function pseudo(slot: string, name: string): CandidateFeatures {
  return {
    name,
    tokens: Int32Array.of(bucket(`${slot}/n:${name}`)),
    flags: flags(
      name,
      { system: '', lastUser: '', users: '', toolText: '', turnNames: [] },
      { used: false, pseudo: true },
    ),
  };
}

/** What a decision's context is built from, besides the conversation. */
interface Situation {
  conversation: Conversation;
  /** Tool names already called in the message being written. */
  messageCalls: readonly string[];
  /** The tool being called (key and value slots). */
  tool?: string;
  /** The keys above the object being written. */
  path?: readonly string[];
  /** Keys already written in the object being written. */
  written?: readonly string[];
  /** The key whose value is being written (value slot). */
  key?: string;
  /** The learner's memo of features (none: everything is computed). */
  cache?: FeatureCache;
}

function contextGroups(slot: string, situation: Situation): Int32Array[] {
  const { conversation, cache } = situation;
  const groups = [
    Int32Array.of(bucket(`${slot}/bias`)),
    hashedWords(`${slot}/u`, conversation.lastUser, 64, cache),
    hashedWords(`${slot}/U`, conversation.users, 128, cache),
    hashedWords(`${slot}/r`, conversation.toolText, 256, cache),
    hashedParts(
      [
        [`${slot}/t`, conversation.turnNames.join(' ')],
        [`${slot}/tc`, `count${Math.min(conversation.turnNames.length, 6)}`],
      ],
      256,
      cache,
    ),
    hashedParts(
      [
        [`${slot}/m`, situation.messageCalls.join(' ')],
        [`${slot}/mc`, `count${Math.min(situation.messageCalls.length, 4)}`],
      ],
      256,
      cache,
    ),
  ];
  if (slot === 'action') groups.push(hashedWords(`${slot}/p`, conversation.system, 256, cache));
  else
    groups.push(
      hashedParts(
        [
          [`${slot}/tool`, situation.tool ?? ''],
          [`${slot}/path`, (situation.path ?? []).join(' ')],
          [`${slot}/w`, (situation.written ?? []).join(' ')],
          [`${slot}/key`, situation.key ?? ''],
          [`${slot}/depth`, `depth${Math.min((situation.path ?? []).length, 3)}`],
        ],
        256,
        cache,
      ),
    );
  return groups.filter((group) => group.length > 0);
}

function propertiesOf(schema: unknown): { properties: JsonObject; required: string[] } {
  if (!isObject(schema)) return { properties: {}, required: [] };
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((key): key is string => typeof key === 'string')
    : [];
  return { properties, required };
}

/** `enum` (a string enum: a name to write), `object` (keys to write) or `scalar` (a value by the rule). */
export type ArgumentKind = 'enum' | 'object' | 'scalar';

/** The kind of an argument from its JSON Schema. */
export function kindOf(schema: unknown): ArgumentKind {
  if (!isObject(schema)) return 'scalar';
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((v) => typeof v === 'string'))
    return 'enum';
  if (schema.type === 'object' || isObject(schema.properties)) return 'object';
  return 'scalar';
}

/** The features of the next action, given the offered tools. */
// Pure function of content across runs: the features of a tool object.
const toolTokens = new WeakMap<ReadTool, Int32Array>();

function tokensOfTool(tool: ReadTool): Int32Array {
  let tokens = toolTokens.get(tool);
  if (!tokens) {
    const { name, description, parameters } = tool.function;
    tokens = hashedParts([
      ['action/n', name],
      ['action/d', description ?? ''],
      ['action/k', Object.keys(propertiesOf(parameters).properties).join(' ')],
    ]);
    toolTokens.set(tool, tokens);
  }
  return tokens;
}

export function actionFeatures(
  conversation: Conversation,
  tools: readonly ReadTool[],
  messageCalls: readonly string[],
  cache?: FeatureCache,
): DecisionFeatures {
  const candidates = tools.map((tool, position) => {
    const { name } = tool.function;
    return {
      name,
      tokens: tokensOfTool(tool),
      flags: flags(name, conversation, {
        used: conversation.turnNames.includes(name),
        position,
        ...(cache ? { cache } : {}),
      }),
    };
  });
  candidates.push(pseudo('action', replyName), pseudo('action', endName));
  return {
    slot: 'action',
    groups: contextGroups('action', { conversation, messageCalls, ...(cache ? { cache } : {}) }),
    candidates,
  };
}

function keyFeatures(situation: Situation, schema: unknown, written: readonly string[]): DecisionFeatures {
  const { properties, required } = propertiesOf(schema);
  const candidates = Object.entries(properties)
    .map(([name, property], position) => ({ name, property, position }))
    .filter(({ name }) => !written.includes(name))
    .map(({ name, property, position }) => {
      const description =
        isObject(property) && typeof property.description === 'string' ? property.description : '';
      const type = isObject(property) && typeof property.type === 'string' ? property.type : '';
      return {
        name,
        tokens: hashedParts(
          [
            ['key/n', name],
            ['key/d', description],
            ['key/y', `${type} ${kindOf(property)}`],
          ],
          256,
          situation.cache,
        ),
        flags: flags(name, situation.conversation, {
          used: false,
          position,
          required: required.includes(name),
          ...(situation.cache ? { cache: situation.cache } : {}),
        }),
      };
    });
  candidates.push(pseudo('key', endName));
  return { slot: 'key', groups: contextGroups('key', { ...situation, written }), candidates };
}

function linesMentioning(text: string, name: string): string {
  if (name.length === 0) return '';
  return text
    .split('\n')
    .filter((line) => line.includes(name))
    .slice(0, 4)
    .join(' ');
}

function valueFeatures(situation: Situation, schema: unknown): DecisionFeatures {
  const values = isObject(schema) && Array.isArray(schema.enum) ? (schema.enum as string[]) : [];
  const { conversation, cache } = situation;
  const tokensOf = (name: string) =>
    hashedParts(
      [
        ['value/n', name],
        ['value/d', linesMentioning(conversation.system, name)],
      ],
      96,
    );
  const candidates = values.map((name, position) => ({
    name,
    tokens: cache
      ? cache.memo(`value\u0000${name}`, conversation.system, () => tokensOf(name))
      : tokensOf(name),
    flags: flags(name, conversation, {
      used: conversation.turnNames.includes(name),
      position,
      ...(cache ? { cache } : {}),
    }),
  }));
  return { slot: 'value', groups: contextGroups('value', situation), candidates };
}

/**
 * Chooses a name at a decision: in training, the name the example wrote (`target`); at prediction time, the
 * learner's pick among the names not in `exclude`.
 */
export type Choose = (
  features: DecisionFeatures,
  target: string | undefined,
  exclude: readonly string[],
) => string;

/** How an argument with no name to write gets its value (prediction time only). */
export type FillValue = (schema: unknown, key: string) => unknown;

/** What a walk knows about arguments beyond the offered schema (learned from training data). */
export interface WalkOptions {
  choose: Choose;
  fill: FillValue;
  /** The kind of a key when no schema describes it (a tool that is not offered). */
  kindOfKey: (key: string) => ArgumentKind;
  /** Most keys per object. */
  maxKeys?: number;
  /** The learner's memo of features. */
  cache?: FeatureCache;
  /** Offer the candidates' names only, without features (a chooser that reads nothing else). */
  namesOnly?: boolean;
}

/** The names a decision offers, in the order its features list them, without the features. */
function offered(slot: Slot, names: readonly string[]): DecisionFeatures {
  const none = new Int32Array(0);
  return {
    slot,
    groups: [],
    candidates: names.map((name) => ({ name, tokens: none, flags: new Float32Array(flagNames.length) })),
  };
}

/**
 * Writes the arguments of one call, key by key, following `script` (training) or the choices (prediction).
 *
 * @example
 * walkArguments(situation, tool.function.parameters, { link_id: 4 }, options)
 */
export function walkArguments(
  situation: Situation,
  schema: unknown,
  script: JsonObject | undefined,
  options: WalkOptions,
): JsonObject {
  const { properties } = propertiesOf(schema);
  const scriptKeys = script ? Object.keys(script) : undefined;
  const result: JsonObject = {};
  const written: string[] = [];
  const maxKeys = options.maxKeys ?? 8;
  for (let step = 0; step <= maxKeys; step++) {
    const features = options.namesOnly
      ? offered('key', [...Object.keys(properties).filter((name) => !written.includes(name)), endName])
      : keyFeatures(situation, schema, written);
    const target = scriptKeys ? (scriptKeys[step] ?? endName) : undefined;
    const key = step === maxKeys ? endName : options.choose(features, target, written);
    if (key === endName) break;
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const kind = property === undefined ? options.kindOfKey(key) : kindOf(property);
    const scripted = script?.[key];
    if (kind === 'enum' && (script === undefined || typeof scripted === 'string')) {
      const values = isObject(property) && Array.isArray(property.enum) ? (property.enum as string[]) : [];
      const value = options.choose(
        options.namesOnly
          ? offered('value', values)
          : valueFeatures({ ...situation, key, written }, property),
        script ? (scripted as string) : undefined,
        [],
      );
      result[key] = value;
    } else if (
      kind === 'object' &&
      (script === undefined || isObject(scripted)) &&
      // A learner that keeps writing object keys stops at a fixed depth.
      (script !== undefined || (situation.path ?? []).length < maxDepth)
    ) {
      result[key] = walkArguments(
        { ...situation, path: [...(situation.path ?? []), key] },
        property,
        script ? (scripted as JsonObject) : undefined,
        options,
      );
    } else result[key] = script ? scripted : options.fill(property, key);
    written.push(key);
  }
  return result;
}

/** How deep a learner's own arguments may nest (a training example is followed to any depth). */
const maxDepth = 4;

/** One call a message makes: the name written and its arguments. */
export interface WrittenCall {
  name: string;
  arguments: JsonObject;
}

/**
 * Writes one assistant message: actions until `<reply>` or `<end>`, each call with its arguments. With a
 * `script` (the message an example holds) it follows it; without, it follows the choices.
 *
 * @example
 * walkMessage(conversation, tools, undefined, options) // { reply: false, calls: [{ name: 'load_skill', … }] }
 */
export function walkMessage(
  conversation: Conversation,
  tools: readonly ReadTool[],
  script: { reply: true } | { reply: false; calls: WrittenCall[] } | undefined,
  options: WalkOptions & { maxCalls?: number },
): { reply: boolean; calls: WrittenCall[] } {
  const calls: WrittenCall[] = [];
  const maxCalls = options.maxCalls ?? 4;
  for (let step = 0; step <= maxCalls; step++) {
    const messageCalls = calls.map((call) => call.name);
    const features = options.namesOnly
      ? offered('action', [...tools.map((tool) => tool.function.name), replyName, endName])
      : actionFeatures(conversation, tools, messageCalls, options.cache);
    let target: string | undefined;
    if (script) target = script.reply ? replyName : (script.calls[step]?.name ?? endName);
    const name = step === maxCalls ? endName : options.choose(features, target, []);
    if (name === replyName) return { reply: calls.length === 0, calls };
    if (name === endName) return { reply: calls.length === 0, calls };
    const tool = tools.find((candidate) => candidate.function.name === name);
    const scripted = script && !script.reply ? script.calls[step]?.arguments : undefined;
    const args = walkArguments(
      { conversation, messageCalls, tool: name, ...(options.cache ? { cache: options.cache } : {}) },
      tool?.function.parameters,
      script ? (scripted ?? {}) : undefined,
      options,
    );
    calls.push({ name, arguments: args });
    // The next action sees this call as part of the turn.
    conversation = {
      ...conversation,
      turnNames: [...conversation.turnNames, name, ...collect(args)],
    };
  }
  return { reply: calls.length === 0, calls };
}

function collect(value: unknown): string[] {
  const out: string[] = [];
  stringValues(value, out);
  return out;
}

/**
 * The training decisions of one conversation: every assistant message, walked as the example wrote it.
 *
 * @example
 * const decisions = decisionsOf(row.messages, JSON.parse(row.tools), kindOfKey);
 */
export function decisionsOf(
  messages: readonly ReadMessage[],
  tools: readonly ReadTool[],
  cache?: FeatureCache,
): TrainingDecision[] {
  const decisions: TrainingDecision[] = [];
  const choose: Choose = (features, target) => {
    decisions.push({ ...features, target: target as string });
    return target as string;
  };
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    const conversation = conversationOf(messages, index);
    const calls = message.tool_calls ?? [];
    const script =
      calls.length === 0
        ? ({ reply: true } as const)
        : {
            reply: false as const,
            calls: calls.map((call) => ({
              name: call.function.name,
              arguments: argumentsObject(call.function.arguments) ?? {},
            })),
          };
    walkMessage(conversation, tools, script, {
      choose,
      fill: () => undefined,
      kindOfKey: () => 'scalar',
      maxCalls: Math.max(4, calls.length),
      maxKeys: 64,
      ...(cache ? { cache } : {}),
    });
  }
  return decisions;
}
