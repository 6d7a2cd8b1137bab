// The variant benchmark formats: items (a task and what a correct answer must do), bench rows (an item
// under one harness variant, expectations in the variant's vocabulary), predictions and scores.
import { z } from 'zod';
import { HarnessSchema } from '../harness/schema.js';
import { MessageSchema, OfferedToolSchema, TrajectorySchema } from '../trajectory/schema.js';

/** A tool call the answer must make: the tool, and argument values that must appear (by key path). */
export const ExpectedCallSchema = z.strictObject({
  name: z.string().min(1),
  arguments: z
    .record(z.string(), z.unknown())
    .default({})
    .describe(
      'Required argument values; nested values are compared as JSON, other arguments may be anything.',
    ),
});

/**
 * What a correct answer does, in one harness's vocabulary.
 *
 * @example
 * ExpectationsSchema.parse({}) // { toolCalls: [], skills: [], facts: [], forbidden: [] }
 */
export const ExpectationsSchema = z.strictObject({
  toolCalls: z.array(ExpectedCallSchema).default([]),
  skills: z.array(z.string().min(1)).default([]).describe('Skills that must be loaded.'),
  facts: z
    .array(z.string().min(1))
    .default([])
    .describe('Strings the final reply must contain, e.g. "¥259".'),
  forbidden: z
    .array(z.string().min(1))
    .default([])
    .describe('Terms the final reply must not use (case-insensitive).'),
});

/**
 * A benchmark item: a request under the base harness with its expectations. `gold` is a trajectory that
 * meets them, so that each variant of the item can be certified like any augmented example.
 *
 * @example
 * const item = BenchItemSchema.parse(JSON.parse(line)); // readBenchItems(file) reads a whole file
 */
export const BenchItemSchema = z.strictObject({
  id: z.string().min(1),
  harness: z.strictObject({ id: z.string().min(1), hash: z.string().optional() }),
  context: z.record(z.string(), z.unknown()).default({}),
  /** The user's messages (the system prompt is rendered from each variant). */
  input: z.array(MessageSchema).min(1),
  expect: ExpectationsSchema,
  gold: TrajectorySchema,
  meta: z.record(z.string(), z.unknown()).optional(),
});

/**
 * An item under one harness: variant 0 is the base harness itself.
 *
 * @example
 * const row = BenchRowSchema.parse(JSON.parse(line));
 */
export const BenchRowSchema = z.strictObject({
  id: z.string().min(1),
  itemId: z.string().min(1),
  variantIndex: z.number().int().min(0),
  variantId: z.string().min(1),
  /** `train` rows may be used for training; `test` rows hold out a dimension or operator family. */
  split: z.enum(['train', 'test']),
  harness: HarnessSchema,
  /** What the model receives: the rendered system prompt and the user's messages, and the tools. */
  input: z.strictObject({ messages: z.array(MessageSchema), tools: z.array(OfferedToolSchema) }),
  /** The expectations in the variant's vocabulary. */
  expect: ExpectationsSchema,
  relabel: z.strictObject({ steps: z.array(z.record(z.string(), z.unknown())) }),
  provenance: z.record(z.string(), z.unknown()),
  certificate: z.record(z.string(), z.unknown()),
});

/**
 * A model's output for a bench row: the assistant messages it produced, in order (tool calls and reply).
 *
 * @example
 * PredictionSchema.parse({ id: row.id, output: [{ role: 'assistant', content: 'Done.' }] });
 */
export const PredictionSchema = z.strictObject({
  id: z.string().min(1).describe('The bench row id.'),
  output: z.array(MessageSchema),
});

/** A tool call the answer must make: the tool, and argument values that must appear. */
export type ExpectedCall = z.infer<typeof ExpectedCallSchema>;
/** What a correct answer does: its tool calls, the skills it loads, the facts and terms of its reply. */
export type Expectations = z.infer<typeof ExpectationsSchema>;
/** A bench item: a request under the base harness and what a correct answer does (`BenchItemSchema`). */
export type BenchItem = z.infer<typeof BenchItemSchema>;
/**
 * A bench row: an item under one harness variant (or the original), its input and its rewritten answer key.
 */
export type BenchRow = z.infer<typeof BenchRowSchema>;
/** A model's output for a bench row: the assistant messages it produced, in order. */
export type Prediction = z.infer<typeof PredictionSchema>;

/**
 * The four scored criteria and the overall pass.
 *
 * @example
 * criteria.includes('toolSelection') // true
 */
export const criteria = [
  'toolSelection',
  'argumentAccuracy',
  'skillSelection',
  'replyCompliance',
  'overall',
] as const;
/** One of the scored criteria, or the overall pass (`criteria` lists them). */
export type Criterion = (typeof criteria)[number];
