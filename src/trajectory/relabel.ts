// Relabels: invertible maps over trajectories and model outputs, as plain data. A relabel moves the free
// content of a trajectory (tool-call names and arguments, skill loads, identifiers mentioned in replies and
// tool results, inserted episodes) into a variant's vocabulary; the content a harness determines (system
// prompt, offered tools, skill bodies, hook turns) is then re-derived from the target harness, never patched.

import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { HarnessAugmentError } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';
import { findMentions, type SymbolEntry } from '../harness/symbol-table.js';
import { applyEdits, mapJsonStringValues, parseRawJson, renameJsonKeys } from './raw-json.js';
import type { Message, Trajectory } from './schema.js';
import { type Rederived, rederiveTrajectory } from './validate-trajectory.js';

/**
 * A key rename inside a tool's arguments; `path` names the object holding the key (`[]` = array items), as
 * it is when this rename runs: a step's renames run in order.
 */
export interface ArgumentRename {
  path: string[];
  from: string;
  to: string;
}

/** The skill loader as named at a step's input. */
export interface LoaderNames {
  tool: string;
  argument: string;
}

/** One step of a relabel. Names in a step are those current at the step's input. */
export type RelabelStep =
  | { type: 'rename_tools'; map: Record<string, string> }
  | { type: 'rename_skills'; map: Record<string, string>; loader: LoaderNames }
  | { type: 'rename_arguments'; tool: string; renames: ArgumentRename[] }
  | { type: 'nest_arguments'; tool: string; under: string }
  | { type: 'insert_messages'; at: number; messages: Message[] }
  | {
      type: 'merge_skills';
      into: string;
      sources: string[];
      /** The source each load of the given trajectory named, in order. */
      loads: string[];
      /** The user turn of each of `loads` (1 = after the first user message), so an output maps back by turn. */
      loadTurns?: number[];
      loader: LoaderNames;
    };

/** What is known about where a model's output sits in the conversation, for steps that map back by context. */
export interface OutputContext {
  /**
   * The user turn the output answers (1 = the first user message). User messages inside the output
   * advance it. Without it (and without user messages), a merged skill maps back by its order of loads.
   */
  turn?: number;
}

/** An invertible map over trajectories: steps run forward left to right and inverse right to left. */
export interface Relabel {
  steps: RelabelStep[];
}

/**
 * The relabel that changes nothing.
 *
 * @example
 * return { harness, relabel: identityRelabel, record: { changed: 0 } };
 */
export const identityRelabel: Relabel = Object.freeze({ steps: [] }) as Relabel;

/**
 * Chains relabels: the result runs `first` then `second` forward, and `second` then `first` inverse.
 *
 * @example
 * composeRelabels(renameRelabel, nestRelabel).steps.length
 */
export function composeRelabels(...relabels: Relabel[]): Relabel {
  return { steps: relabels.flatMap((relabel) => relabel.steps) };
}

function invertMap(map: Record<string, string>): Record<string, string> {
  const inverse: Record<string, string> = {};
  for (const [from, to] of Object.entries(map)) {
    if (Object.hasOwn(inverse, to)) {
      throw new HarnessAugmentError(
        `relabel maps both "${inverse[to]}" and "${from}" to "${to}": it is not invertible`,
        {
          kind: 'usage',
        },
      );
    }
    inverse[to] = from;
  }
  return inverse;
}

/** Rewrites whole-word mentions of the map's keys in a free text (replies, tool results). */
function renameMentions(text: string, map: Record<string, string>, kind: 'tool' | 'skill'): string {
  const symbols = renamedSymbols(map, kind);
  if (symbols.length === 0) return text;
  // A mention is an occurrence of a name: a text that holds none of them is left as it is, unscanned.
  if (!symbols.some((symbol) => text.includes(symbol.name))) return text;
  textScans.count++;
  const mentions = findMentions({ path: [], text }, symbols);
  // Overlapping candidates (one name inside a longer one) keep the longest, which sorts first.
  const edits: Array<{ start: number; end: number; text: string }> = [];
  let reached = -1;
  for (const mention of mentions) {
    if (mention.start < reached) continue;
    edits.push({ start: mention.start, end: mention.end, text: map[mention.name] as string });
    reached = mention.end;
  }
  return applyEdits(text, edits);
}

/**
 * The symbols a rename map renames, once per map object (a step's map serves every text of every
 * trajectory it moves; one list object lets `findMentions` find its name trie by identity).
 */
function renamedSymbols(map: Record<string, string>, kind: 'tool' | 'skill'): SymbolEntry[] {
  let byKind = renamedSymbolsOf.get(map);
  if (!byKind) {
    byKind = {};
    renamedSymbolsOf.set(map, byKind);
  }
  byKind[kind] ??= Object.keys(map)
    .filter((name) => map[name] !== name)
    .map((name) => ({ kind, name, definedAt: [] }));
  return byKind[kind];
}
// Pure function of content across runs: a relabel step's renamed symbols.
const renamedSymbolsOf = new WeakMap<object, Partial<Record<'tool' | 'skill', SymbolEntry[]>>>();

const textScans = { count: 0 };
/**
 * How many free texts the relabels of this process scanned for mentions to rename (tests count work with
 * it: a text that holds no renamed name is not scanned).
 *
 * @example
 * const before = relabelTextScans(); forwardTrajectory(t, relabel, variant); relabelTextScans() - before
 */
export function relabelTextScans(): number {
  return textScans.count;
}

type Direction = 'forward' | 'inverse';

/**
 * Inverts one step; steps with per-trajectory data keep it so the inverse is exact. Once per step object
 * (relabels are treated as immutable, and a pool entry's steps are inverted for every row it makes).
 */
function invertStep(step: RelabelStep): RelabelStep {
  let inverse = inverses.get(step);
  if (!inverse) {
    inverse = deriveInverse(step);
    inverses.set(step, inverse);
  }
  return inverse;
}
// Pure function of content across runs: a relabel step's inverse.
const inverses = new WeakMap<RelabelStep, RelabelStep>();

function deriveInverse(step: RelabelStep): RelabelStep {
  switch (step.type) {
    case 'rename_tools':
      return { type: 'rename_tools', map: invertMap(step.map) };
    case 'rename_skills':
      return { type: 'rename_skills', map: invertMap(step.map), loader: step.loader };
    case 'rename_arguments':
      return {
        type: 'rename_arguments',
        tool: step.tool,
        renames: [...step.renames]
          .reverse()
          .map((rename) => ({ path: rename.path, from: rename.to, to: rename.from })),
      };
    default:
      return step;
  }
}

function mapToolCalls(
  messages: Message[],
  map: (name: string, args: string) => { name: string; args: string },
): Message[] {
  return messages.map((message) => mapMessageCalls(message, map));
}

/** One message's tool calls mapped; the message itself when no call changes (relabels copy what they change). */
function mapMessageCalls(
  message: Message,
  map: (name: string, args: string) => { name: string; args: string },
): Message {
  if (message.role !== 'assistant' || !message.tool_calls) return message;
  let changed = false;
  const calls = message.tool_calls.map((call) => {
    const mapped = map(call.function.name, call.function.arguments);
    if (mapped.name === call.function.name && mapped.args === call.function.arguments) return call;
    changed = true;
    return { ...call, function: { ...call.function, name: mapped.name, arguments: mapped.args } };
  });
  return changed ? { ...message, tool_calls: calls } : message;
}

function mapFreeText(messages: Message[], map: (text: string) => string): Message[] {
  return messages.map((message) => {
    // A rejected attempt is free content (what the model wrote); feedback, block and fallback turns are derived.
    const hsa = 'hsa' in message ? message.hsa : undefined;
    const free = !hsa || hsa.event === 'hook_rejected';
    if (message.role === 'assistant' && message.content !== null && free) {
      const content = map(message.content);
      return content === message.content ? message : { ...message, content };
    }
    if (message.role === 'tool' && !hsa) {
      const content = map(message.content);
      return content === message.content ? message : { ...message, content };
    }
    return message;
  });
}

/**
 * Calls of the loader, in order, with the skill each names and the user turn it is in (`turn` advances
 * at each user message that is not a hook turn, from `startTurn`).
 */
function mapSkillLoads(
  messages: Message[],
  loader: LoaderNames,
  map: (skill: string, index: number, turn: number | undefined) => string,
  startTurn?: number,
): Message[] {
  let index = 0;
  let turn = startTurn;
  return messages.map((message) => {
    if (message.role === 'user' && !('hsa' in message && message.hsa)) turn = (turn ?? 0) + 1;
    return mapMessageCalls(message, (name, args) => {
      if (name !== loader.tool) return { name, args };
      const mapped = mapJsonStringValues(args, [], loader.argument, (skill) => map(skill, index, turn));
      index++;
      return { name, args: mapped ?? args };
    });
  });
}

/**
 * The source a load of a merged skill in a model's output stands for: the source the gold loaded in the
 * same turn (its k-th load there for the output's k-th), else the only source the gold loaded at all, else
 * the gold's load of the same rank, else the first source.
 */
function mergedSourceOf(
  step: Extract<RelabelStep, { type: 'merge_skills' }>,
  rank: number,
  rankInTurn: number,
  turn: number | undefined,
): string {
  const turns = step.loadTurns;
  if (turn !== undefined && turns !== undefined && turns.length === step.loads.length) {
    const inTurn = step.loads.filter((_, index) => turns[index] === turn);
    const found = inTurn[rankInTurn] ?? inTurn.at(-1);
    if (found !== undefined) return found;
  }
  const distinct = [...new Set(step.loads)];
  if (distinct.length === 1) return distinct[0] as string;
  if (turn === undefined) {
    const found = step.loads[rank] ?? step.loads.at(-1);
    if (found !== undefined) return found;
  }
  return step.sources[0] as string;
}

function applyStep(
  messages: Message[],
  step: RelabelStep,
  direction: Direction,
  isTrajectory: boolean,
  context: OutputContext,
): Message[] {
  switch (step.type) {
    case 'rename_tools': {
      const renamed = mapToolCalls(messages, (name, args) => ({ name: step.map[name] ?? name, args }));
      return mapFreeText(renamed, (text) => renameMentions(text, step.map, 'tool'));
    }
    case 'rename_skills': {
      const loaded = mapSkillLoads(messages, step.loader, (skill) => step.map[skill] ?? skill);
      return mapFreeText(loaded, (text) => renameMentions(text, step.map, 'skill'));
    }
    case 'rename_arguments':
      // Renames run one after another, each path naming its ancestors as they are at that moment; so
      // a child renamed before its parent, and the inverse in reverse order, are both exact.
      return mapToolCalls(messages, (name, args) => {
        if (name !== step.tool) return { name, args };
        let renamed = args;
        for (const rename of step.renames) renamed = renameJsonKeys(renamed, [rename]) ?? renamed;
        return { name, args: renamed };
      });
    case 'nest_arguments':
      return mapToolCalls(messages, (name, args) => {
        if (name !== step.tool) return { name, args };
        if (direction === 'forward') return { name, args: `{${JSON.stringify(step.under)}:${args}}` };
        const root = parseRawJson(args);
        const only = root?.kind === 'object' && root.members.length === 1 ? root.members[0] : undefined;
        return only && only.key === step.under
          ? { name, args: args.slice(only.value.start, only.value.end) }
          : { name, args };
      });
    case 'insert_messages': {
      // Inserted episodes belong to a trajectory; a model's output never holds them.
      if (!isTrajectory) return messages;
      if (direction === 'forward')
        return [...messages.slice(0, step.at), ...step.messages, ...messages.slice(step.at)];
      return [...messages.slice(0, step.at), ...messages.slice(step.at + step.messages.length)];
    }
    case 'merge_skills': {
      if (direction === 'forward') {
        const sources = new Set(step.sources);
        return mapSkillLoads(messages, step.loader, (skill) => (sources.has(skill) ? step.into : skill));
      }
      // In the trajectory, the k-th load of the merged skill was a load of loads[k]. In a model's output,
      // the turn says which source the gold loaded there (`mergedSourceOf`).
      let merged = 0;
      const perTurn = new Map<number | undefined, number>();
      return mapSkillLoads(
        messages,
        { tool: step.loader.tool, argument: step.loader.argument },
        (skill, _index, turn) => {
          if (skill !== step.into) return skill;
          const rank = merged++;
          const rankInTurn = perTurn.get(turn) ?? 0;
          perTurn.set(turn, rankInTurn + 1);
          if (isTrajectory) return step.loads[rank] ?? (step.sources[0] as string);
          return mergedSourceOf(step, rank, rankInTurn, turn);
        },
        isTrajectory ? undefined : context.turn,
      );
    }
  }
}

/**
 * Applies a relabel's steps to messages without touching derived content. `isTrajectory` is false for
 * a model's output, which holds no inserted episode.
 *
 * @example
 * relabelMessages(trajectory.messages, relabel, 'forward', true)
 */
export function relabelMessages(
  messages: Message[],
  relabel: Relabel,
  direction: Direction,
  isTrajectory = true,
  context: OutputContext = {},
): Message[] {
  const steps = direction === 'forward' ? relabel.steps : [...relabel.steps].reverse().map(invertStep);
  return steps.reduce(
    (current, step) => applyStep(current, step, direction, isTrajectory, context),
    messages,
  );
}

/**
 * Moves a trajectory into a variant harness: the relabel's steps, then the derived content re-derived from
 * the variant. The issues say what does not hold under the variant.
 *
 * @example
 * const { trajectory: rewritten, issues } = forwardTrajectory(trajectory, relabel, variant);
 */
export function forwardTrajectory(
  trajectory: Trajectory,
  relabel: Relabel,
  variant: Harness,
  options: { hookChecks?: HookCheckRegistry | undefined } = {},
): Rederived {
  return rederiveTrajectory(
    { ...trajectory, messages: relabelMessages(trajectory.messages, relabel, 'forward') },
    variant,
    options,
  );
}

/**
 * Moves a rewritten trajectory back to the base harness: inverse steps right to left, then the derived
 * content re-derived from the base. For a certified pair the result equals the original byte for byte.
 *
 * @example
 * inverseTrajectory(rewritten, relabel, base).trajectory // deep-equals the original
 */
export function inverseTrajectory(
  trajectory: Trajectory,
  relabel: Relabel,
  base: Harness,
  options: { hookChecks?: HookCheckRegistry | undefined } = {},
): Rederived {
  return rederiveTrajectory(inverseSteps(trajectory, relabel), base, options);
}

/**
 * The first half of `inverseTrajectory`: the relabel's inverse steps, before the derived content is
 * re-derived from the base.
 *
 * @example
 * rederiveTrajectory(inverseSteps(rewritten, relabel), base) // = inverseTrajectory(rewritten, relabel, base)
 */
export function inverseSteps(trajectory: Trajectory, relabel: Relabel): Trajectory {
  return { ...trajectory, messages: relabelMessages(trajectory.messages, relabel, 'inverse') };
}

/**
 * Maps a model's output under a variant back to the base vocabulary (tool names, arguments, skill ids,
 * mentions), for scoring against the original gold. A load of a merged skill becomes the source the gold
 * loaded in the same user turn: the turn is counted from the user messages the output holds, or given
 * as `context.turn` for an output that answers one turn.
 *
 * @example
 * invertOutput({ role: 'assistant', content: null, tool_calls: [...] }, row.relabel, { turn: 2 })
 */
export function invertOutput(output: Message, relabel: Relabel, context?: OutputContext): Message;
export function invertOutput(output: Message[], relabel: Relabel, context?: OutputContext): Message[];
export function invertOutput(
  output: Message | Message[],
  relabel: Relabel,
  context: OutputContext = {},
): Message | Message[] {
  const messages: Message[] = Array.isArray(output) ? output : [output];
  const inverted = relabelMessages(messages, relabel, 'inverse', false, context);
  return Array.isArray(output) ? inverted : (inverted[0] as Message);
}
