// One ajv instance for tool parameters and JSON-shape checks; compiled validators are cached per schema object.
import { Ajv, type ValidateFunction } from 'ajv';

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
// Variants are fresh copies of a harness, so the same schema arrives as many objects: cache by identity
// first, then by content. Compiling is by far the most expensive step of validation.
const byObject = new WeakMap<object, ValidateFunction>();
const byContent = new Map<string, ValidateFunction>();
const contentCacheSize = 4_096;

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
  const key = JSON.stringify(local);
  const known = byContent.get(key);
  if (known) {
    byObject.set(schema, known);
    return { ok: true, validate: known };
  }
  try {
    const validate = ajv.compile(local);
    if (byContent.size >= contentCacheSize) byContent.clear();
    byContent.set(key, validate);
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
