// Compiled validators for tool parameters and JSON-shape checks, cached by schema object and by schema hash
// in a bounded cache that really releases memory: each cache generation has its own ajv instance.
import { createHash } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';

// Variants are fresh copies of a harness, so the same schema arrives as many objects: cache by identity
// first, then by content hash. Compiling is by far the most expensive step of validation. ajv keeps every
// schema it compiled (its own cache never shrinks), so when the content cache is full the whole generation
// — the ajv instance and the validators it compiled — is dropped together and a fresh one starts.
const byObject = new WeakMap<object, ValidateFunction>();
let generation = newGeneration();
/** Distinct schemas one generation holds before it is replaced. */
export const schemaCacheSize = 2_048;

function newGeneration() {
  return {
    ajv: new Ajv({ allErrors: true, strict: false, validateFormats: false }),
    byHash: new Map<string, ValidateFunction>(),
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
 * Compiles a JSON Schema once; returns the error message when it is not a valid schema.
 *
 * @example
 * const compiled = compileJsonSchema({ type: 'object' }); if (compiled.ok) compiled.validate({});
 */
export function compileJsonSchema(schema: Record<string, unknown>): CompiledSchema {
  const cached = byObject.get(schema);
  if (cached) return { ok: true, validate: cached };
  // Remote $id / $schema values must not make ajv try to resolve or reject anything: strip them on a copy.
  const { $id: _id, $schema: _schema, ...local } = schema;
  const key = createHash('sha256').update(JSON.stringify(local)).digest('base64');
  const known = generation.byHash.get(key);
  if (known) {
    byObject.set(schema, known);
    return { ok: true, validate: known };
  }
  if (generation.byHash.size >= schemaCacheSize) generation = newGeneration();
  try {
    const validate = generation.ajv.compile(local);
    generation.byHash.set(key, validate);
    byObject.set(schema, validate);
    return { ok: true, validate };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/**
 * Validates a value against a JSON Schema and returns readable errors (empty when valid).
 *
 * @example
 * validateAgainstSchema({ type: 'integer' }, '7') // ['must be integer']
 */
export function validateAgainstSchema(schema: Record<string, unknown>, value: unknown): string[] {
  const compiled = compileJsonSchema(schema);
  if (!compiled.ok) return [`invalid schema: ${compiled.error}`];
  if (compiled.validate(value)) return [];
  return (compiled.validate.errors ?? []).map((error) => {
    const where = error.instancePath ? `${error.instancePath} ` : '';
    const extra =
      error.keyword === 'additionalProperties'
        ? ` ("${(error.params as { additionalProperty: string }).additionalProperty}")`
        : error.keyword === 'enum'
          ? ` (${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)})`
          : '';
    return `${where}${error.message ?? 'is invalid'}${extra}`.trim();
  });
}
