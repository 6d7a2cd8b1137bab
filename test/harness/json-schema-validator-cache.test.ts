// The compiled-validator cache: one compilation per distinct schema content, bounded, and validators from a
// dropped generation keep working for the harnesses that still hold them.
import { describe, expect, it } from 'vitest';
import {
  compiledSchemaCount,
  compileJsonSchema,
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

  it('reports an invalid schema instead of throwing', () => {
    const compiled = compileJsonSchema({ type: 'no-such-type' });
    expect(compiled.ok).toBe(false);
  });
});
