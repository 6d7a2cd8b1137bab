// Schema walkers: the parameter-schema nodes the symbol table knows (root, `properties` values,
// object-valued `items`), reached in document order with their parameter paths.

export type SchemaNode = Record<string, unknown>;

/**
 * Whether a value is a plain JSON object (a schema node), not an array or null.
 *
 * @example
 * if (isRecord(schema.properties)) for (const key of Object.keys(schema.properties)) visit(key);
 */
export const isRecord = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Visits every schema node of a tool's parameters that the symbol table knows (the root, `properties`
 * values, object-valued `items`), in document order, with its parameter path (`[]` = array items).
 *
 * @example
 * walkSchema(tool.parameters, (node, path) => console.log(path.join('.')));
 */
export function walkSchema(
  schema: unknown,
  visit: (node: SchemaNode, path: string[]) => void,
  path: string[] = [],
): void {
  if (!isRecord(schema)) return;
  visit(schema, path);
  if (isRecord(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties)) walkSchema(child, visit, [...path, name]);
  }
  if (isRecord(schema.items)) walkSchema(schema.items, visit, [...path, '[]']);
}

/** The JSON path of a parameter path's schema node below `parameters`. */
const schemaPathOf = (path: readonly string[]): string[] =>
  path.flatMap((segment) => (segment === '[]' ? ['items'] : ['properties', segment]));

/**
 * The schema node at a parameter path, if any.
 *
 * @example
 * nodeAt(tool.parameters, ['items', '[]', 'sku']); // the schema of each item's `sku`
 */
export function nodeAt(schema: unknown, path: readonly string[]): SchemaNode | undefined {
  let node: unknown = schema;
  for (const key of schemaPathOf(path)) node = isRecord(node) ? node[key] : undefined;
  return isRecord(node) ? node : undefined;
}

/** Keywords whose meaning depends on property names, or that reach subschemas the symbol table does not see. */
const nameSensitiveKeywords = [
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'unevaluatedProperties',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
] as const;

/**
 * Whether renaming or moving the properties of this tool's schema keeps validation the same: no keyword
 * that names properties outside `properties`/`required`, no object-valued `enum`, `const` or `default`.
 *
 * @example
 * if (!hasPlainProperties(tool.parameters)) return { skip: 'its schema names properties outside properties' };
 */
export function hasPlainProperties(schema: unknown): boolean {
  let plain = true;
  walkSchema(schema, (node) => {
    if (nameSensitiveKeywords.some((keyword) => Object.hasOwn(node, keyword))) plain = false;
    const values = [
      ...(Array.isArray(node.enum) ? node.enum : []),
      ...(Object.hasOwn(node, 'const') ? [node.const] : []),
      ...(Object.hasOwn(node, 'default') ? [node.default] : []),
      ...(Array.isArray(node.examples) ? node.examples : []),
    ];
    if (values.some((value) => typeof value === 'object' && value !== null)) plain = false;
  });
  return plain;
}
