// The schema walkers: every subschema keyword is reached (json-schema-traverse plus the 2019-09/2020-12 ones
// it predates), parameter paths exist only through `properties` and `items`, and `hasPlainProperties` looks
// into every subschema.
import { describe, expect, it } from 'vitest';
import { hasPlainProperties, walkSchema, walkSubschemas } from '../../src/harness/schema-walk.js';

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    filters: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' } } },
    },
    range: { anyOf: [{ type: 'integer' }, { $ref: '#/$defs/Range' }] },
    pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'object', properties: { n: {} } }] },
  },
  additionalProperties: { type: 'object', properties: { extra: { type: 'boolean' } } },
  patternProperties: { '^x-': { type: 'string' } },
  dependentSchemas: { query: { properties: { lang: { type: 'string' } } } },
  unevaluatedProperties: { not: { type: 'null' } },
  if: { properties: { query: { const: 'all' } } },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a schema that is never awaited.
  then: { required: ['filters'] },
  else: { oneOf: [{ required: ['query'] }, { allOf: [{ minProperties: 1 }] }] },
  $defs: { Range: { type: 'object', properties: { from: { type: 'integer' }, to: { type: 'integer' } } } },
  definitions: { Old: { contentSchema: { type: 'object' } } },
};

describe('walkSubschemas', () => {
  it('reaches every subschema keyword, with its pointer', () => {
    const pointers: string[] = [];
    walkSubschemas(schema, (_node, place) => pointers.push(place.pointer.join('/')));
    expect(pointers).toEqual(
      expect.arrayContaining([
        '',
        'properties/filters/items/properties/field',
        'properties/range/anyOf/1',
        'properties/pair/prefixItems/1/properties/n',
        'additionalProperties/properties/extra',
        'patternProperties/^x-',
        'dependentSchemas/query/properties/lang',
        'unevaluatedProperties/not',
        'if/properties/query',
        'then',
        'else/oneOf/1/allOf/0',
        '$defs/Range/properties/to',
        'definitions/Old/contentSchema',
      ]),
    );
    expect(new Set(pointers).size).toBe(pointers.length);
    expect(pointers).toHaveLength(31);
  });

  it('gives parameter paths only through properties and object-valued items', () => {
    const paths: string[] = [];
    walkSchema(schema, (_node, path) => paths.push(path.join('.')));
    expect(paths).toEqual(['', 'query', 'filters', 'filters.[]', 'filters.[].field', 'range', 'pair']);
  });
});

describe('hasPlainProperties', () => {
  it('sees name-sensitive keywords in every subschema, not only along properties and items', () => {
    const plain = { type: 'object', properties: { a: { type: 'string' } } };
    expect(hasPlainProperties(plain)).toBe(true);
    // A pointer that spells a property name, where the old walk never looked.
    expect(hasPlainProperties({ ...plain, additionalProperties: { $ref: '#/properties/a' } })).toBe(false);
    expect(hasPlainProperties({ ...plain, $defs: { X: { anyOf: [{ required: ['a'] }] } } })).toBe(false);
    expect(
      hasPlainProperties({
        ...plain,
        properties: {
          a: { type: 'array', prefixItems: [{ type: 'object', dependentRequired: { b: ['c'] } }] },
        },
      }),
    ).toBe(false);
    expect(
      hasPlainProperties({ ...plain, additionalProperties: { type: 'object', properties: { b: {} } } }),
    ).toBe(true);
  });
});
