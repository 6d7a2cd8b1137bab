// Hostile but valid JSON Schemas: a huge enum costs linear time (draft-07's metaschema `uniqueItems` is
// checked by our own pass, not pairwise by ajv), and a `$ref` chain that loops is named as such.
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, findDuplicateItems } from '../../src/harness/json-schema-validator.js';

const values = (count: number) => Array.from({ length: count }, (_, index) => `value-${index}`);

describe('enum and required lists', () => {
  it('a 200,000-value enum compiles, and validates values against it', () => {
    const schema = { type: 'object', properties: { colour: { type: 'string', enum: values(200_000) } } };
    const compiled = compileJsonSchema(schema);
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.validate({ colour: 'value-199999' })).toBe(true);
    expect(compiled.validate({ colour: 'value-200000' })).toBe(false);
  });

  it('a repeated value is still refused, as the draft-07 metaschema says', () => {
    const repeated = [...values(200_000), 'value-7'];
    expect(compileJsonSchema({ type: 'object', properties: { colour: { enum: repeated } } })).toEqual({
      ok: false,
      error: 'schema is invalid: enum has the value "value-7" twice',
    });
    expect(compileJsonSchema({ type: 'object', required: ['a', 'b', 'a'] })).toEqual({
      ok: false,
      error: 'schema is invalid: required has the value "a" twice',
    });
    // Equal as ajv compares them: key order does not matter.
    expect(
      findDuplicateItems({
        enum: [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      }),
    ).toBe('enum has the value {"a":1,"b":2} twice');
    // Data keywords are data: a default that holds an "enum" key is not a schema.
    expect(findDuplicateItems({ default: { enum: [1, 1] } })).toBeUndefined();
    // The rest of the metaschema still holds.
    expect(compileJsonSchema({ type: 'object', properties: { colour: { enum: [] } } }).ok).toBe(false);
    expect(compileJsonSchema({ type: 'object', properties: { colour: { type: 'strin' } } }).ok).toBe(false);
  });
});

describe('$ref loops', () => {
  it('a chain of references that never reaches a schema is an invalid schema with a reason', () => {
    const compiled = compileJsonSchema({
      type: 'object',
      properties: { a: { $ref: '#/definitions/a' } },
      definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } },
    });
    expect(compiled).toEqual({
      ok: false,
      error: 'its $ref chain loops without reaching a schema (or it nests too deep)',
    });
  });

  it('a recursive schema that does reach a schema stays valid', () => {
    const compiled = compileJsonSchema({
      type: 'object',
      properties: { name: { type: 'string' }, child: { $ref: '#' } },
    });
    expect(compiled.ok).toBe(true);
    if (compiled.ok) expect(compiled.validate({ name: 'a', child: { name: 'b', child: {} } })).toBe(true);
  });
});
