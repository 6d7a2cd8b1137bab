// JSON Schema validation for tool parameters and JSON-shape checks: the dialect comes from `$schema`
// (draft-07, 2019-09, 2020-12), `format` is checked (ajv-formats), `pattern` runs on a linear-time engine
// (re2js), and compiled validators are cached by object and by schema hash in a bounded cache that really
// releases memory: each cache generation has its own ajv instances.
import { createHash } from 'node:crypto';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import { RE2JS } from 're2js';
import { canonicalJson } from './canonical-json.js';
import { dataKeywords, maxSchemaNodes, schemaNodeCount } from './schema-node-count.js';
import { quickCheckSchema } from './schema-quick-check.js';
import { sameValueRefCycle } from './schema-ref-cycle.js';

export { maxSchemaNodes, schemaNodeCount };

/** The JSON Schema dialects the validator knows. */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

/**
 * `pattern` and `patternProperties` run on re2js, whose time is linear in the input: a hostile pattern
 * cannot hang validation. JavaScript syntax is translated first; lookaround and backreferences, which no
 * linear-time engine has, make the schema invalid with the engine's message.
 */
const linearTimeRegExp: RegExpEngine = Object.assign(
  (pattern: string) => RE2JS.compile(RE2JS.translateRegExp(pattern)),
  { code: 'require("re2js").RE2JS.compile' },
);

const options: Options = {
  allErrors: true,
  strict: false,
  validateFormats: true,
  logger: false,
  code: { regExp: linearTimeRegExp },
};
// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped once more.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as <T extends Ajv>(ajv: T) => T;
/**
 * draft-07's metaschema asks `uniqueItems` of `enum` (and of `required`), which ajv checks pairwise: a
 * 200,000-value enum took minutes. The engine gets the same metaschema without those two `uniqueItems`, and
 * `findDuplicateItems` checks the rule in linear time before compiling.
 */
const draft07Id = 'http://json-schema.org/draft-07/schema';
const linearDraft07 = (() => {
  // Read from ajv itself rather than importing its JSON file: a JSON import needs an import attribute that
  // the ESM build does not keep for an external package. Read as added, not through `getSchema`, which
  // compiles it (a third of a second at the start of every process that imports this module).
  const draft07MetaSchema = new Ajv().schemas[draft07Id]?.schema;
  if (!draft07MetaSchema || typeof draft07MetaSchema !== 'object')
    throw new Error('ajv has no draft-07 metaschema');
  const meta = structuredClone(draft07MetaSchema) as {
    properties: { enum: Record<string, unknown> };
    definitions: { stringArray: Record<string, unknown> };
  };
  delete meta.properties.enum.uniqueItems;
  delete meta.definitions.stringArray.uniqueItems;
  return meta;
})();

function newDraft07Engine(): Ajv {
  const ajv = new Ajv({ ...options, meta: false });
  ajv.addMetaSchema(linearDraft07, draft07Id, false);
  ajv.refs['http://json-schema.org/schema'] = draft07Id;
  return addFormats(ajv);
}

/**
 * The first `enum` or `required` list of a schema that repeats a value (the metaschema's `uniqueItems`),
 * found in time linear in the schema's size; undefined when there is none.
 *
 * @example
 * findDuplicateItems({ enum: ['a', 'b', 'a'] }) // 'enum has the value "a" twice'
 */
export function findDuplicateItems(node: unknown, depth = 0): string | undefined {
  if (depth > 512 || typeof node !== 'object' || node === null) return undefined;
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = findDuplicateItems(child, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(node)) {
    if ((key === 'enum' || key === 'required') && Array.isArray(child)) {
      const seen = new Set<string>();
      for (const item of child) {
        const text = canonicalJson(item);
        if (seen.has(text))
          return `${key} has the value ${text.length > 80 ? `${text.slice(0, 80)}…` : text} twice`;
        seen.add(text);
      }
    }
    if (dataKeywords.has(key)) continue;
    const found = findDuplicateItems(child, depth + 1);
    if (found) return found;
  }
  return undefined;
}

let compilations = 0;
/**
 * How many schemas this process has compiled (cache misses): tests count work with it, not time.
 *
 * @example
 * const before = schemaCompilations(); compileJsonSchema({ type: 'object' }); schemaCompilations() - before // 0 or 1
 */
export function schemaCompilations(): number {
  return compilations;
}

/** A fresh ajv instance for a dialect, with formats. */
const newEngine: Record<SchemaDialect, () => Ajv> = {
  'draft-07': newDraft07Engine,
  '2019-09': () => addFormats(new Ajv2019(options)) as unknown as Ajv,
  '2020-12': () => addFormats(new Ajv2020(options)) as unknown as Ajv,
};

const dialectIds: ReadonlyArray<readonly [RegExp, SchemaDialect]> = [
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/u, '2020-12'],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/u, '2019-09'],
  [/^https?:\/\/json-schema\.org\/draft-0[4-7]\/schema#?$/u, 'draft-07'],
];
/** Keywords that only drafts after 07 define; a schema without `$schema` that uses one is read as 2020-12. */
const laterKeywords = new Set([
  'prefixItems',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'minContains',
  'maxContains',
  '$defs',
  '$dynamicRef',
  '$dynamicAnchor',
  '$anchor',
]);

function usesLaterKeywords(node: unknown, depth = 0): boolean {
  if (depth > 64 || typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some((child) => usesLaterKeywords(child, depth + 1));
  return Object.entries(node).some(
    ([key, child]) =>
      laterKeywords.has(key) || (!dataKeywords.has(key) && usesLaterKeywords(child, depth + 1)),
  );
}

/**
 * The dialect a schema is validated in: the one its `$schema` names (draft-04 to draft-07 read as
 * draft-07, 2019-09, 2020-12); without `$schema`, draft-07 unless the schema uses a keyword only later
 * drafts define (`prefixItems`, `dependentRequired`, `unevaluatedProperties`, `$defs`, …), then 2020-12.
 * An unknown `$schema` is read like a missing one.
 *
 * @example
 * schemaDialect({ $schema: 'https://json-schema.org/draft/2020-12/schema' }) // '2020-12'
 * schemaDialect({ type: 'object' }) // 'draft-07'
 */
export function schemaDialect(schema: Record<string, unknown>): SchemaDialect {
  const declared = typeof schema.$schema === 'string' ? schema.$schema.trim() : undefined;
  if (declared !== undefined) {
    for (const [pattern, dialect] of dialectIds) if (pattern.test(declared)) return dialect;
  }
  return usesLaterKeywords(schema) ? '2020-12' : 'draft-07';
}

// Variants are fresh copies of a harness, so the same schema arrives as many objects: cache by identity
// first, then by content hash. Compiling is by far the most expensive step of validation. ajv keeps every
// schema it compiled (its own cache never shrinks), so when the content cache is full the whole generation
// — its ajv instances and the validators they compiled — is dropped together and a fresh one starts.
// Pure function of content across runs: a schema's compiled validator, by the schema object.
const byObject = new WeakMap<object, ValidateFunction>();
let generation = newGeneration();
/** Distinct schemas one generation holds before it is replaced. */
export const schemaCacheSize = 2_048;
/**
 * Schema text (UTF-16 code units of the JSON compiled) one generation holds before it is replaced: a few
 * large schemas bound the cache as many small ones do (a compiled validator is a multiple of its text).
 */
export const schemaCacheBytes = 8 * 1024 * 1024;

function newGeneration() {
  return {
    engines: {} as Partial<Record<SchemaDialect, Ajv>>,
    byHash: new Map<string, ValidateFunction>(),
    bytes: 0,
  };
}

/**
 * How many distinct schemas the current cache generation holds (at most `schemaCacheSize`).
 *
 * @example
 * compiledSchemaCount() <= schemaCacheSize // true
 */
export function compiledSchemaCount(): number {
  return generation.byHash.size;
}

export type CompiledSchema = { ok: true; validate: ValidateFunction } | { ok: false; error: string };

/**
 * Compiles a JSON Schema once in its dialect (`schemaDialect`); returns the error message when it is not
 * a valid schema, or when a `pattern` needs a feature the linear-time engine lacks (lookaround,
 * backreferences).
 *
 * @example
 * const compiled = compileJsonSchema({ type: 'object' }); if (compiled.ok) compiled.validate({});
 */
export function compileJsonSchema(schema: Record<string, unknown>): CompiledSchema {
  const cached = byObject.get(schema);
  if (cached) return { ok: true, validate: cached };
  const dialect = schemaDialect(schema);
  // Remote $id / $schema values must not make ajv try to resolve or reject anything: strip them on a copy.
  const { $id: _id, $schema: _schema, ...local } = schema;
  const text = JSON.stringify(local);
  const key = createHash('sha256').update(dialect).update('\u0000').update(text).digest('base64');
  const known = generation.byHash.get(key);
  if (known) {
    byObject.set(schema, known);
    return { ok: true, validate: known };
  }
  if (generation.byHash.size >= schemaCacheSize || generation.bytes + text.length > schemaCacheBytes)
    generation = newGeneration();
  if (schemaNodeCount(local) > maxSchemaNodes)
    return {
      ok: false,
      error: `schema has more than ${maxSchemaNodes} nodes (objects and arrays outside enum, const, default and examples), the limit of one schema`,
    };
  const duplicate = dialect === 'draft-07' ? findDuplicateItems(local) : undefined;
  if (duplicate) return { ok: false, error: `schema is invalid: ${duplicate}` };
  const cycle = sameValueRefCycle(local);
  if (cycle) return { ok: false, error: `schema is invalid: ${cycle}` };
  try {
    const current = generation;
    current.engines[dialect] ??= newEngine[dialect]();
    compilations++;
    const validate = current.engines[dialect].compile(local);
    current.byHash.set(key, validate);
    current.bytes += text.length;
    byObject.set(schema, validate);
    return { ok: true, validate };
  } catch (error) {
    // ajv resolves `$ref` chains recursively: a chain that only names itself never reaches a schema.
    if (error instanceof RangeError)
      return { ok: false, error: 'its $ref chain loops without reaching a schema (or it nests too deep)' };
    return { ok: false, error: (error as Error).message };
  }
}

/**
 * Validates a value against a JSON Schema in its dialect and returns readable errors (empty when valid).
 *
 * @example
 * validateAgainstSchema({ type: 'integer' }, '7') // ['must be integer']
 * validateAgainstSchema({ type: 'string', format: 'email' }, 'x') // ['must match format "email"']
 */
export function validateAgainstSchema(schema: Record<string, unknown>, value: unknown): string[] {
  // Most tool schemas are plain enough to check without compiling (variants make many distinct ones, each
  // used a few times); anything the quick check is unsure of, errors included, goes to ajv.
  if (quickCheckSchema(schema, value)) return [];
  const compiled = compileJsonSchema(schema);
  if (!compiled.ok) return [`invalid schema: ${compiled.error}`];
  if (compiled.validate(value)) return [];
  return (compiled.validate.errors ?? []).map((error) => {
    const where = error.instancePath ? `${error.instancePath} ` : '';
    const extra =
      error.keyword === 'additionalProperties'
        ? ` ("${(error.params as { additionalProperty: string }).additionalProperty}")`
        : error.keyword === 'unevaluatedProperties'
          ? ` ("${(error.params as { unevaluatedProperty: string }).unevaluatedProperty}")`
          : error.keyword === 'enum'
            ? ` (${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)})`
            : '';
    return `${where}${error.message ?? 'is invalid'}${extra}`.trim();
  });
}
