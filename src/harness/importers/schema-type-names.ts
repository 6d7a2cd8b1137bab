// Type names that are not JSON Schema's. BFCL and Gorilla write function docs with Python's names ("dict",
// "float", "tuple", "any", …); the OpenAI-tools door reads them as the JSON Schema types they stand for and
// reports what it read, and every door names a type that is still unknown, and the type meant where it can.
// Internal: not re-exported from the importers' index.
import type { Issue, JsonPath } from '../issues.js';
import { walkSubschemas } from '../schema-walk.js';

/** The types of JSON Schema. */
const jsonSchemaTypes = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/**
 * Python's type names and the JSON Schema type each stands for; `any` stands for no type constraint. Each
 * admits exactly the JSON values of its JSON Schema type (a `float` argument may be written `3`, as BFCL's
 * checker takes it), so the reading loses nothing. BFCL's own converter writes `any` as "string"; here it is
 * no constraint, which is what it says.
 */
export const pythonTypeNames: ReadonlyMap<string, string | undefined> = new Map([
  ['dict', 'object'],
  ['float', 'number'],
  ['int', 'integer'],
  ['str', 'string'],
  ['bool', 'boolean'],
  ['list', 'array'],
  ['tuple', 'array'],
  ['any', undefined],
]);

/** One Python type name read, the JSON Schema type it became (undefined: none), and in how many places. */
export interface TypeNameRead {
  name: string;
  as: string | undefined;
  count: number;
}

/**
 * A copy of a schema whose Python type names are JSON Schema's (`any` drops the `type`), and the names read,
 * in the order of `pythonTypeNames`. Other names are left as they are for `unknownTypeIssues` to report.
 *
 * @example
 * readPythonTypeNames({ type: 'dict', properties: { x: { type: 'float' } } })
 * // { schema: { type: 'object', properties: { x: { type: 'number' } } }, read: [{ name: 'dict', as: 'object', count: 1 }, { name: 'float', as: 'number', count: 1 }] }
 */
export function readPythonTypeNames(schema: Record<string, unknown>): {
  schema: Record<string, unknown>;
  read: TypeNameRead[];
} {
  const copy = structuredClone(schema);
  const counts = new Map<string, number>();
  const jsonType = (name: unknown) => {
    if (typeof name !== 'string' || !pythonTypeNames.has(name)) return name;
    counts.set(name, (counts.get(name) ?? 0) + 1);
    return pythonTypeNames.get(name);
  };
  walkSubschemas(copy, (node) => {
    if (Array.isArray(node.type)) {
      const types = node.type.map(jsonType);
      // A list of types holding `any` admits every value; a name and its reading may both be listed.
      if (types.includes(undefined)) delete node.type;
      else node.type = [...new Set(types)];
    } else if (typeof node.type === 'string' && pythonTypeNames.has(node.type)) {
      const type = jsonType(node.type);
      if (type === undefined) delete node.type;
      else node.type = type;
    }
  });
  const read = [...pythonTypeNames]
    .filter(([name]) => counts.has(name))
    .map(([name, as]) => ({ name, as, count: counts.get(name) as number }));
  return { schema: copy, read };
}

/** What to write instead of a type name that is not JSON Schema's, when it can be told. */
function meant(name: string): string {
  if (pythonTypeNames.has(name)) {
    const type = pythonTypeNames.get(name);
    return type === undefined
      ? `; "${name}" is Python's name for any value: leave "type" out`
      : `; "${name}" is Python's name for "${type}"`;
  }
  const lower = name.toLowerCase();
  return jsonSchemaTypes.has(lower) ? `; write "${lower}"` : '';
}

/**
 * An `invalid_json_schema` issue for every `type` of a schema that names no JSON Schema type, at the path
 * of that `type`, naming the type meant where it can (Python's names, another case).
 *
 * @example
 * unknownTypeIssues({ type: 'object', properties: { x: { type: 'float' } } }, ['parameters'])
 * // [{ code: 'invalid_json_schema', path: ['parameters', 'properties', 'x', 'type'], message: '"float" is not a JSON Schema type …; "float" is Python's name for "number"' }]
 */
export function unknownTypeIssues(schema: unknown, at: JsonPath): Issue[] {
  const issues: Issue[] = [];
  walkSubschemas(schema, (node, { pointer }) => {
    const path: JsonPath = [...at, ...pointer];
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    for (const type of types) {
      if (typeof type === 'string' && jsonSchemaTypes.has(type)) continue;
      const name = typeof type === 'string' ? type : JSON.stringify(type);
      issues.push({
        code: 'invalid_json_schema',
        path: [...path, 'type'],
        message:
          `${JSON.stringify(name)} is not a JSON Schema type (string, number, integer, boolean, object, array, null)` +
          (typeof type === 'string' ? meant(type) : ''),
      });
    }
  });
  return issues;
}
