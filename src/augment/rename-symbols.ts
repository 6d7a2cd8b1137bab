// Renames identifiers through the symbol table: definitions, every mention in the harness's strings, and
// the relabel that carries trajectories along. Never a blind string replace.

import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { JsonPath } from '../harness/issues.js';
import { HarnessAugmentError } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';
import { buildSymbolTable, harnessSymbols, type Mention } from '../harness/symbol-table.js';
import { applyEdits, type TextEdit } from '../trajectory/raw-json.js';
import type { ArgumentRename, Relabel, RelabelStep } from '../trajectory/relabel.js';

/** A parameter rename: the full path of the parameter below the tool's arguments (`[]` = array items). */
export interface ParameterRename {
  tool: string;
  path: string[];
  to: string;
}

/**
 * The renames `renameSymbols` applies at once, by kind: skills, tools, the loader's argument and tool
 * parameters.
 */
export interface SymbolRenames {
  /** Skill id → new id. */
  skills?: Record<string, string>;
  /** Tool name → new name; may include the skill loader's tool. */
  tools?: Record<string, string>;
  /** New name of the skill loader's argument. */
  loaderArgument?: string;
  /** Tool parameters to rename, each named by its tool and its path in the arguments. */
  parameters?: ParameterRename[];
}

function assertRenames(kind: string, map: Record<string, string>, existing: readonly string[]) {
  const targets = new Set<string>();
  const kept = new Set(existing.filter((name) => !Object.hasOwn(map, name)));
  for (const [from, to] of Object.entries(map)) {
    if (!existing.includes(from))
      throw new HarnessAugmentError(`cannot rename ${kind} "${from}": it does not exist`, { kind: 'usage' });
    if (targets.has(to) || kept.has(to)) {
      throw new HarnessAugmentError(`cannot rename ${kind} "${from}" to "${to}": the name is taken`, {
        kind: 'usage',
      });
    }
    targets.add(to);
  }
}

function getAt(root: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>(
    (node, key) => (node as Record<string | number, unknown> | undefined)?.[key],
    root,
  );
}

function setAt(root: unknown, path: JsonPath, value: unknown) {
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path.at(-1) as string | number] = value;
}

/** The JSON path of the schema node of a parameter path, from the tool's `parameters`. */
function schemaPath(path: readonly string[]): string[] {
  return path.flatMap((segment) => (segment === '[]' ? ['items'] : ['properties', segment]));
}

/** Renames a key of an object, keeping the key order. */
/**
 * The title a generator writes for a property from its name alone: Python's `str.title()` of the name with
 * `_` as spaces, as pydantic (and so FastMCP's tools) writes it: `max_count` → "Max Count".
 */
const generatedTitle = (name: string) =>
  name
    .replaceAll('_', ' ')
    .replace(/\p{L}+/gu, (word) => `${word.slice(0, 1).toUpperCase()}${word.slice(1).toLowerCase()}`);

/**
 * A renamed property's `title`, when its generator wrote it from the old name ("Max Count" for `max_count`),
 * follows the new name: left as it was, it would name the old parameter (a masked `field_25` titled "Max
 * Count"). A title of the author's own stays.
 */
function retitle(schema: unknown, from: string, to: string): void {
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  if (node.title === generatedTitle(from)) node.title = generatedTitle(to);
}

/**
 * A renamed tool's schema title (offered to the model with the schema) with the old name rewritten, where
 * it names the tool in a form a rename can follow exactly: the name in code ("Input schema for `get_balance`",
 * AgentDojo), the whole title, FastMCP's arguments model (`get_balanceArguments`) or pydantic's generated
 * title ("Get Balance"). `undefined` when the title still names the tool otherwise ("GetBalance", "Input
 * schema for get_balance"): such a tool keeps its name (`toolTitleFollows`).
 */
function retitledTool(title: string, from: string, to: string): string | undefined {
  if (title === from) return to;
  if (title === `${from}Arguments`) return `${to}Arguments`;
  if (title === generatedTitle(from)) return generatedTitle(to);
  const rewritten = title.replaceAll(`\`${from}\``, `\`${to}\``);
  const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  return squash(title.replaceAll(`\`${from}\``, '')).includes(squash(from)) ? undefined : rewritten;
}

/**
 * Whether a tool's schema title names the tool only in forms a rename rewrites exactly (or not at all);
 * `tools/rename` leaves the other tools un-renamed, since their title would keep the old name.
 *
 * @example
 * toolTitleFollows({ name: 'get_balance', parameters: { type: 'object', title: 'Input schema for `get_balance`' } }) // true
 */
export function toolTitleFollows(tool: { name: string; parameters: Record<string, unknown> }): boolean {
  const title = tool.parameters.title;
  return typeof title !== 'string' || retitledTool(title, tool.name, tool.name) !== undefined;
}

function renameKey(record: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key === from ? to : key, value]));
}

/**
 * Renames skills, tools (the loader included), the loader's argument and tool parameters everywhere a
 * harness defines or mentions them (hook `tools` scopes, `skill_loaded.skill` and the names custom checks
 * declare included), and returns the variant with the relabel for trajectories.
 *
 * @example
 * const { harness: variant, relabel } = renameSymbols(harness, { tools: { get_shipping_info: 'shipping_lookup' } });
 */
export function renameSymbols(
  harness: Harness,
  renames: SymbolRenames,
  options: { hookChecks?: HookCheckRegistry | undefined } = {},
): { harness: Harness; relabel: Relabel } {
  const skills = renames.skills ?? {};
  const tools = renames.tools ?? {};
  const parameters = renames.parameters ?? [];
  const loader = harness.skills.loader;
  assertRenames(
    'skill',
    skills,
    harness.skills.items.map((skill) => skill.id),
  );
  assertRenames('tool', tools, [loader.tool, ...harness.tools.items.map((tool) => tool.name)]);
  // Lookups by key, not scans: an operator renames every parameter of every tool, and a harness may have
  // ten thousand tools (renames × symbols, renames × mentions and renames × tools were quadratic).
  const parameterKey = (tool: string | undefined, path: readonly string[]) =>
    [tool ?? '', ...path].join('\u0000');
  const knownParameters = new Set(
    harnessSymbols(harness).flatMap((symbol) =>
      symbol.kind === 'parameter' && symbol.parameterPath
        ? [parameterKey(symbol.tool, symbol.parameterPath)]
        : [],
    ),
  );
  const byOwnerAndName = new Map<string, ParameterRename>();
  for (const rename of parameters) {
    const key = parameterKey(rename.tool, [rename.path.at(-1) ?? '']);
    if (!byOwnerAndName.has(key)) byOwnerAndName.set(key, rename);
    const known = knownParameters.has(parameterKey(rename.tool, rename.path));
    if (!known)
      throw new HarnessAugmentError(
        `cannot rename parameter ${rename.tool}.${rename.path.join('.')}: it does not exist`,
        { kind: 'usage' },
      );
  }

  // 1. Mentions in free text, through the symbol table.
  const renamedParameter = (mention: Mention) =>
    byOwnerAndName.get(parameterKey(mention.tool, [mention.name]));
  const newName = (mention: Mention): string | undefined => {
    if (mention.kind === 'skill') return skills[mention.name];
    if (mention.kind === 'tool') return tools[mention.name];
    if (mention.kind === 'parameter') return renamedParameter(mention)?.to;
    return undefined;
  };
  const editsByPath = new Map<string, { path: JsonPath; edits: TextEdit[] }>();
  const reached = new Map<string, number>();
  for (const mention of buildSymbolTable(harness, options.hookChecks).mentions) {
    const to = newName(mention);
    if (to === undefined || to === mention.name) continue;
    const key = JSON.stringify(mention.path);
    // A parameter name shared by several tools is mentioned once per owner; edit each span once.
    if ((reached.get(key) ?? -1) > mention.start) continue;
    reached.set(key, mention.end);
    const entry = editsByPath.get(key) ?? { path: mention.path, edits: [] };
    entry.edits.push({ start: mention.start, end: mention.end, text: to });
    editsByPath.set(key, entry);
  }
  const variant = structuredClone(harness);
  for (const { path, edits } of editsByPath.values())
    setAt(variant, path, applyEdits(getAt(variant, path) as string, edits));

  // 2. Definitions.
  for (const skill of variant.skills.items) skill.id = skills[skill.id] ?? skill.id;
  const loaderTool = tools[loader.tool] ?? loader.tool;
  const loaderArgument = renames.loaderArgument ?? loader.argument;
  variant.skills.loader = { ...variant.skills.loader, tool: loaderTool, argument: loaderArgument };
  const byDepth = [...parameters].sort((a, b) => b.path.length - a.path.length);
  const variantTools = new Map<string, (typeof variant.tools.items)[number]>();
  for (const tool of variant.tools.items) if (!variantTools.has(tool.name)) variantTools.set(tool.name, tool);
  for (const rename of byDepth) {
    const tool = variantTools.get(rename.tool);
    if (!tool) continue;
    const holder = getAt(tool.parameters, schemaPath(rename.path.slice(0, -1))) as Record<string, unknown>;
    const from = rename.path.at(-1) as string;
    holder.properties = renameKey(holder.properties as Record<string, unknown>, from, rename.to);
    retitle((holder.properties as Record<string, unknown>)[rename.to], from, rename.to);
    if (Array.isArray(holder.required))
      holder.required = holder.required.map((name) => (name === from ? rename.to : name));
  }
  for (const tool of variant.tools.items) {
    const to = tools[tool.name];
    if (to === undefined) continue;
    // A title that names the old tool follows the new name: the schema's (offered to the model) where it can
    // be rewritten exactly (`tools/rename` renames no other), and a display title (MCP's `title`, not offered
    // to the model) when generated from the name ("Read File" for `read_file`); a display title of the
    // author's own stays.
    const title = tool.parameters.title;
    if (typeof title === 'string') tool.parameters.title = retitledTool(title, tool.name, to) ?? title;
    if (tool.title === generatedTitle(tool.name)) tool.title = generatedTitle(to);
    if (tool.annotations?.title === generatedTitle(tool.name)) tool.annotations.title = generatedTitle(to);
    tool.name = to;
  }

  // 3. The relabel: skill loads first (named with the old loader), then tool names, then argument keys.
  const steps: RelabelStep[] = [];
  if (Object.keys(skills).length > 0)
    steps.push({
      type: 'rename_skills',
      map: { ...skills },
      loader: { tool: loader.tool, argument: loader.argument },
    });
  if (Object.keys(tools).length > 0) steps.push({ type: 'rename_tools', map: { ...tools } });
  if (loaderArgument !== loader.argument) {
    steps.push({
      type: 'rename_arguments',
      tool: loaderTool,
      renames: [{ path: [], from: loader.argument, to: loaderArgument }],
    });
  }
  const byTool = new Map<string, ArgumentRename[]>();
  for (const rename of byDepth) {
    const list = byTool.get(rename.tool) ?? [];
    // Deepest first, so each path still names its ancestors as they are when the rename runs.
    list.push({ path: rename.path.slice(0, -1), from: rename.path.at(-1) as string, to: rename.to });
    byTool.set(rename.tool, list);
  }
  for (const [tool, list] of byTool)
    steps.push({ type: 'rename_arguments', tool: tools[tool] ?? tool, renames: list });
  return { harness: variant, relabel: { steps } };
}
