// Importing the JSON Schema validator compiles nothing: every process that validates imports it, and compiling
// ajv's draft-07 metaschema at import (to read its text) cost a third of a second of start-up. Counted with
// ajv's own `getSchema` (the call that compiles a schema it holds), on a fresh import of the module.
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';

const getSchema = Ajv.prototype.getSchema;

afterEach(() => {
  Ajv.prototype.getSchema = getSchema;
});

describe('importing the JSON Schema validator', () => {
  it('compiles no schema', async () => {
    let compiled = 0;
    Ajv.prototype.getSchema = function counted(this: Ajv, keyRef: string) {
      compiled++;
      return getSchema.call(this, keyRef);
    } as Ajv['getSchema'];
    vi.resetModules();
    const validator = await import('../../src/harness/json-schema-validator.js');
    expect(compiled).toBe(0);
    // The engine still checks schemas against draft-07 (minus the pairwise uniqueItems): a bad type is refused.
    expect(validator.compileJsonSchema({ type: 'no-such-type' }).ok).toBe(false);
    expect(validator.validateAgainstSchema({ type: 'object', required: ['a'] }, {})).toEqual([
      "must have required property 'a'",
    ]);
  });
});
