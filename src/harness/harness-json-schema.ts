// The JSON Schema of the harness file format, generated from the zod schemas so the two never drift.
import { z } from 'zod';
import { HarnessSchema } from './schema.js';

/**
 * Returns the JSON Schema (draft 2020-12) of a harness file as users write it (defaults optional).
 *
 * @example
 * writeFileSync('harness.schema.json', JSON.stringify(harnessJsonSchema(), null, 2));
 */
export function harnessJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(HarnessSchema, { io: 'input', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  return {
    $schema: schema.$schema,
    $id: 'https://harness-augment.dev/schema/harness.json',
    title: 'harness-augment harness file',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
}
