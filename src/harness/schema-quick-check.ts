// A validator without compiling for the plain tool-parameter schemas most harnesses have (types, properties,
// required, enums, bounds): it answers `true` only where ajv, as json-schema-validator.ts configures it,
// would accept both the schema and the value, and `undefined` ("don't know") everywhere else. A schema
// outside its subset, a keyword value of a shape a metaschema could reject, or a value that is not plain
// JSON is always "don't know", so invalid schemas and every error message still come from ajv.
import { maxSchemaNodes, schemaNodeCount } from './schema-node-count.js';

/** true: the value is valid; false: don't know. */
type Check = (value: unknown) => boolean;

const simpleTypes = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
/** Annotations with the metaschemas' shapes: they never change whether a value is valid. */
const stringAnnotations = new Set(['description', 'title', '$comment']);
const numberBounds = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
const countBounds = ['minLength', 'maxLength', 'minItems', 'maxItems'] as const;
const knownKeywords = new Set<string>([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'uniqueItems',
  'enum',
  'const',
  'default',
  'examples',
  ...stringAnnotations,
  ...numberBounds,
  ...countBounds,
]);
/** Deeper schemas are left to ajv: the walk stays short and never nears a stack limit. */
const maxDepth = 32;

type Primitive = string | number | boolean | null;
type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

/** An object literal or `Object.create(null)`: a class instance or a Date is not JSON ajv would read alike. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** JSON primitives only: ajv's non-strict numbers admit NaN and Infinity, which this check leaves to it. */
function isPrimitive(value: unknown): value is Primitive {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** The JSON kind of a value; undefined for anything else (undefined, NaN, a Date, a class instance, …). */
function kindOf(value: unknown): Kind | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'string':
      return 'string';
    case 'number':
      return Number.isFinite(value) ? 'number' : undefined;
    case 'object':
      if (Array.isArray(value)) return 'array';
      return isPlainObject(value) ? 'object' : undefined;
    default:
      return undefined;
  }
}

/** Length in code points, as ajv's `ucs2length` counts it (a lone surrogate counts as one). */
function codePointLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    length++;
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      if ((text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
    }
  }
  return length;
}

/** Distinct primitives (0 and -0 are one, as JSON and ajv read them); undefined when the list is not. */
function distinctPrimitives(list: unknown): Primitive[] | undefined {
  if (!Array.isArray(list) || !list.every(isPrimitive)) return undefined;
  return new Set(list).size === list.length ? list : undefined;
}

/** The types a `type` keyword allows, or undefined when its value is not a valid one. */
function readTypes(value: unknown): Set<string> | undefined {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const types = new Set<string>();
  for (const type of list) {
    if (typeof type !== 'string' || !simpleTypes.has(type) || types.has(type)) return undefined;
    types.add(type);
  }
  return types;
}

/** The check for one schema node, or undefined when the node is outside the subset. */
function compileNode(node: unknown, depth: number, root: boolean): Check | undefined {
  if (depth > maxDepth || !isPlainObject(node)) return undefined;
  let types: Set<string> | undefined;
  let allowed: Primitive[] | undefined;
  const bounds: Partial<Record<(typeof numberBounds)[number] | (typeof countBounds)[number], number>> = {};
  let properties: Map<string, Check> | undefined;
  let required: string[] = [];
  let noAdditional = false;
  let items: Check | undefined;
  let unique = false;
  for (const key of Object.keys(node)) {
    const value = node[key];
    // `$schema` and `$id` of the root are stripped before ajv compiles; anywhere else they mean something.
    if (root && (key === '$schema' || key === '$id')) continue;
    if (value === undefined || !knownKeywords.has(key)) return undefined;
    switch (key) {
      case 'type':
        types = readTypes(value);
        if (!types) return undefined;
        break;
      case 'enum': {
        const list = distinctPrimitives(value);
        if (!list || list.length === 0) return undefined;
        allowed = allowed ? allowed.filter((item) => list.includes(item)) : list;
        break;
      }
      case 'const':
        if (!isPrimitive(value)) return undefined;
        allowed = allowed ? allowed.filter((item) => item === value) : [value];
        break;
      case 'required': {
        if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) return undefined;
        if (new Set(value).size !== value.length) return undefined;
        required = value;
        break;
      }
      case 'properties': {
        if (!isPlainObject(value)) return undefined;
        properties = new Map();
        for (const name of Object.keys(value)) {
          // ajv skips a `__proto__` property (allSchemaProperties) in ways this check does not follow.
          if (name === '__proto__') return undefined;
          const check = compileNode(value[name], depth + 1, false);
          if (!check) return undefined;
          properties.set(name, check);
        }
        break;
      }
      case 'additionalProperties':
        if (typeof value !== 'boolean') return undefined;
        noAdditional = !value;
        break;
      case 'items':
        // An object schema only: an array is a tuple in draft-07 and invalid in 2020-12 (`prefixItems`).
        items = compileNode(value, depth + 1, false);
        if (!items) return undefined;
        break;
      case 'uniqueItems':
        if (typeof value !== 'boolean') return undefined;
        unique = value;
        break;
      case 'examples':
        if (!Array.isArray(value)) return undefined;
        break;
      case 'default':
        break;
      default:
        if (stringAnnotations.has(key)) {
          if (typeof value !== 'string') return undefined;
        } else if ((numberBounds as readonly string[]).includes(key)) {
          if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
          bounds[key as (typeof numberBounds)[number]] = value;
        } else {
          if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return undefined;
          bounds[key as (typeof countBounds)[number]] = value;
        }
    }
  }
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, minItems, maxItems } =
    bounds;
  const propertyList = properties ? [...properties] : [];
  return (value) => {
    const kind = kindOf(value);
    if (kind === undefined) return false;
    if (types) {
      const typed = types.has(kind) || (kind === 'number' && types.has('integer') && Number.isInteger(value));
      if (!typed) return false;
    }
    if (allowed && !allowed.includes(value as Primitive)) return false;
    switch (kind) {
      case 'number': {
        const number = value as number;
        if (minimum !== undefined && number < minimum) return false;
        if (maximum !== undefined && number > maximum) return false;
        if (exclusiveMinimum !== undefined && number <= exclusiveMinimum) return false;
        if (exclusiveMaximum !== undefined && number >= exclusiveMaximum) return false;
        return true;
      }
      case 'string': {
        if (minLength === undefined && maxLength === undefined) return true;
        const length = codePointLength(value as string);
        return (
          !(minLength !== undefined && length < minLength) && !(maxLength !== undefined && length > maxLength)
        );
      }
      case 'array': {
        const list = value as unknown[];
        if (minItems !== undefined && list.length < minItems) return false;
        if (maxItems !== undefined && list.length > maxItems) return false;
        if (unique && distinctPrimitives(list) === undefined) return false;
        if (items) for (let index = 0; index < list.length; index++) if (!items(list[index])) return false;
        return true;
      }
      case 'object':
        return objectValid(
          value as Record<string, unknown>,
          propertyList,
          properties,
          required,
          noAdditional,
        );
      default:
        return true;
    }
  };
}

/** ajv reads `data[name]`, inherited values included: a property present only by inheritance is "don't know". */
function objectValid(
  object: Record<string, unknown>,
  propertyList: ReadonlyArray<readonly [string, Check]>,
  properties: ReadonlyMap<string, Check> | undefined,
  required: readonly string[],
  noAdditional: boolean,
): boolean {
  for (const name of required) if (!Object.hasOwn(object, name) || object[name] === undefined) return false;
  for (const [name, check] of propertyList) {
    const child = object[name];
    if (child === undefined) continue;
    if (!Object.hasOwn(object, name) || !check(child)) return false;
  }
  if (noAdditional)
    // for…in, as ajv's additionalProperties loop: an enumerable inherited key counts there too.
    for (const name in object) if (!Object.hasOwn(object, name) || !properties?.has(name)) return false;
  return true;
}

// Validation sees the same schema objects again and again (each variant's tools): the decision and the
// check built for it are kept per object. Schemas are read as immutable, as compileJsonSchema reads them.
// Pure function of content across runs: a schema's quick check, by the schema object.
const decided = new WeakMap<object, Check | null>();

function checkFor(schema: Record<string, unknown>): Check | null {
  let check = decided.get(schema);
  if (check === undefined) {
    check = schemaNodeCount(schema) > maxSchemaNodes ? null : (compileNode(schema, 0, true) ?? null);
    decided.set(schema, check);
  }
  return check;
}

/**
 * `true` when the value is certainly valid against the schema (and the schema certainly valid), for a
 * schema built only from `type`, `properties`, `required`, `additionalProperties` (boolean), `items` (one
 * schema), `uniqueItems`, `enum` and `const` of primitives, numeric and length bounds, and annotations;
 * `undefined` ("don't know", ask ajv) otherwise. Never answers false.
 *
 * @example
 * quickCheckSchema({ type: 'object', properties: { n: { type: 'integer' } } }, { n: 1 }) // true
 * quickCheckSchema({ type: 'string', format: 'email' }, 'a@b.c') // undefined
 */
export function quickCheckSchema(schema: Record<string, unknown>, value: unknown): true | undefined {
  const check = checkFor(schema);
  return check?.(value) ? true : undefined;
}
