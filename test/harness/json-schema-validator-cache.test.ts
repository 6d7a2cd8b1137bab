// The compiled-validator cache: one compilation per distinct schema content, bounded, and validators from a
// dropped generation keep working for the harnesses that still hold them.
import { describe, expect, it } from 'vitest';
import {
  compiledSchemaCount,
  compileJsonSchema,
  schemaCacheBytes,
  schemaCacheSize,
  validateAgainstSchema,
} from '../../src/harness/json-schema-validator.js';

const schemaOf = (index: number) => ({
  type: 'object',
  properties: { [`field_${index}`]: { type: 'integer', minimum: index } },
  required: [`field_${index}`],
});

describe('compileJsonSchema', () => {
  it('compiles the same content once, whatever the object', () => {
    const first = compileJsonSchema(schemaOf(-1));
    const second = compileJsonSchema(structuredClone(schemaOf(-1)));
    expect(first.ok && second.ok && first.validate === second.validate).toBe(true);
  });

  it('holds at most schemaCacheSize schemas and starts a new generation when full', () => {
    const early = compileJsonSchema(schemaOf(0));
    for (let index = 1; index <= schemaCacheSize + 50; index++) {
      compileJsonSchema(schemaOf(index));
      expect(compiledSchemaCount()).toBeLessThanOrEqual(schemaCacheSize);
    }
    // The old generation's validator still answers correctly for its holder.
    expect(early.ok && early.validate({ field_0: 3 })).toBe(true);
    expect(early.ok && early.validate({ field_0: 'x' })).toBe(false);
    // A schema from the dropped generation is compiled afresh in the new one, and validates the same.
    expect(validateAgainstSchema(structuredClone(schemaOf(0)), { field_0: -1 })).toEqual([
      '/field_0 must be >= 0',
    ]);
  });

  it('holds at most schemaCacheBytes of schema text: a few large schemas start a new generation', () => {
    // Schemas whose text is about a third of the budget each (a long enum): at most three fit at once.
    const large = (index: number) => ({
      type: 'string',
      enum: Array.from({ length: Math.ceil(schemaCacheBytes / 3 / 12) }, (_, item) => `v${index}_${item}`),
    });
    const size = JSON.stringify(large(0)).length;
    expect(size).toBeGreaterThan(schemaCacheBytes / 4);
    for (let index = 0; index < 6; index++) expect(compileJsonSchema(large(index)).ok).toBe(true);
    // Six were compiled; the current generation started at one of them and holds no more than fit.
    expect(compiledSchemaCount()).toBeLessThanOrEqual(Math.floor(schemaCacheBytes / size));
    const last = compileJsonSchema(large(5));
    expect(last.ok && last.validate('v5_7') && !last.validate('v4_7')).toBe(true);
  });

  it('reports an invalid schema instead of throwing', () => {
    const compiled = compileJsonSchema({ type: 'no-such-type' });
    expect(compiled.ok).toBe(false);
  });
});
