// perturbations/tools/reorder-properties.ts — reorders the properties and `required` lists of every subschema of tool parameter schemas (nested objects, `$defs`, `anyOf` branches, …); names, types, constraints and argument JSON stay.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  identityRelabel,
  isRecord,
  type Random,
  type SchemaNode,
  walkSubschemas,
} from '../../src/kit/index.js';

const Params = z.object({});

/** Whether a schema has an object with two properties, or a `required` list of two names, to reorder. */
function reorderable(schema: unknown): boolean {
  let found = false;
  walkSubschemas(schema, (node) => {
    if (isRecord(node.properties) && Object.keys(node.properties).length > 1) found = true;
    if (Array.isArray(node.required) && node.required.length > 1) found = true;
  });
  return found;
}

/** A shuffled copy that differs from the input when it has two distinct elements. */
function shuffleDifferent<T>(items: readonly T[], rng: Random): T[] {
  const shuffled = rng.shuffle(items);
  const same = shuffled.every((item, index) => item === items[index]);
  return same && items.length > 1 ? [...items.slice(1), items[0] as T] : shuffled;
}

/** Reorders every `properties` object and `required` list of a (cloned) schema in place. */
function reorderSchema(schema: SchemaNode, rng: Random): void {
  let index = 0;
  walkSubschemas(schema, (node) => {
    const local = rng.fork(index++);
    if (isRecord(node.properties)) {
      const entries = Object.entries(node.properties);
      node.properties = Object.fromEntries(shuffleDifferent(entries, local.fork('properties')));
    }
    if (Array.isArray(node.required)) node.required = shuffleDifferent(node.required, local.fork('required'));
  });
}

/**
 * Reorders the properties of every subschema of the parameter schemas (nested objects, array items,
 * `$defs`, `anyOf`/`oneOf`/`allOf` branches, `if`/`then`/`else`, `additionalProperties`, …) and their
 * `required` lists, in a share (= severity, at least one) of the tools that have something to reorder.
 * JSON Schema validation ignores both orders, and argument JSON in trajectories is left as written, so the
 * relabel is the identity. Note that the content hash sorts keys: a change of property order alone does not
 * change it, a change of `required` order does.
 *
 * @example
 * const applied = await applyOperator(reorderProperties, harness, { rng: 'seed', severity: 1 });
 * // find_flights lists date, filters, origin, destination; required: destination, date, origin
 */
export const reorderProperties = defineOperator({
  id: 'tools/reorder-properties',
  // 2: every subschema, not only the parameter-path nodes.
  version: 2,
  dimension: 'tools',
  mode: 'exact',
  description: 'Reorders parameter properties and required lists, nested too; arguments stay as written.',
  params: Params,
  apply(harness, { rng, severity }) {
    const candidates = harness.tools.items.filter((tool) => reorderable(tool.parameters));
    if (candidates.length === 0) return { skip: 'no tool has two properties or required names to reorder' };
    const count = affectedCount(severity, candidates.length);
    const chosen = new Set(
      rng
        .fork('choose')
        .sample(candidates, count)
        .map((tool) => tool.name),
    );
    const items = harness.tools.items.map((tool) => {
      if (!chosen.has(tool.name)) return tool;
      const parameters = structuredClone(tool.parameters);
      reorderSchema(parameters, rng.fork(`tool-${tool.name}`));
      return { ...tool, parameters };
    });
    return { harness: { ...harness, tools: { ...harness.tools, items } }, relabel: identityRelabel };
  },
});
