// The quick check may only say `true` where ajv (as the validator configures it) accepts both the schema and
// the value; it says so for the plain tool schemas of the fixtures, and `undefined` for every hostile case.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileJsonSchema,
  maxSchemaNodes,
  schemaCompilations,
  validateAgainstSchema,
} from '../../src/harness/json-schema-validator.js';
import { quickCheckSchema } from '../../src/harness/schema-quick-check.js';

type Schema = Record<string, unknown>;

function ajvAccepts(schema: Schema, value: unknown): boolean {
  const compiled = compileJsonSchema(schema);
  return compiled.ok && compiled.validate(value) === true;
}

/** The property every answer must have: `true` only where ajv agrees. */
function agrees(schema: Schema, value: unknown): boolean {
  const answer = quickCheckSchema(schema, value);
  expect(answer === true || answer === undefined).toBe(true);
  if (answer === true) expect(ajvAccepts(schema, value)).toBe(true);
  return answer === true;
}

describe('fixed cases', () => {
  it('says true for plain valid values, as ajv does', () => {
    const schema = {
      type: 'object',
      properties: {
        link_id: { type: 'integer', minimum: 1, description: 'Cart link number.' },
        quantity: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
        tags: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true, maxItems: 3 },
        mode: { enum: ['a', 'b', null] },
      },
      required: ['link_id'],
      additionalProperties: false,
    };
    for (const value of [
      { link_id: 4 },
      { link_id: 4.0, quantity: 10 },
      { link_id: 1, tags: ['x', 'y'], mode: null },
      JSON.parse('{"link_id": 2, "mode": "b"}'),
    ])
      expect(agrees(schema, value)).toBe(true);
  });

  it('type integer is what ajv calls integer; NaN and Infinity are left to ajv', () => {
    expect(agrees({ type: 'integer' }, 1.0)).toBe(true);
    expect(agrees({ type: 'integer' }, -0)).toBe(true);
    expect(agrees({ type: 'integer' }, 1e300)).toBe(true);
    expect(quickCheckSchema({ type: 'integer' }, 1.5)).toBeUndefined();
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(quickCheckSchema({ type: 'number' }, value)).toBeUndefined();
      expect(quickCheckSchema({ type: 'integer' }, value)).toBeUndefined();
      expect(quickCheckSchema({}, value)).toBeUndefined();
    }
    expect(agrees({ type: ['integer', 'string'] }, 3)).toBe(true);
    expect(agrees({ type: ['number', 'null'] }, null)).toBe(true);
  });

  it('arrays are not objects, null is neither, and non-JSON values are left to ajv', () => {
    expect(quickCheckSchema({ type: 'object' }, [])).toBeUndefined();
    expect(quickCheckSchema({ type: 'array' }, {})).toBeUndefined();
    expect(quickCheckSchema({ type: 'object' }, null)).toBeUndefined();
    expect(agrees({ type: 'null' }, null)).toBe(true);
    class Point {
      x = 1;
    }
    for (const value of [new Date(0), new Map(), new Point(), () => 1, undefined, 1n, Symbol('s')])
      expect(quickCheckSchema({}, value)).toBeUndefined();
    const sparse: unknown[] = ['a'];
    sparse[2] = 'b';
    expect(quickCheckSchema({ type: 'array', items: { type: 'string' } }, sparse)).toBeUndefined();
    expect(quickCheckSchema({ type: 'array', items: { type: 'string' } }, ['a', undefined])).toBeUndefined();
    expect(agrees({ type: 'object' }, Object.create(null))).toBe(true);
  });

  it('required and properties read inherited values as ajv does, so those are left to it', () => {
    // ajv sees `{}.toString` (a function), so this value is invalid there: the check must not say true.
    const schema = { type: 'object', properties: { toString: { type: 'string' } } };
    expect(ajvAccepts(schema, {})).toBe(false);
    expect(quickCheckSchema(schema, {})).toBeUndefined();
    expect(agrees(schema, { toString: 'x' })).toBe(true);
    expect(quickCheckSchema({ type: 'object', required: ['constructor'] }, {})).toBeUndefined();
    expect(quickCheckSchema({ type: 'object', required: ['a'] }, { a: undefined })).toBeUndefined();
    expect(quickCheckSchema({ type: 'object', required: ['a'] }, {})).toBeUndefined();
    expect(
      quickCheckSchema({ type: 'object', additionalProperties: false }, Object.create({ a: 1 })),
    ).toBeUndefined();
  });

  it('`__proto__` keys, in the value or in the schema, are left to ajv', () => {
    const value = JSON.parse('{"__proto__": 1}');
    const closed = { type: 'object', properties: { a: {} }, additionalProperties: false };
    expect(ajvAccepts(closed, value)).toBe(false);
    expect(quickCheckSchema(closed, value)).toBeUndefined();
    const named = JSON.parse(
      '{"type": "object", "properties": {"__proto__": {"type": "string"}}, "additionalProperties": false}',
    );
    expect(quickCheckSchema(named, value)).toBeUndefined();
    expect(quickCheckSchema(named, {})).toBeUndefined();
    expect(
      quickCheckSchema({ type: 'object', properties: { a: {} } }, { __proto__: { a: 1 } }),
    ).toBeUndefined();
  });

  it('additionalProperties false admits only the listed properties', () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } }, additionalProperties: false };
    expect(agrees(schema, { a: 1 })).toBe(true);
    expect(agrees(schema, {})).toBe(true);
    expect(quickCheckSchema(schema, { a: 1, b: 2 })).toBeUndefined();
    expect(quickCheckSchema({ additionalProperties: false }, { b: 2 })).toBeUndefined();
    expect(agrees({ additionalProperties: false }, 'not an object')).toBe(true);
    expect(quickCheckSchema({ additionalProperties: { type: 'string' } }, {})).toBeUndefined();
  });

  it('items only as one schema, in every dialect; tuples and prefixItems are left to ajv', () => {
    const later = 'https://json-schema.org/draft/2020-12/schema';
    expect(agrees({ $schema: later, type: 'array', items: { type: 'string' } }, ['a'])).toBe(true);
    expect(
      agrees({ $schema: 'http://json-schema.org/draft-07/schema#', items: { type: 'string' } }, ['a']),
    ).toBe(true);
    expect(quickCheckSchema({ items: [{ type: 'string' }] }, ['a'])).toBeUndefined();
    expect(quickCheckSchema({ $schema: later, items: [{ type: 'string' }] }, ['a'])).toBeUndefined();
    expect(quickCheckSchema({ prefixItems: [{ type: 'string' }] }, ['a'])).toBeUndefined();
    expect(quickCheckSchema({ items: true }, ['a'])).toBeUndefined();
  });

  it('$schema and $id count only at the root, where they are stripped before compiling', () => {
    expect(agrees({ $id: 'https://example.com/s', $schema: 'nonsense', type: 'string' }, 'x')).toBe(true);
    expect(quickCheckSchema({ properties: { a: { $id: 'x', type: 'string' } } }, { a: 'x' })).toBeUndefined();
    expect(quickCheckSchema({ properties: { a: { $schema: 'x' } } }, { a: 'x' })).toBeUndefined();
  });

  it('lengths count code points as ajv does', () => {
    expect(agrees({ type: 'string', maxLength: 2, minLength: 2 }, '😀😀')).toBe(true);
    expect(agrees({ type: 'string', maxLength: 1 }, '\ud800')).toBe(true);
    expect(agrees({ type: 'string', minLength: 2 }, '\ud800a')).toBe(true);
    expect(quickCheckSchema({ type: 'string', maxLength: 1 }, '😀😀')).toBeUndefined();
  });

  it('uniqueItems: distinct primitives are true, anything else is left to ajv', () => {
    expect(agrees({ uniqueItems: true }, [1, '1', true, 'true', null])).toBe(true);
    expect(quickCheckSchema({ uniqueItems: true }, ['a', 'a'])).toBeUndefined();
    expect(quickCheckSchema({ uniqueItems: true }, [0, -0])).toBeUndefined();
    expect(quickCheckSchema({ uniqueItems: true }, [{}, { a: 1 }])).toBeUndefined();
    expect(agrees({ uniqueItems: false }, ['a', 'a'])).toBe(true);
  });

  it('keywords outside the subset, and schemas ajv could refuse, are always "don\'t know"', () => {
    const outside: Schema[] = [
      { type: 'strng' },
      { type: [] },
      { type: ['string', 'string'] },
      { type: 7 },
      { required: 'a' },
      { required: ['a', 'a'] },
      { required: [1] },
      { enum: ['a', 'a'] },
      { enum: [] },
      { enum: 'a' },
      { enum: [{ a: 1 }] },
      { const: { a: 1 } },
      { description: 5 },
      { title: null },
      { examples: 'x' },
      { minimum: '1' },
      { minimum: Number.NaN },
      { exclusiveMinimum: true },
      { minLength: -1 },
      { minLength: 1.5 },
      { maxItems: '2' },
      { uniqueItems: 'yes' },
      { additionalProperties: 'no' },
      { properties: [] },
      { properties: { a: true } },
      { properties: { a: { type: 'strng' } } },
      { items: { pattern: '^a' } },
      { type: 'string', format: 'email' },
      { type: 'string', pattern: '^a' },
      { $ref: '#' },
      { anyOf: [{}] },
      { not: {} },
      { multipleOf: 2 },
      { nullable: true },
      { type: undefined },
      { definitions: {} },
    ];
    for (const schema of outside)
      for (const value of ['a', 1, {}, []]) expect(quickCheckSchema(schema, value)).toBeUndefined();
  });

  it("invalid schemas still give ajv's messages through validateAgainstSchema", () => {
    for (const schema of [
      { type: 'strng' },
      { required: 'a' },
      { required: ['a', 'a'] },
      { description: 5 },
    ]) {
      const compiled = compileJsonSchema(schema);
      expect(compiled.ok).toBe(false);
      if (compiled.ok) continue;
      expect(validateAgainstSchema(schema, {})).toEqual([`invalid schema: ${compiled.error}`]);
    }
  });

  it(`a schema over ${maxSchemaNodes} nodes is left to ajv, which refuses it`, () => {
    const properties = Object.fromEntries(
      Array.from({ length: maxSchemaNodes }, (_, index) => [`p${index}`, {}]),
    );
    const schema = { type: 'object', properties };
    expect(quickCheckSchema(schema, {})).toBeUndefined();
    expect(validateAgainstSchema(schema, {})[0]).toMatch(/^invalid schema: schema has more than 5000 nodes/);
  });

  it('a very deep schema is left to ajv', () => {
    let schema: Schema = { type: 'string' };
    let value: unknown = 'x';
    for (let depth = 0; depth < 40; depth++) {
      schema = { type: 'object', properties: { a: schema } };
      value = { a: value };
    }
    expect(quickCheckSchema(schema, value)).toBeUndefined();
    expect(validateAgainstSchema(schema, value)).toEqual([]);
  });
});

describe('in validateAgainstSchema', () => {
  it("a value the quick check accepts is answered without compiling; an invalid one still gets ajv's errors", () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    const before = schemaCompilations();
    expect(validateAgainstSchema(schema, { n: 3 })).toEqual([]);
    expect(schemaCompilations()).toBe(before);
    expect(validateAgainstSchema(schema, { n: 'x' })).toEqual(['/n must be integer']);
    expect(schemaCompilations()).toBe(before + 1);
    expect(validateAgainstSchema(schema, {})).toEqual(["must have required property 'n'"]);
  });

  it('the decision is kept per schema object: another object is decided on its own', () => {
    const plain = { type: 'string' };
    const withFormat = { type: 'string', format: 'email' };
    expect(quickCheckSchema(plain, 'x')).toBe(true);
    expect(quickCheckSchema(plain, 'x')).toBe(true);
    expect(quickCheckSchema(withFormat, 'x')).toBeUndefined();
    expect(validateAgainstSchema(withFormat, 'x')).toEqual(['must match format "email"']);
    expect(quickCheckSchema({ type: 'string', maxLength: 0 }, 'x')).toBeUndefined();
  });
});

describe("the fixtures' tool schemas", () => {
  type Row = {
    tools: { function: { name: string; parameters: Schema } }[];
    messages: { tool_calls?: { function: { name: string; arguments: string } }[] }[];
  };
  const calls = (fixture: string) =>
    readFileSync(`fixtures/${fixture}/trajectories.jsonl`, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        const row = JSON.parse(line) as Row;
        const tools = new Map(row.tools.map((tool) => [tool.function.name, tool.function.parameters]));
        return row.messages.flatMap((message) =>
          (message.tool_calls ?? []).flatMap((call) => {
            const schema = tools.get(call.function.name);
            return schema ? [{ schema, value: JSON.parse(call.function.arguments) as unknown }] : [];
          }),
        );
      });

  it('livestream (plain schemas only): true exactly where ajv accepts the arguments', () => {
    let accepted = 0;
    for (const { schema, value } of calls('livestream')) {
      const valid = ajvAccepts(schema, value);
      expect(quickCheckSchema(schema, value) === true).toBe(valid);
      if (valid) accepted++;
    }
    expect(accepted).toBeGreaterThan(500);
  });

  it('itops and helpdesk: never true where ajv refuses, and true for many calls', () => {
    for (const fixture of ['itops', 'helpdesk']) {
      let answered = 0;
      for (const { schema, value } of calls(fixture)) if (agrees(schema, value)) answered++;
      expect(answered).toBeGreaterThan(50);
    }
  });
});

// Random schemas from the subset, now and then a step outside it (a keyword it does not know, a keyword
// value of the wrong shape), and values built to satisfy them or drawn at random.
const names = fc.constantFrom('a', 'b', 'c', 'x y', 'toString', 'constructor', '__proto__', 'é');
const primitive = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, -0, 1e300, true, false, null),
);
const simpleType = fc.constantFrom('array', 'boolean', 'integer', 'null', 'number', 'object', 'string');
const outsideKeyword: fc.Arbitrary<[string, unknown]> = fc.constantFrom<[string, unknown]>(
  ['type', 'strng'],
  ['type', []],
  ['format', 'email'],
  ['pattern', '^a'],
  ['required', 'a'],
  ['required', ['a', 'a']],
  ['enum', ['a', 'a']],
  ['enum', [{ a: 1 }]],
  ['description', 5],
  ['minimum', '1'],
  ['exclusiveMinimum', true],
  ['minLength', 1.5],
  ['items', [{ type: 'string' }]],
  ['additionalProperties', { type: 'string' }],
  ['anyOf', [{ type: 'string' }]],
  ['multipleOf', 2],
  ['$ref', '#'],
  ['$id', 'x'],
  ['prefixItems', [{}]],
);

/** Some of the given entries, each present with probability 1/freq, as one schema object. */
function someOf(entries: Record<string, fc.Arbitrary<unknown>>, freq = 3): fc.Arbitrary<Schema> {
  return fc
    .tuple(
      ...Object.entries(entries).map(([key, value]) =>
        fc.option(
          value.map((v) => [key, v] as const),
          { freq },
        ),
      ),
    )
    .map((list) => Object.fromEntries(list.filter((entry) => entry !== null)));
}
const numberBounds = {
  minimum: fc.integer({ min: -3, max: 3 }),
  maximum: fc.integer({ min: -3, max: 6 }),
  exclusiveMinimum: fc.constantFrom(-10, -1.5, 0),
  exclusiveMaximum: fc.constantFrom(2, 10.5),
};
const annotations = {
  description: fc.string({ maxLength: 4 }),
  title: fc.string({ maxLength: 2 }),
  default: fc.jsonValue({ maxDepth: 1 }),
  examples: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
};
const typeOf = (type: string) => fc.constantFrom<unknown>(type, [type], [type, 'null']);

const plainSchemas = fc.letrec<{ node: Schema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    fc
      .tuple(typeOf('string'), someOf({ minLength: fc.nat(3), maxLength: fc.nat(6), ...annotations }))
      .map(([type, rest]) => ({ type, ...rest })),
    fc
      .tuple(fc.constantFrom('integer', 'number'), someOf({ ...numberBounds, ...annotations }))
      .map(([type, rest]) => ({
        type,
        ...rest,
      })),
    fc.constantFrom<Schema>({ type: 'boolean' }, { type: 'null' }, {}, { type: ['integer', 'string'] }),
    someOf({ type: fc.constant('string'), description: fc.string() }, 2).chain((rest) =>
      fc
        .uniqueArray(primitive, { minLength: 1, maxLength: 4, comparator: 'SameValueZero' })
        .map((list) => ({ ...rest, enum: list })),
    ),
    primitive.map((value) => ({ const: value })),
    fc
      .tuple(
        typeOf('array'),
        someOf(
          { items: tie('node'), minItems: fc.nat(2), maxItems: fc.nat(4), uniqueItems: fc.boolean() },
          2,
        ),
      )
      .map(([type, rest]) => ({ type, ...rest })),
    fc
      .tuple(
        fc.constantFrom<unknown>('object', ['object'], undefined),
        fc.uniqueArray(fc.tuple(names, tie('node')), { maxLength: 3, selector: ([name]) => name }),
        fc.uniqueArray(names, { maxLength: 2 }),
        someOf({ additionalProperties: fc.boolean(), ...annotations }, 2),
      )
      .map(([type, entries, extraRequired, rest]) => {
        const required = [...new Set([...entries.slice(0, 1).map(([name]) => name), ...extraRequired])];
        return {
          ...(type === undefined ? {} : { type }),
          properties: Object.fromEntries(entries),
          ...(required.length > 0 ? { required } : {}),
          ...rest,
        };
      }),
  ),
}));

/** A plain schema, now and then with one keyword outside the subset added somewhere near its root. */
const schemaArbitrary = fc
  .tuple(plainSchemas.node, fc.option(outsideKeyword, { freq: 5 }))
  .map(([schema, extra]) => {
    if (!extra) return schema;
    const properties = schema.properties as Record<string, Schema> | undefined;
    const first = properties && Object.keys(properties)[0];
    if (properties && first !== undefined)
      return {
        ...schema,
        properties: { ...properties, [first]: { ...properties[first], [extra[0]]: extra[1] } },
      };
    return { ...schema, [extra[0]]: extra[1] };
  });

/** A count keyword's value when it is a usable one (a step outside the subset may make it 1.5). */
const count = (value: unknown, otherwise: number) =>
  Number.isInteger(value) && (value as number) >= 0 ? (value as number) : otherwise;

/** A value meant to satisfy the schema (not always: contradictory bounds, enums, types). */
function satisfying(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const types =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  const type = types.length > 0 ? fc.constantFrom(...(types as string[])) : simpleType;
  const min = typeof schema.minimum === 'number' ? schema.minimum : -5;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 5;
  return type.chain((kind): fc.Arbitrary<unknown> => {
    switch (kind) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) });
      case 'number':
        return fc.double({ min, max: Math.max(min, max), noNaN: true, noDefaultInfinity: true });
      case 'string': {
        const minLength = count(schema.minLength, 0);
        const maxLength = Math.max(minLength, count(schema.maxLength, 4));
        return fc.string({ unit: 'binary', minLength, maxLength });
      }
      case 'array': {
        const item =
          depth < 4 &&
          typeof schema.items === 'object' &&
          schema.items !== null &&
          !Array.isArray(schema.items)
            ? satisfying(schema.items as Schema, depth + 1)
            : primitive;
        const minLength = count(schema.minItems, 0);
        const maxLength = Math.max(minLength, count(schema.maxItems, 3));
        // Duplicates dropped after drawing: a uniqueArray of a one-value item schema would never finish.
        const list = fc.array(item, { minLength, maxLength });
        return schema.uniqueItems === true ? list.map((items) => [...new Set(items)]) : list;
      }
      default: {
        const properties =
          typeof schema.properties === 'object' && schema.properties !== null
            ? (schema.properties as Schema)
            : {};
        const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
        const keys = [...new Set([...Object.keys(properties), ...required])];
        const entries = keys.map((key) => {
          const sub = properties[key];
          const child =
            depth < 4 && typeof sub === 'object' && sub !== null
              ? satisfying(sub as Schema, depth + 1)
              : primitive;
          return fc.option(
            child.map((value) => [key, value] as const),
            {
              freq: required.includes(key) ? 20 : 2,
              nil: undefined,
            },
          );
        });
        const extra =
          schema.additionalProperties === false
            ? fc.constant([])
            : fc.array(fc.tuple(names, primitive), { maxLength: 2 });
        return fc.tuple(fc.tuple(...entries), extra).map(([own, more]) => {
          const object: Record<string, unknown> = {};
          for (const [key, value] of more)
            Object.defineProperty(object, key, {
              value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          for (const entry of own)
            if (entry)
              Object.defineProperty(object, entry[0], {
                value: entry[1],
                enumerable: true,
                writable: true,
                configurable: true,
              });
          return object;
        });
      }
    }
  });
}

describe('random schemas and values', () => {
  it('whenever the quick check says true, ajv accepts the schema and the value; it says true often', () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        schemaArbitrary.chain((schema) =>
          fc.tuple(
            fc.constant(schema),
            fc.oneof(
              { weight: 4, arbitrary: satisfying(schema) },
              { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
              { weight: 1, arbitrary: fc.constantFrom(1.5, -0, '', [], {}, [1, 1], { a: 1 }, null) },
            ),
          ),
        ),
        ([schema, value]) => {
          runs++;
          if (agrees(schema, value)) answered++;
        },
      ),
      { numRuns: 1500, seed: 20_261_203 },
    );
    // A tenth would already exercise the `true` side well; a collapse to never-true would fail here.
    expect(answered).toBeGreaterThan(runs / 10);
  });

  it('plain satisfying pairs from the subset alone are answered true most of the time', () => {
    let answered = 0;
    let valid = 0;
    fc.assert(
      fc.property(
        plainSchemas.node.chain((schema) => fc.tuple(fc.constant(schema), satisfying(schema))),
        ([schema, value]) => {
          if (ajvAccepts(schema, value)) valid++;
          if (agrees(schema, value)) answered++;
        },
      ),
      { numRuns: 500, seed: 7 },
    );
    expect(answered).toBeGreaterThan(valid * 0.9);
  });
});
