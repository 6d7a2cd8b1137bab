// Mention helpers: whole-word occurrences with the symbol table's word boundaries, code spans that name a
// parameter the symbol table does not see, and the names a trajectory mentions in its free text.

import {
  namePatternsWritten,
  type ParameterReading,
  parameterNamesInReplies,
  plainToolNamesWritten,
  readParameterNames,
} from '../augment/unfollowable-names.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { valueAtPath } from '../harness/issues.js';
import { objectMemo } from '../harness/object-memo.js';
import type { Harness } from '../harness/schema.js';
import { isRecord } from '../harness/schema-walk.js';
import {
  buildSymbolTable,
  findMentions,
  harnessSymbols,
  harnessTextLocations,
  type SymbolEntry,
} from '../harness/symbol-table.js';
import { blankTemplatePlaceholders } from '../harness/template-placeholders.js';
import { occursAsWord, wordCharacter } from '../harness/text-index.js';
import type { Trajectory } from '../trajectory/schema.js';

export { occursAsWord };

/**
 * Parameter names written inside backticks somewhere in the harness (e.g. `` `body.height_cm` ``) where
 * the symbol table sees no mention: renaming such a parameter would leave that reference dangling.
 *
 * @example
 * unresolvedCodeNames(harness).has('height_cm') // true for the live-stream harness
 */
export function unresolvedCodeNames(harness: Harness, hookChecks?: HookCheckRegistry): Set<string> {
  const readings = readingsOf(harness, hookChecks);
  if (!readings.unresolved) {
    const { parameterNames, texts } = parameterReading(harness, hookChecks);
    const unresolved = new Set<string>();
    for (const { text, reading } of texts)
      codeOccurrences(text, parameterNames, (name, index) => {
        if (!reading.recognisedAt(index)) unresolved.add(name);
      });
    readings.unresolved = unresolved;
  }
  return new Set(readings.unresolved);
}

/**
 * What a harness object's texts give under some hook checks, each derived on first use and kept: every pool
 * entry's step reads the same harness (the base, for a plan's first tools step). Harnesses are treated as
 * immutable; callers get copies of the sets.
 */
interface Readings {
  parameters?: ReturnType<typeof deriveParameterReading>;
  unresolved?: ReadonlySet<string>;
  namedInTexts?: ReadonlySet<string>;
}
// Pure function of content across runs: a harness object's readings, by the hook checks they were made under.
const readingsByChecks = objectMemo(
  (_harness: Harness) => new Map<HookCheckRegistry | undefined, Readings>(),
);
function readingsOf(harness: Harness, hookChecks: HookCheckRegistry | undefined): Readings {
  const byChecks = readingsByChecks(harness);
  let readings = byChecks.get(hookChecks);
  if (!readings) {
    readings = {};
    byChecks.set(hookChecks, readings);
  }
  return readings;
}

/** Each whole-word occurrence (not inside a longer word) of one of `names` inside a code span of `text`. */
function codeOccurrences(
  text: string,
  names: readonly string[],
  visit: (name: string, index: number) => void,
): void {
  for (const span of text.matchAll(/`[^`\n]+`/g)) {
    const from = span.index;
    const to = from + span[0].length;
    for (const name of names)
      for (
        let index = text.indexOf(name, from);
        index >= 0 && index + name.length <= to;
        index = text.indexOf(name, index + 1)
      )
        if (
          !wordCharacter.test(text[index - 1] ?? '') &&
          !wordCharacter.test(text[index + name.length] ?? '')
        )
          visit(name, index);
  }
}

/**
 * Parameter names that a tool's own texts (its description, its parameters' descriptions) write in code
 * without the tool defining them: there they are most often keys of an object the tool takes or returns
 * ("A calendar event has the following fields: `title`, `start_time` …" in AgentDojo's `send_email`), not
 * another tool's parameter, and a rename of that parameter would rewrite the keys. A name qualified by its
 * tool (`` `create_calendar_event.title` ``) names the parameter and is not counted.
 *
 * @example
 * parameterNamesInOtherTools(harness).has('title') // true where send_email's text lists `title` as a key
 */
export function parameterNamesInOtherTools(harness: Harness): Set<string> {
  return new Set(namesInOtherToolsOf(harness));
}

// Pure function of content across runs: the names a harness object's tools write of other tools' parameters.
const namesInOtherToolsOf = objectMemo((harness: Harness): ReadonlySet<string> => namesInOtherTools(harness));

function namesInOtherTools(harness: Harness): Set<string> {
  const definedBy = new Map<string, Set<string>>();
  for (const symbol of harnessSymbols(harness))
    if (symbol.kind === 'parameter' && symbol.tool !== undefined && symbol.name !== '')
      definedBy.set(symbol.tool, (definedBy.get(symbol.tool) ?? new Set<string>()).add(symbol.name));
  const parameterNames = [...new Set([...definedBy.values()].flatMap((names) => [...names]))];
  const found = new Set<string>();
  for (const { path, text } of readableTexts(harness)) {
    if (path[0] !== 'tools' || path[1] !== 'items' || typeof path[2] !== 'number') continue;
    const own = definedBy.get(harness.tools.items[path[2]]?.name ?? '');
    const others = parameterNames.filter((name) => !own?.has(name) && !found.has(name));
    codeOccurrences(text, others, (name, index) => {
      if (text[index - 1] !== '.') found.add(name);
    });
  }
  return found;
}

/** A harness's texts as the name readers read them: templates with their placeholders blanked. */
const readableTexts = (harness: Harness) =>
  harnessTextLocations(harness).map((location) => ({
    path: location.path,
    text: location.template ? blankTemplatePlaceholders(location.text) : location.text,
  }));

/**
 * The harness's parameter names, and its texts each with where the symbol table reads a mention in it: what
 * `unresolvedCodeNames` and `parameterNamesInProse` read. Each text also says which names it may quote or
 * write bare as a parameter (`ParameterReading`): a tool's text its own parameters' (nested ones too), less
 * the values its own property lists (`fields`' "just 'sha' and 'html_url'" are keys of the result), any
 * other text every tool's.
 */
function parameterReading(harness: Harness, hookChecks?: HookCheckRegistry) {
  const readings = readingsOf(harness, hookChecks);
  readings.parameters ??= deriveParameterReading(harness, hookChecks);
  return readings.parameters;
}

function deriveParameterReading(harness: Harness, hookChecks?: HookCheckRegistry) {
  const table = buildSymbolTable(harness, hookChecks);
  const recognised = new Set(
    table.mentions.map((mention) => `${JSON.stringify(mention.path)}\u0000${mention.start}`),
  );
  const parameters = table.symbols.filter((symbol) => symbol.kind === 'parameter');
  const parameterNames = [...new Set(parameters.map((symbol) => symbol.name))];
  const all = new Set(parameterNames.filter((name) => name !== ''));
  const own = new Map<string, Set<string>>();
  const values = new Map<string, Set<string>>();
  for (const symbol of parameters) {
    if (symbol.tool !== undefined) own.set(symbol.tool, (own.get(symbol.tool) ?? new Set()).add(symbol.name));
    const listed = enumValues(valueAtPath(harness, symbol.definedAt));
    if (listed.length > 0) values.set(symbol.name, new Set([...(values.get(symbol.name) ?? []), ...listed]));
  }
  const texts = readableTexts(harness).map(({ path, text }) => {
    const at = JSON.stringify(path);
    const tool =
      path[0] === 'tools' && path[1] === 'items' && typeof path[2] === 'number'
        ? harness.tools.items[path[2]]?.name
        : undefined;
    const ownNames = tool === undefined ? undefined : (own.get(tool) ?? new Set<string>());
    const holderValues = new Set(enumValues(valueAtPath(harness, path.slice(0, -1))));
    const quoted =
      ownNames === undefined ? all : new Set([...ownNames].filter((name) => !holderValues.has(name)));
    const reading: ParameterReading = {
      recognisedAt: (index: number) => recognised.has(`${at}\u0000${index}`),
      codeIsMention: true,
      quoted,
      values,
      ...(ownNames !== undefined ? { own: ownNames } : {}),
    };
    return { text, reading };
  });
  return { parameterNames, texts, values };
}

/** The string values a property's schema lists: its `enum`, or its items' (an array of choices). */
function enumValues(node: unknown): string[] {
  if (!isRecord(node)) return [];
  const listed = Array.isArray(node.enum)
    ? node.enum
    : isRecord(node.items) && Array.isArray(node.items.enum)
      ? node.items.enum
      : [];
  return listed.filter((value): value is string => typeof value === 'string');
}

/**
 * Tool names that are plain words (`isDistinctiveIdentifier` false: `fetch`, `read`, `grep`) and that a text
 * writes in a form a rename cannot follow: bare ("call fetch again", "work it through with
 * sequentialthinking"), in code, where the word may be the shell command and not the tool ("use the Bash
 * tool with `grep` directly"), or in another letter case ("Use the Read tool" for `read`). Only "the fetch
 * tool", the name as written followed by "tool", names the tool without doubt. The harness's texts and the
 * given free texts (a trajectory's replies, `trajectoryReplies`) are read; a tool's own name field is not text.
 *
 * @example
 * plainToolNamesInText(harness).has('fetch') // true where the prompt says "call fetch again"
 */
export function plainToolNamesInText(harness: Harness, freeText: readonly string[] = []): Set<string> {
  const names = [harness.skills.loader.tool, ...harness.tools.items.map((tool) => tool.name)];
  return plainToolNamesWritten(names, [...readableTexts(harness).map(({ text }) => text), ...freeText]);
}

/**
 * The name patterns (`'list_*'`, `search_*`, `get_*_by_id`) that the harness's texts and the given free texts
 * (a trajectory's replies) write, read as families of tools: `matched` holds the tools one of them addresses,
 * which a rename could not follow name by name (the text still says "Use 'search_*' tools" of a tool now
 * named `searchIssues`), and `matches` tells whether a new name would join a family it was not in.
 *
 * @example
 * toolNamePatternsInText(harness).matched.has('search_issues') // true where the prompt says "Use 'search_*' tools"
 */
export function toolNamePatternsInText(
  harness: Harness,
  freeText: readonly string[] = [],
): { matched: Set<string>; matches: (name: string) => boolean } {
  const patterns = namePatternsWritten([...readableTexts(harness).map(({ text }) => text), ...freeText]);
  const matches = (name: string) => patterns.some((test) => test(name));
  const names = [harness.skills.loader.tool, ...harness.tools.items.map((tool) => tool.name)];
  return { matched: new Set(names.filter(matches)), matches };
}

/**
 * Parameter names that prose names outside the symbol table's mentions, in the harness's texts and in the
 * given free texts (a trajectory's replies, `trajectoryReplies`, where code counts too): a distinctive name
 * written bare ("call it with dryRun set to true"), any name the word "parameter" (argument, field, option …)
 * follows, itself or closing a list of names ("use the 'head' parameter", "The "body" and "event"
 * parameters"), any name written as a parameter (`namesParameter`: "set raw to true", `workdir="/foo"`, "-
 * thought: …", "offset/limit"), followed by its type ("each object with path (string)") or by one of its
 * values ("with method 'create'"), a name quoted ("'value'", "'delete: true'": a tool's text quoting one of
 * its own parameters, the prompt's or a reply's any tool's), and a tool's own name written bare where it can
 * only be the parameter ("it will be used instead of ref", "Required unless body is provided"). The symbol
 * table takes a parameter only in code or qualified by its tool, so a rename would leave these behind, naming
 * a parameter that is no longer there; a quoted text is protected content, which no rename rewrites.
 *
 * @example
 * parameterNamesInProse(harness).has('head') // true where a description says "Use the 'head' parameter"
 */
export function parameterNamesInProse(
  harness: Harness,
  freeText: readonly string[] = [],
  hookChecks?: HookCheckRegistry,
): Set<string> {
  const { parameterNames: all, texts, values } = parameterReading(harness, hookChecks);
  const parameterNames = all.filter((name) => name !== '');
  const readings = readingsOf(harness, hookChecks);
  if (!readings.namedInTexts) {
    const inTexts = new Set<string>();
    for (const { text, reading } of texts) readParameterNames(text, parameterNames, inTexts, reading);
    readings.namedInTexts = inTexts;
  }
  const named = new Set(readings.namedInTexts);
  for (const name of parameterNamesInReplies(freeText, parameterNames, values)) named.add(name);
  return named;
}

/**
 * Names of the given kind that a trajectory mentions in the free text its relabel rewrites (assistant
 * replies and real tool results, hook turns and skill-load results aside). Renaming such a name changes
 * reply text, which hooks may judge differently, so the operators leave these names alone.
 *
 * @example
 * mentionedInFreeText(trajectory, harness, ['item_qa'], 'skill') // Set { 'item_qa' } when a reply names it
 */
export function mentionedInFreeText(
  trajectory: Trajectory | undefined,
  harness: Harness,
  names: readonly string[],
  kind: 'skill' | 'tool',
): Set<string> {
  const mentioned = new Set<string>();
  if (!trajectory) return mentioned;
  const symbols: SymbolEntry[] = names.map((name) => ({ kind, name, definedAt: [] }));
  const loads = new Set<string>();
  for (const message of trajectory.messages) {
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls)
      if (call.function.name === harness.skills.loader.tool) loads.add(call.id);
  }
  for (const message of trajectory.messages) {
    const free =
      (message.role === 'assistant' && !message.hsa && message.content !== null) ||
      (message.role === 'tool' && !message.hsa && !loads.has(message.tool_call_id));
    if (!free || typeof message.content !== 'string') continue;
    for (const mention of findMentions({ path: [], text: message.content }, symbols))
      mentioned.add(mention.name);
  }
  return mentioned;
}
