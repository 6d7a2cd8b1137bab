// How big a schema is, counted as ajv's cost grows: one rule shared by the validator and the quick check.

/** Keywords whose value is data, not a schema: their content is never read as keywords. */
export const dataKeywords = new Set(['enum', 'const', 'default', 'examples']);

/**
 * Most schema nodes (objects and arrays outside `enum`, `const`, `default` and `examples`) one schema may
 * have. ajv turns every subschema into code (about a quarter of a millisecond each), so a schema of 40,000
 * properties held the process for ten seconds; the limit (as OpenAI's 5,000 object properties of one
 * structured-output schema) keeps one compile near a second, and is checked before any compile.
 */
export const maxSchemaNodes = 5_000;

/**
 * How many schema nodes a schema has, counted up to `limit + 1` (the walk stops there): linear in the
 * schema's size, never more than the limit's worth of work.
 *
 * @example
 * schemaNodeCount({ type: 'object', properties: { a: { type: 'string' } } }) // 3
 */
export function schemaNodeCount(schema: unknown, limit = maxSchemaNodes): number {
  let count = 0;
  const stack: unknown[] = [schema];
  while (stack.length > 0 && count <= limit) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    count++;
    const children = Array.isArray(node)
      ? node
      : Object.entries(node).flatMap(([key, child]) => (dataKeywords.has(key) ? [] : [child]));
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push(child);
  }
  return count;
}
