// perturbations/tools/change-schema-style.ts — restyles parameter schemas (adds `title`s, writes `enum` as `oneOf` of `const`s); what validates, names and calls stay.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  identifierWords,
  identityRelabel,
  type Random,
  type SchemaNode,
  type Tool,
  walkSchema,
} from '../../src/kit/index.js';

const styles = ['titles', 'one-of-const'] as const;
type Style = (typeof styles)[number];

/** An `enum` that reads the same as a `oneOf` of `const`s: distinct scalar values, and no `oneOf` yet. */
function convertibleEnum(node: SchemaNode): node is SchemaNode & { enum: unknown[] } {
  if (!Array.isArray(node.enum) || node.enum.length === 0 || Object.hasOwn(node, 'oneOf')) return false;
  const scalars = node.enum.every((value) => value === null || typeof value !== 'object');
  return scalars && new Set(node.enum.map((value) => JSON.stringify(value))).size === node.enum.length;
}

/** A human title from a parameter name: `max_stops` → "Max Stops". */
const titleOf = (name: string) =>
  identifierWords(name)
    .map((word) => `${word.slice(0, 1).toUpperCase()}${word.slice(1)}`)
    .join(' ');

/** Which styles would change something in this schema. */
function applicableStyles(schema: unknown): Style[] {
  const found = new Set<Style>();
  walkSchema(schema, (node, path) => {
    const name = path.at(-1);
    if (name !== undefined && name !== '[]' && node.title === undefined && titleOf(name) !== '')
      found.add('titles');
    if (convertibleEnum(node)) found.add('one-of-const');
  });
  return styles.filter((style) => found.has(style));
}

/** Restyles a cloned schema in place; keys keep their positions (`oneOf` takes the place of `enum`). */
function restyle(schema: SchemaNode, chosen: ReadonlySet<Style>): void {
  walkSchema(schema, (node, path) => {
    const name = path.at(-1);
    const entries = Object.entries(node).map(([key, value]): [string, unknown] =>
      key === 'enum' && chosen.has('one-of-const') && convertibleEnum(node)
        ? ['oneOf', (value as unknown[]).map((item) => ({ const: item }))]
        : [key, value],
    );
    if (chosen.has('titles') && name !== undefined && name !== '[]' && node.title === undefined) {
      const title = titleOf(name);
      if (title !== '') entries.unshift(['title', title]);
    }
    for (const key of Object.keys(node)) delete node[key];
    Object.assign(node, Object.fromEntries(entries));
  });
}

function restyleTool(tool: Tool, style: 'titles' | 'one-of-const' | 'mixed', rng: Random): Tool {
  const applicable = applicableStyles(tool.parameters);
  const wanted =
    style === 'mixed'
      ? applicable.filter(() => rng.chance(0.5))
      : applicable.filter((candidate) => candidate === style);
  const chosen = new Set(wanted.length > 0 ? wanted : [rng.pick(applicable)]);
  const parameters = structuredClone(tool.parameters);
  restyle(parameters, chosen);
  return { ...tool, parameters };
}

/**
 * Restyles the parameter schemas of a share (= severity, at least one) of the tools without changing what
 * they accept: `titles` adds a `title` to every parameter that has none ("Max Stops"), `one-of-const`
 * writes an `enum` of distinct scalars as a `oneOf` of `const`s (exactly one matches, so the same values
 * validate), `mixed` applies a random non-empty subset per tool. Argument JSON stays as written, so the
 * relabel is the identity.
 *
 * @example
 * const applied = await applyOperator(changeSchemaStyle, harness, { rng: 'seed', severity: 1, params: { style: 'one-of-const' } });
 * // fare_class: { type: 'string', oneOf: [{ const: 'basic' }, { const: 'standard' }, { const: 'flex' }] }
 */
export const changeSchemaStyle = defineOperator({
  id: 'tools/change-schema-style',
  version: 1,
  dimension: 'tools',
  mode: 'exact',
  description: 'Adds parameter titles and writes enums as oneOf of consts; accepted arguments stay the same.',
  params: z.object({ style: z.enum(['titles', 'one-of-const', 'mixed']).default('mixed') }),
  apply(harness, { rng, severity, params }) {
    const candidates = harness.tools.items.filter((tool) => {
      const applicable = applicableStyles(tool.parameters);
      return params.style === 'mixed' ? applicable.length > 0 : applicable.includes(params.style);
    });
    if (candidates.length === 0) return { skip: `no tool schema can take the "${params.style}" style` };
    const count = affectedCount(severity, candidates.length);
    const chosen = new Set(
      rng
        .fork('choose')
        .sample(candidates, count)
        .map((tool) => tool.name),
    );
    const items = harness.tools.items.map((tool) =>
      chosen.has(tool.name) ? restyleTool(tool, params.style, rng.fork(`tool-${tool.name}`)) : tool,
    );
    return { harness: { ...harness, tools: { ...harness.tools, items } }, relabel: identityRelabel };
  },
});
