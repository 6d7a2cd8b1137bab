// Hostile but valid JSON Schemas: a huge enum costs linear time (draft-07's metaschema `uniqueItems` is
// checked by our own pass, not pairwise by ajv), and a `$ref` chain that loops is named as such.

import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  compileJsonSchema,
  findDuplicateItems,
  maxSchemaNodes,
  schemaCompilations,
  schemaNodeCount,
  validateAgainstSchema,
} from '../../src/harness/json-schema-validator.js';

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
      error:
        'schema is invalid: at /definitions/a: $ref "#/definitions/b" leads back to a schema it came from without descending into the value: validating any value would never end',
    });
  });

  it('a root that refers to itself ($ref "#") is invalid before any value is validated (issue 44)', () => {
    const compiled = compileJsonSchema({ type: 'object', properties: { a: { type: 'string' } }, $ref: '#' });
    expect(compiled.ok).toBe(false);
    expect(validateAgainstSchema({ type: 'object', $ref: '#' }, { a: 1 })).toEqual([
      'invalid schema: schema is invalid: at /: $ref "#" leads back to a schema it came from without descending into the value: validating any value would never end',
    ]);
    // Through allOf / anyOf / not as well.
    expect(compileJsonSchema({ type: 'object', allOf: [{ anyOf: [{ not: { $ref: '#' } }] }] }).ok).toBe(
      false,
    );
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

describe('2019-09 and 2020-12: enum and required', () => {
  const dialects = {
    '2019-09': 'https://json-schema.org/draft/2019-09/schema',
    '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  };
  for (const [dialect, $schema] of Object.entries(dialects)) {
    it(`${dialect}: a 200,000-value enum and a 200,000-name required list compile; a repeated required name is refused`, () => {
      const schema = {
        $schema,
        type: 'object',
        properties: { colour: { enum: values(200_000).map((value) => ({ value })) } },
        required: values(200_000),
      };
      const compiled = compileJsonSchema(schema);
      expect(compiled.ok).toBe(true);
      if (compiled.ok) {
        const all = Object.fromEntries(values(200_000).map((name) => [name, 1]));
        expect(compiled.validate(all)).toBe(true);
        delete all['value-199999'];
        expect(compiled.validate(all)).toBe(false);
      }
      const repeated = compileJsonSchema({ $schema, type: 'object', required: ['a', 'b', 'a'] });
      expect(repeated.ok).toBe(false);
      if (!repeated.ok) expect(repeated.error).toMatch(/duplicate items/);
    });
  }

  it("their metaschemas ask uniqueItems only where ajv checks it in one pass (scalar items) or of `type`'s seven names", () => {
    // ajv checks `uniqueItems` pairwise unless the items have a scalar type; the 2019-09 and 2020-12
    // metaschemas are used as ajv ships them, so none of their unbounded lists may take the pairwise path.
    const engines = [new Ajv2019(), new Ajv2020()];
    const pairwise: string[] = [];
    const visit = (node: unknown, path: string) => {
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      if (record.uniqueItems === true) {
        const items = record.items as { type?: unknown; $ref?: unknown } | undefined;
        const scalar = typeof items?.type === 'string' && !['object', 'array'].includes(items.type);
        const typeNames = items?.$ref === '#/$defs/simpleTypes';
        if (!scalar && !typeNames) pairwise.push(path);
      }
      for (const [key, child] of Object.entries(record)) visit(child, `${path}/${key}`);
    };
    for (const engine of engines)
      for (const [id, entry] of Object.entries(engine.schemas))
        if (id.includes('json-schema.org')) visit(entry?.schema, id);
    expect(pairwise).toEqual([]);
  });
});

describe('schema size', () => {
  const properties = (count: number, tag: string) => ({
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: count }, (_, index) => [`${tag}${index}`, { type: 'string' }]),
    ),
  });

  it(`a schema over ${maxSchemaNodes} nodes is refused before ajv compiles it`, () => {
    const before = schemaCompilations();
    const compiled = compileJsonSchema(properties(maxSchemaNodes, 'over'));
    expect(compiled).toEqual({
      ok: false,
      error: `schema has more than ${maxSchemaNodes} nodes (objects and arrays outside enum, const, default and examples), the limit of one schema`,
    });
    expect(schemaCompilations()).toBe(before);
    // Counting stops at the limit, and data keywords are data.
    expect(schemaNodeCount(properties(100_000, 'count'))).toBe(maxSchemaNodes + 1);
    expect(schemaNodeCount({ enum: values(100_000).map((value) => ({ value })) })).toBe(1);
  });

  it('a schema at the limit compiles once; the same content again compiles nothing', () => {
    // Empty subschemas: as many nodes as the limit allows, little code for ajv to write.
    const atLimit = () => ({
      type: 'object',
      properties: { a: { anyOf: Array.from({ length: maxSchemaNodes - 4 }, () => ({})) } },
    });
    expect(schemaNodeCount(atLimit())).toBe(maxSchemaNodes);
    const before = schemaCompilations();
    expect(compileJsonSchema(atLimit()).ok).toBe(true);
    expect(schemaCompilations()).toBe(before + 1);
    expect(compileJsonSchema(atLimit()).ok).toBe(true);
    expect(schemaCompilations()).toBe(before + 1);
  });
});
