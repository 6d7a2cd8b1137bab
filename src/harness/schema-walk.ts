// Schema walkers. Every subschema of a parameter schema is reached with json-schema-traverse (every keyword
// that holds a schema: `properties`, `items`, `anyOf`/`oneOf`/`allOf`, `$defs`/`definitions`,
// `additionalProperties`, `patternProperties`, `if`/`then`/`else`, `not`, …, and the 2019-09/2020-12 ones it
// predates: `prefixItems`, `dependentSchemas`, `unevaluatedProperties`, `unevaluatedItems`, `contentSchema`). A node reached only through `properties` and object-valued `items` has a parameter
// path (what the symbol table, the relabel of argument paths and the arguments of a call name); any other is
// a subschema without one. They live in the core, where `changedParts` pairs parameters with them; the kit
// gives them to operator authors.
import traverse from 'json-schema-traverse';

/**
 * A JSON Schema node as a plain object, its keywords unchecked: what `isRecord` narrows to and
 * `walkSubschemas` visits.
 */
export type SchemaNode = Record<string, unknown>;

/**
 * Whether a value is a plain JSON object (a schema node), not an array or null.
 *
 * @example
 * if (isRecord(schema.properties)) for (const key of Object.keys(schema.properties)) visit(key);
 */
export const isRecord = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where a subschema is: its JSON path from the root, and its parameter path when it has one. */
export interface SubschemaPlace {
  /** Keys from the root to the node: `['properties', 'items', 'anyOf', 0]`. */
  pointer: ReadonlyArray<string | number>;
  /** The keywords along the pointer, without property names and indexes: `['properties', 'anyOf']`. */
  keywords: readonly string[];
  /** The parameter path (`[]` = array items) when the node is reached only through `properties` and `items`. */
  parameterPath?: string[];
}

/** Keywords of 2019-09 and 2020-12 that json-schema-traverse 1.0 does not know, by the shape they hold. */
const laterKeywords = {
  schema: ['unevaluatedProperties', 'unevaluatedItems', 'contentSchema'],
  array: ['prefixItems'],
  map: ['dependentSchemas'],
} as const;

/**
 * Visits every subschema of a schema, the root included, with its place: in document order, except that
 * the subschemas under `prefixItems`, `dependentSchemas`, `unevaluated*` and `contentSchema` come right
 * after the node that holds them.
 *
 * @example
 * walkSubschemas(tool.parameters, (node, { pointer }) => { if (node.$ref) refs.push(pointer.join('/')); });
 */
export function walkSubschemas(
  schema: unknown,
  visit: (node: SchemaNode, place: SubschemaPlace) => void,
): void {
  walkFrom(schema, { pointer: [], keywords: [], parameterPath: [] }, visit);
}

function walkFrom(
  schema: unknown,
  start: SubschemaPlace,
  visit: (node: SchemaNode, place: SubschemaPlace) => void,
): void {
  if (!isRecord(schema)) return;
  // Where each node of this traversal is, by node; a node object met twice (a shared object) keeps its first place.
  const places = new Map<SchemaNode, SubschemaPlace>([[schema, start]]);
  traverse(schema, {
    cb: (node, _jsonPointer, _root, _parentPointer, keyword, parent, key) => {
      const place = placeOf(node, places, parent, keyword, key);
      places.set(node, place);
      visit(node, place);
      const below = (later: string, ...rest: Array<string | number>): SubschemaPlace => ({
        pointer: [...place.pointer, later, ...rest],
        keywords: [...place.keywords, later],
      });
      for (const later of laterKeywords.schema) walkFrom(node[later], below(later), visit);
      for (const later of laterKeywords.array) {
        const children = node[later];
        if (Array.isArray(children))
          for (const [index, child] of children.entries()) walkFrom(child, below(later, index), visit);
      }
      for (const later of laterKeywords.map)
        if (isRecord(node[later]))
          for (const [name, child] of Object.entries(node[later] as SchemaNode))
            walkFrom(child, below(later, name), visit);
    },
  });
}

function placeOf(
  node: SchemaNode,
  places: ReadonlyMap<SchemaNode, SubschemaPlace>,
  parent: SchemaNode | undefined,
  keyword: string | undefined,
  key: string | number | undefined,
): SubschemaPlace {
  const above = parent ? places.get(parent) : undefined;
  if (!above || keyword === undefined) return places.get(node) as SubschemaPlace;
  const pointer = [...above.pointer, keyword, ...(key === undefined ? [] : [key])];
  const keywords = [...above.keywords, keyword];
  const path = above.parameterPath;
  if (path && keyword === 'properties' && typeof key === 'string')
    return { pointer, keywords, parameterPath: [...path, key] };
  if (path && keyword === 'items' && key === undefined)
    return { pointer, keywords, parameterPath: [...path, '[]'] };
  return { pointer, keywords };
}

/**
 * Visits the schema nodes that have a parameter path (the root, `properties` values, object-valued
 * `items`), in document order, with that path (`[]` = array items). Subschemas under any other keyword
 * (`anyOf`, `$defs`, …) are `walkSubschemas`'s.
 *
 * @example
 * walkSchema(tool.parameters, (node, path) => console.log(path.join('.')));
 */
export function walkSchema(schema: unknown, visit: (node: SchemaNode, path: string[]) => void): void {
  walkSubschemas(schema, (node, place) => {
    if (place.parameterPath) visit(node, place.parameterPath);
  });
}

/**
 * The JSON path of a parameter path's schema node below `parameters`.
 *
 * @example
 * schemaPathOf(['items', '[]', 'sku']) // ['properties', 'items', 'items', 'properties', 'sku']
 */
export const schemaPathOf = (path: readonly string[]): string[] =>
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

/** Keywords whose meaning depends on property names, or that refer to another node (a pointer may spell a name). */
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
] as const;

/** Keywords whose subschemas apply to the same value as the node that holds them. */
const combinators = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']);

/** Keywords that speak of an object's keys. */
const objectKeywords = ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties'];

/**
 * Whether renaming or moving the properties of this tool's schema keeps validation the same: in no subschema
 * (`$defs`, `additionalProperties`, `prefixItems` and every other place included) a keyword that names
 * properties outside `properties`/`required` or refers to another node (`$ref`); no subschema below a
 * combinator (`anyOf`, `oneOf`, `allOf`, `not`, `if`/`then`/`else`) that speaks of an object's keys (its
 * properties have no parameter path to relabel; a leaf `anyOf: [{ type: 'string' }, { type: 'null' }]` is
 * fine); no object-valued `enum`, `const`, `default` or `examples`.
 *
 * @example
 * if (!hasPlainProperties(tool.parameters)) return { skip: 'its schema names properties outside properties' };
 */
export function hasPlainProperties(schema: unknown): boolean {
  let plain = true;
  walkSubschemas(schema, (node, place) => {
    const has = (keyword: string) => Object.hasOwn(node, keyword);
    if (nameSensitiveKeywords.some(has)) plain = false;
    if (place.keywords.some((keyword) => combinators.has(keyword)) && objectKeywords.some(has)) plain = false;
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
