// A schema whose `$ref` leads back to itself without descending into the value (`{ "$ref": "#" }` at the
// root, or `allOf: [{ $ref: "#/$defs/a" }]` where `a` refers back) is accepted by a compiler that resolves
// references lazily, and then never ends validating any value: ajv recurses until the stack overflows.
// Found here once per schema, before compiling, in time linear in the schema (an explicit stack, no
// recursion): the keywords that apply a subschema to the same value are the edges, and a cycle of them is
// the error. A recursion that goes through `properties`, `items` and the like is fine: each step takes a
// smaller part of the value.
import { dataKeywords } from './schema-node-count.js';

/** Keywords whose subschema (or each subschema of its array) applies to the same value. */
const sameValueSingle = ['not', 'if', 'then', 'else'] as const;
const sameValueLists = ['allOf', 'anyOf', 'oneOf'] as const;
/** Keywords whose object maps names to subschemas that apply to the same value. */
const sameValueMaps = ['dependentSchemas', 'dependencies'] as const;

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema a local reference (`#`, `#/$defs/a`) names, or undefined (an anchor, a remote reference). */
function resolveLocal(root: Node, reference: string): Node | undefined {
  if (reference === '#' || reference === '') return root;
  if (!reference.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of reference.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isNode(current)) current = Object.hasOwn(current, token) ? current[token] : undefined;
    else return undefined;
  }
  return isNode(current) ? current : undefined;
}

/** The subschemas that apply to the same value as `node`, with the keyword path that reaches each. */
function sameValueEdges(root: Node, node: Node): Array<{ via: string; to: Node }> {
  const edges: Array<{ via: string; to: Node }> = [];
  for (const keyword of ['$ref', '$dynamicRef', '$recursiveRef'] as const) {
    const reference = node[keyword];
    if (typeof reference !== 'string') continue;
    const to = resolveLocal(root, reference);
    if (to) edges.push({ via: `${keyword} "${reference}"`, to });
  }
  for (const keyword of sameValueSingle) {
    const child = node[keyword];
    if (isNode(child)) edges.push({ via: keyword, to: child });
  }
  for (const keyword of sameValueLists) {
    const list = node[keyword];
    if (Array.isArray(list))
      list.forEach((child, index) => {
        if (isNode(child)) edges.push({ via: `${keyword}/${index}`, to: child });
      });
  }
  for (const keyword of sameValueMaps) {
    const map = node[keyword];
    if (isNode(map))
      for (const [name, child] of Object.entries(map))
        if (isNode(child)) edges.push({ via: `${keyword}/${name}`, to: child });
  }
  return edges;
}

/**
 * Where a schema refers back to itself without descending into the value (`$ref "#" leads back to the
 * root …`), or undefined when every recursion goes through a part of the value.
 *
 * @example
 * sameValueRefCycle({ type: 'object', $ref: '#' }) // 'at /: $ref "#" leads back to a schema it came from …'
 * sameValueRefCycle({ type: 'object', properties: { child: { $ref: '#' } } }) // undefined
 */
export function sameValueRefCycle(root: Record<string, unknown>): string | undefined {
  // Only schemas that use a reference can loop (a tree of plain subschemas cannot).
  if (!/"\$(?:ref|dynamicRef|recursiveRef)"/.test(JSON.stringify(root))) return undefined;
  const state = new Map<Node, 'open' | 'done'>();
  // Every subschema is a start: one reached only through `properties` may still loop on itself.
  const starts: Node[] = [];
  const pointers = new Map<Node, string>();
  const collect: Array<{ value: unknown; pointer: string }> = [{ value: root, pointer: '' }];
  while (collect.length > 0) {
    const { value, pointer } = collect.pop() as (typeof collect)[number];
    const children = Array.isArray(value)
      ? value.map((child, index) => [String(index), child] as const)
      : isNode(value)
        ? Object.entries(value).filter(([key]) => !dataKeywords.has(key))
        : [];
    if (isNode(value) && !pointers.has(value)) {
      starts.push(value);
      pointers.set(value, pointer);
    }
    for (const [key, child] of children)
      collect.push({ value: child, pointer: `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` });
  }
  for (const start of starts) {
    if (state.has(start)) continue;
    const stack: Array<{ node: Node; edges: Array<{ via: string; to: Node }>; next: number }> = [
      { node: start, edges: sameValueEdges(root, start), next: 0 },
    ];
    state.set(start, 'open');
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as (typeof stack)[number];
      const edge = frame.edges[frame.next++];
      if (!edge) {
        state.set(frame.node, 'done');
        stack.pop();
        continue;
      }
      const seen = state.get(edge.to);
      if (seen === 'open')
        return `at ${pointers.get(frame.node) || '/'}: ${edge.via} leads back to a schema it came from without descending into the value: validating any value would never end`;
      if (seen === 'done') continue;
      state.set(edge.to, 'open');
      stack.push({ node: edge.to, edges: sameValueEdges(root, edge.to), next: 0 });
    }
  }
  return undefined;
}
