// What a variant changed in its tools' argument schemas beyond renames and descriptions, as short lines for
// the review page: arguments nested under a wrapper, parameters added or removed, a parameter made required
// or optional, properties reordered, other keywords changed (a `title`, an `enum` written as `oneOf`). Read
// from the schemas, paired through the relabel (`pairParameters`); renames have their own table and
// descriptions their own parts, so neither is repeated here. Tools are named as the variant names them.

import {
  formatParameterPath,
  type ParameterNode,
  pairParameters,
  parameterKey,
} from '../augment/parameter-pairs.js';
import { canonicalJson } from '../harness/canonical-json.js';
import type { Harness } from '../harness/schema.js';
import { isRecord } from '../harness/schema-walk.js';
import type { Relabel } from '../trajectory/relabel.js';

/** Tools named in full up to this many; beyond, only their count. */
const namedTools = 3;

/** Keywords that hold other parameters or are read elsewhere (descriptions are parts; `required` is per parameter). */
const notOwnKeywords = new Set(['description', 'properties', 'required']);

/** Keywords of the arguments object that stay at the root when the arguments are nested below it. */
const rootOnlyKeywords = new Set(['$schema', '$defs', 'definitions']);

/** A node's own keywords: all but those above, and `items` where it holds a parameter node of its own. */
function ownKeywords(node: ParameterNode): Map<string, string> {
  const own = new Map<string, string>();
  for (const [keyword, value] of Object.entries(node.schema)) {
    if (notOwnKeywords.has(keyword)) continue;
    if (keyword === 'items' && isRecord(value)) continue;
    own.set(keyword, canonicalJson(value));
  }
  return own;
}

/** `name (tool_a, tool_b)` or `name (12 tools)`. */
function withTools(name: string, tools: readonly string[]): string {
  const list = tools.length > namedTools ? `${tools.length} tools` : tools.join(', ');
  return `\`${name}\` (${list})`;
}

/** Groups names by what they are, keeping first-seen order: `[name, tools]` pairs. */
function grouped(entries: ReadonlyArray<readonly [string, string]>): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const [name, tool] of entries) {
    const tools = groups.get(name) ?? [];
    if (!tools.includes(tool)) tools.push(tool);
    groups.set(name, tools);
  }
  return [...groups];
}

/** The topmost nodes of a list: a node below another of the list (an added array's items) is its part. */
const topmost = (nodes: readonly ParameterNode[]) =>
  nodes.filter(
    (node) =>
      !nodes.some(
        (other) =>
          other !== node &&
          other.path.length < node.path.length &&
          other.path.every((key, index) => node.path[index] === key),
      ),
  );

/**
 * Lists, in a fixed order, what a variant changed in its tools' argument schemas beyond renames and
 * descriptions; empty when nothing did.
 *
 * @example
 * argumentChanges(base, row.harness, row.relabel)
 * // ['arguments nested under `query`: 12 tools (get_weather, book_flight, …)',
 * //  'optional parameters added: `timezone` (get_weather), `locale` (4 tools)']
 */
export function argumentChanges(base: Harness, variant: Harness, relabel: Relabel): string[] {
  const nested: Array<[string, string]> = [];
  const addedOptional: Array<[string, string]> = [];
  const addedRequired: Array<[string, string]> = [];
  const removed: Array<[string, string]> = [];
  const madeRequired: Array<[string, string]> = [];
  const madeOptional: Array<[string, string]> = [];
  const reordered: string[] = [];
  const keywords: Array<[string, string]> = [];
  for (const tool of pairParameters(base, variant, relabel)) {
    const name = tool.tool.variant;
    for (const { base: before, variant: after } of tool.pairs) {
      if (before.path.length === 0 && after.path.length > 0)
        nested.push([formatParameterPath(after.path), name]);
      const shown = formatParameterPath(after.path);
      if (before.path.length > 0 && before.required !== after.required)
        (after.required ? madeRequired : madeOptional).push([shown, name]);
      const own = { before: ownKeywords(before), after: ownKeywords(after) };
      for (const keyword of new Set([...own.before.keys(), ...own.after.keys()])) {
        // A nest leaves these at the root, beside the wrapper (nest-arguments): they did not change.
        if (before.path.length === 0 && after.path.length > 0 && rootOnlyKeywords.has(keyword)) continue;
        // A title made from a name follows its rename (`Fare Class` → `Cabin Class`): the renames table says so.
        if (keyword === 'title' && renamed(before, after, tool.tool)) continue;
        if (own.before.get(keyword) !== own.after.get(keyword)) keywords.push([keyword, name]);
      }
    }
    if (propertiesReordered(tool.pairs)) reordered.push(name);
    for (const node of topmost(tool.added))
      (node.required ? addedRequired : addedOptional).push([formatParameterPath(node.path), name]);
    for (const node of topmost(tool.removed)) removed.push([formatParameterPath(node.path), tool.tool.base]);
  }
  const lines: string[] = [];
  const line = (what: string, entries: ReadonlyArray<readonly [string, string]>) => {
    if (entries.length > 0)
      lines.push(
        `${what}: ${grouped(entries)
          .map(([key, tools]) => withTools(key, tools))
          .join(', ')}`,
      );
  };
  for (const [wrapper, tools] of grouped(nested))
    lines.push(
      `arguments nested under \`${wrapper}\`: ${tools.length} tool${tools.length === 1 ? '' : 's'} (${tools.slice(0, namedTools).join(', ')}${tools.length > namedTools ? ', …' : ''})`,
    );
  line('optional parameters added', addedOptional);
  line('required parameters added', addedRequired);
  line('parameters removed (base names)', removed);
  line('made required', madeRequired);
  line('made optional', madeOptional);
  if (reordered.length > 0)
    lines.push(
      `properties reordered: ${reordered.length > namedTools ? `${reordered.length} tools` : reordered.join(', ')}`,
    );
  line('schema keywords changed', keywords);
  return lines;
}

/** Whether a parameter's own name changed (for the arguments object, its tool's name). */
const renamed = (before: ParameterNode, after: ParameterNode, tool: { base: string; variant: string }) =>
  before.path.length === 0 ? tool.base !== tool.variant : before.path.at(-1) !== after.path.at(-1);

/** Whether some object lists the properties both sides have in another order than the base (renames followed). */
function propertiesReordered(pairs: ReadonlyArray<{ base: ParameterNode; variant: ParameterNode }>): boolean {
  const variantOf = new Map(pairs.map((pair) => [parameterKey(pair.base.path), pair.variant]));
  return pairs.some(({ base: before, variant: after }) => {
    const names = (node: ParameterNode) =>
      isRecord(node.schema.properties) ? Object.keys(node.schema.properties) : [];
    const inBaseOrder = names(before).flatMap((key) => {
      const paired = variantOf.get(parameterKey([...before.path, key]));
      return paired ? [paired.path.at(-1) as string] : [];
    });
    const shared = new Set(inBaseOrder);
    const inVariantOrder = names(after).filter((key) => shared.has(key));
    return parameterKey(inBaseOrder) !== parameterKey(inVariantOrder);
  });
}
