// Training a learner from a TRL SFT export: the JSONL file a real trainer reads ({"messages": [...],
// "tools": "<JSON text>"}), never the pipeline's internal objects. Every assistant message of every row
// becomes decisions (decisions.ts); the pointer-generator is trained on them by minibatch Adam for a fixed
// number of steps, in an order drawn from the seed.
import { z } from 'zod';
import { createRandom } from '../augment/random.js';
import { HarnessAugmentError, type Issue } from '../harness/issues.js';
import { fromZodIssues } from '../harness/parse-harness.js';
import { readJsonl } from '../trajectory/read-jsonl.js';
import {
  type ArgumentKind,
  decisionsOf,
  endName,
  kindOf,
  type ReadMessage,
  type ReadTool,
  replyName,
  type Slot,
  slots,
  type TrainingDecision,
} from './decisions.js';
import { Learner } from './learner.js';
import { PointerGenerator } from './pointer-generator.js';
import { FeatureCache } from './text-features.js';

/** Training settings; the defaults are the demo's, the same for every learner it trains. */
export interface TrainLearnerOptions {
  seed: string | number;
  /** Adam steps (minibatches). */
  steps?: number;
  batchSize?: number;
  /** Embedding width. */
  dimension?: number;
  /** Adam learning rate. */
  rate?: number;
  /** A memo of features to share with other learners of the same run (it only saves time). */
  cache?: FeatureCache;
}

/** What training did: sizes, the loss before and after, and the loss along the way. */
export interface TrainingReport {
  file: string;
  rows: number;
  decisions: number;
  bySlot: Record<Slot, number>;
  vocabulary: Record<Slot, number>;
  steps: number;
  batchSize: number;
  dimension: number;
  rate: number;
  /** Mean −log P before the first step, over the decisions `lossSample` picks. */
  initialLoss: number;
  /** Mean −log P after the last step, over the same decisions. */
  finalLoss: number;
  /** Mean loss of the minibatches in each tenth of training. */
  curve: number[];
}

const TrlRowSchema = z.object({
  messages: z.array(z.looseObject({ role: z.string() })).min(1),
  tools: z.union([z.string(), z.array(z.unknown())]),
});

const ToolSchema = z.looseObject({
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

function parseTools(value: string | unknown[], line: number, file: string): ReadTool[] {
  let tools: unknown = value;
  if (typeof value === 'string') {
    try {
      tools = JSON.parse(value);
    } catch {
      throw new HarnessAugmentError(`${file}:${line}: "tools" is not JSON text`, {
        issues: [{ code: 'invalid_tools', path: ['tools'], message: 'not JSON text', file, line }],
      });
    }
  }
  const parsed = z.array(ToolSchema).safeParse(tools);
  if (!parsed.success)
    throw new HarnessAugmentError(`${file}:${line}: "tools" is not a tools array`, {
      issues: fromZodIssues(parsed.error.issues).map((issue) => ({
        ...issue,
        path: ['tools', ...issue.path],
        file,
        line,
      })),
    });
  return parsed.data as ReadTool[];
}

/**
 * The rows of a TRL export file: messages and tools; a bad line is an error naming the file and line.
 *
 * @example
 * for await (const row of readTrlRows('out/pipeline/exports/trl/train.jsonl')) console.log(row.tools.length);
 */
export async function* readTrlRows(
  file: string,
): AsyncGenerator<{ line: number; messages: ReadMessage[]; tools: ReadTool[] }> {
  for await (const record of readJsonl(file)) {
    if ('issue' in record) {
      const issue: Issue = { ...record.issue, file };
      throw new HarnessAugmentError(`${file}:${record.line}: ${issue.message}`, { issues: [issue] });
    }
    const parsed = TrlRowSchema.safeParse(record.value);
    if (!parsed.success)
      throw new HarnessAugmentError(`${file}:${record.line}: not a TRL row (messages + tools)`, {
        issues: fromZodIssues(parsed.error.issues).map((issue) => ({ ...issue, file, line: record.line })),
      });
    yield {
      line: record.line,
      messages: parsed.data.messages as unknown as ReadMessage[],
      tools: parseTools(parsed.data.tools, record.line, file),
    };
  }
}

function collectKinds(schema: unknown, kinds: Map<string, ArgumentKind>): void {
  if (typeof schema !== 'object' || schema === null) return;
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return;
  for (const [key, property] of Object.entries(properties as Record<string, unknown>)) {
    if (!kinds.has(key)) kinds.set(key, kindOf(property));
    collectKinds(property, kinds);
  }
}

/** Decisions the loss before and after training is measured on: all, or an even spread of this many. */
const lossSample = 4096;

/**
 * Every decision when there are at most `lossSample`, else an even spread of `lossSample` of them: a pass
 * over all of them costs more forward passes than the training itself on a large file.
 */
function sampleForLoss(decisions: readonly TrainingDecision[]): readonly TrainingDecision[] {
  if (decisions.length <= lossSample) return decisions;
  return Array.from(
    { length: lossSample },
    (_, index) => decisions[Math.floor((index * decisions.length) / lossSample)] as TrainingDecision,
  );
}

function meanLoss(model: PointerGenerator, decisions: readonly TrainingDecision[]): number {
  if (decisions.length === 0) return 0;
  let total = 0;
  for (const decision of decisions) total += model.loss(decision, decision.target);
  return total / decisions.length;
}

/**
 * Trains a learner on a TRL export file.
 *
 * @example
 * const { learner, report } = await trainLearner('out/demo/hsa/exports/trl/train.jsonl', { seed: 42 });
 * report.finalLoss < report.initialLoss // true
 */
export async function trainLearner(
  file: string,
  options: TrainLearnerOptions,
): Promise<{ learner: Learner; report: TrainingReport }> {
  const seed = String(options.seed);
  const steps = options.steps ?? 400;
  const batchSize = options.batchSize ?? 32;
  const dimension = options.dimension ?? 16;
  const rate = options.rate ?? 0.02;
  const decisions: TrainingDecision[] = [];
  const kinds = new Map<string, ArgumentKind>();
  let rows = 0;
  const cache = options.cache ?? new FeatureCache();
  for await (const row of readTrlRows(file)) {
    rows++;
    for (const tool of row.tools) collectKinds(tool.function.parameters, kinds);
    decisions.push(...decisionsOf(row.messages, row.tools, cache));
  }
  if (decisions.length === 0)
    throw new HarnessAugmentError(`${file}: no assistant message to learn from`, {
      kind: 'usage',
      issues: [{ code: 'no_decisions', path: [], message: 'no assistant message', file }],
    });
  // The generator's vocabulary: every name the training data wrote, in first-seen order.
  const vocabulary = Object.fromEntries(slots.map((slot) => [slot, new Set<string>()])) as Record<
    Slot,
    Set<string>
  >;
  vocabulary.action.add(replyName).add(endName);
  vocabulary.key.add(endName);
  for (const decision of decisions) vocabulary[decision.slot].add(decision.target);
  const random = createRandom(`${seed}/learner`);
  const model = new PointerGenerator(
    Object.fromEntries(slots.map((slot) => [slot, [...vocabulary[slot]]])) as Record<Slot, string[]>,
    { dimension, rate },
    random.fork('init'),
  );
  const measured = sampleForLoss(decisions);
  const initialLoss = meanLoss(model, measured);
  const curve: number[] = [];
  let order: number[] = [];
  let cursor = 0;
  let epoch = 0;
  let windowLoss = 0;
  let windowCount = 0;
  const window = Math.max(1, Math.floor(steps / 10));
  for (let step = 0; step < steps; step++) {
    let batchLoss = 0;
    for (let draw = 0; draw < batchSize; draw++) {
      if (cursor >= order.length) {
        order = random.fork(`epoch${epoch++}`).shuffle(decisions.map((_, index) => index));
        cursor = 0;
      }
      const decision = decisions[order[cursor++] as number] as TrainingDecision;
      batchLoss += model.accumulate(decision, decision.target, 1 / batchSize);
    }
    model.step();
    windowLoss += batchLoss / batchSize;
    windowCount++;
    if (windowCount === window || step === steps - 1) {
      curve.push(windowLoss / windowCount);
      windowLoss = 0;
      windowCount = 0;
    }
  }
  const bySlot = Object.fromEntries(
    slots.map((slot) => [slot, decisions.filter((decision) => decision.slot === slot).length]),
  ) as Record<Slot, number>;
  const report: TrainingReport = {
    file,
    rows,
    decisions: decisions.length,
    bySlot,
    vocabulary: Object.fromEntries(slots.map((slot) => [slot, vocabulary[slot].size])) as Record<
      Slot,
      number
    >,
    steps,
    batchSize,
    dimension,
    rate,
    initialLoss,
    finalLoss: meanLoss(model, measured),
    curve,
  };
  return { learner: new Learner(model, kinds, cache), report };
}
