// Pairs the parameters of a base harness's tools with the variant's. The rule: a base parameter (every node
// `walkSchema` gives a parameter path: the arguments object, each property at any depth, array items) is
// followed through the relabel's steps exactly as a call's arguments are — a tool rename renames its tool, a
// parameter rename renames the segment at its path, a nest puts the wrapper before every path of its tool —
// and pairs with the variant's node at the place it reaches. Nothing is matched by a guess on names, so two
// parameters of one name (`items[].id` and `id`) never swap, and a wrapper added by nest-arguments keeps
// every pair. A variant parameter no base parameter reaches was added (add-optional-parameters); a base
// parameter whose place the variant lacks was removed. Only tools on both sides are paired: a tool added or
// removed is a change of its own (its description, its name).
import type { JsonPath } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';
import { nodeAt, type SchemaNode, schemaPathOf, walkSchema } from '../harness/schema-walk.js';
import type { Relabel } from '../trajectory/relabel.js';

/** One parameter of a tool: where it is, its schema node, and whether its object requires it. */
export interface ParameterNode {
  /** The tool's name in its harness. */
  tool: string;
  /** The parameter path: `[]` is the arguments object itself, a `'[]'` segment is array items. */
  path: readonly string[];
  /** Where the schema node lives in its harness. */
  at: JsonPath;
  schema: SchemaNode;
  /** Whether the object holding it lists it in `required` (never for array items or the arguments object). */
  required: boolean;
}

/** The parameters of one tool that both harnesses have, paired. */
export interface ToolParameterPairs {
  /** The tool's base name and its name in the variant. */
  tool: { base: string; variant: string };
  /** Paired nodes, the arguments objects included, in the variant's order. */
  pairs: Array<{ base: ParameterNode; variant: ParameterNode }>;
  /** Variant nodes that no base node reaches, in the variant's order. */
  added: ParameterNode[];
  /** Base nodes whose place the variant lacks, in the base's order. */
  removed: ParameterNode[];
}

/**
 * Writes a parameter path as it reads in a text: `items[].sku`, `''` for the arguments object.
 *
 * @example
 * formatParameterPath(['query', 'items', '[]', 'sku']) // 'query.items[].sku'
 */
export function formatParameterPath(path: readonly string[]): string {
  return path.reduce(
    (out, segment) => (segment === '[]' ? `${out}[]` : out === '' ? segment : `${out}.${segment}`),
    '',
  );
}

/** Where a base parameter is in the variant: its tool and path after every step of the relabel. */
function follow(relabel: Relabel, tool: string, path: readonly string[]): { tool: string; path: string[] } {
  let name = tool;
  let at = [...path];
  for (const step of relabel.steps) {
    if (step.type === 'rename_tools') name = step.map[name] ?? name;
    else if (step.type === 'rename_arguments' && step.tool === name) {
      // Each rename names the object holding the key as it is when the rename runs, as for a call's arguments.
      for (const rename of step.renames) {
        const depth = rename.path.length;
        if (at.length > depth && at[depth] === rename.from && rename.path.every((key, i) => at[i] === key))
          at = [...at.slice(0, depth), rename.to, ...at.slice(depth + 1)];
      }
    } else if (step.type === 'nest_arguments' && step.tool === name) at = [step.under, ...at];
  }
  return { tool: name, path: at };
}

function parameterNodes(harness: Harness, toolIndex: number): ParameterNode[] {
  const tool = harness.tools.items[toolIndex];
  if (!tool) return [];
  const nodes: ParameterNode[] = [];
  walkSchema(tool.parameters, (schema, path) => {
    const name = path.at(-1);
    const holder = path.length > 0 && name !== '[]' ? nodeAt(tool.parameters, path.slice(0, -1)) : undefined;
    nodes.push({
      tool: tool.name,
      path,
      at: ['tools', 'items', toolIndex, 'parameters', ...schemaPathOf(path)],
      schema,
      required: Array.isArray(holder?.required) && holder.required.includes(name),
    });
  });
  return nodes;
}

/** A parameter path as a map key. */
export const parameterKey = (path: readonly string[]) => path.join('\u0000');

/**
 * Pairs the parameters of every tool the base and the variant share, through the relabel, in the variant's
 * tool order.
 *
 * @example
 * for (const { tool, added } of pairParameters(base, row.harness, row.relabel))
 *   console.log(tool.variant, added.map((node) => formatParameterPath(node.path)));
 */
export function pairParameters(base: Harness, variant: Harness, relabel: Relabel): ToolParameterPairs[] {
  const variantIndex = new Map(variant.tools.items.map((tool, index) => [tool.name, index]));
  const byVariantTool = new Map<string, { base: string; baseIndex: number }>();
  base.tools.items.forEach((tool, baseIndex) => {
    const to = follow(relabel, tool.name, []).tool;
    if (variantIndex.has(to) && !byVariantTool.has(to)) byVariantTool.set(to, { base: tool.name, baseIndex });
  });
  const result: ToolParameterPairs[] = [];
  variant.tools.items.forEach((tool, index) => {
    const source = byVariantTool.get(tool.name);
    if (!source) return;
    const variantNodes = parameterNodes(variant, index);
    const byPath = new Map(variantNodes.map((node) => [parameterKey(node.path), node]));
    const claimed = new Map<ParameterNode, ParameterNode>();
    const removed: ParameterNode[] = [];
    for (const node of parameterNodes(base, source.baseIndex)) {
      const other = byPath.get(parameterKey(follow(relabel, source.base, node.path).path));
      if (other && !claimed.has(other)) claimed.set(other, node);
      else removed.push(node);
    }
    const pairs: ToolParameterPairs['pairs'] = [];
    const added: ParameterNode[] = [];
    for (const node of variantNodes) {
      const baseNode = claimed.get(node);
      if (baseNode) pairs.push({ base: baseNode, variant: node });
      // A nested tool's new arguments object holds the wrapper only: it is no parameter of its own.
      else if (node.path.length > 0) added.push(node);
    }
    result.push({ tool: { base: source.base, variant: tool.name }, pairs, added, removed });
  });
  return result;
}
