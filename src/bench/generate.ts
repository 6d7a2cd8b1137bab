// generateBench(): benchmark items × harness variants → certified bench rows. Variant 0 is the base harness
// itself (the reference for the original-vs-variant gap); variants 1..N come from `augmentExample` with the
// same seeds as `hsa augment`, and the item's expectations are moved into each variant's vocabulary by the
// variant's relabel, so tool renames, parameter renames, nesting and loader or skill renames all apply.
// With `pool`, the variants are drawn from a seeded pool of shared harnesses of the bench's own (not the
// training pool's), as `hsa augment` draws its variants: far fewer harnesses to build and certify.
import {
  type AugmentRow,
  augmentExample,
  type ExampleResult,
  type Provenance,
  variantPoolFor,
} from '../augment/augment.js';
import { augmentRunOf } from '../augment/augment-run.js';
import { certify } from '../augment/certificate.js';
import type { Dimension } from '../augment/operator.js';
import type { Plan } from '../augment/plan.js';
import type { DimensionPlan } from '../augment/policy.js';
import { runnablePlan } from '../augment/runnable-plan.js';
import type { VariantPool } from '../augment/variant-pool.js';
import { contentHash, hashHarness } from '../harness/hash.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { Issue } from '../harness/issues.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { toChatCompletionTools } from '../harness/offered-tools.js';
import { renderSystemPrompt } from '../harness/render-prompt.js';
import { asRunContext, hookCheckOptions, type RunContext } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { forwardTrajectory, identityRelabel, type Relabel } from '../trajectory/relabel.js';
import type { Message, Trajectory } from '../trajectory/schema.js';
import type { BenchItemRecord } from './items.js';
import type { BenchItem, BenchRow, Expectations } from './schema.js';
import { mapExpectations } from './score.js';

/** What is held out of training: rows whose operators touch this dimension or operator are `test`. */
export interface Holdout {
  dimension?: Dimension;
  /** An operator id, e.g. `tools/rename`. */
  operator?: string;
}

/** An item or a variant that could not become a row, with its reason. */
export interface BenchReject {
  reason: 'invalid_item' | 'duplicate_id' | 'harness_mismatch' | 'uncertified' | 'expectations_not_moved';
  itemId?: string;
  variantIndex?: number;
  line?: number;
  issues: Issue[];
}

/** How `generateBench` makes its rows: the plan, variants per item, attribution to dimensions, the seed. */
export interface GenerateBenchOptions {
  /** Its operators that change what the environment enforces are left out (`runnablePlan`). */
  plan: Plan;
  /**
   * `one-dimension`: variant v perturbs only dimension `dimensionPlans[(v - 1) % n]`, so each variant row
   * changes one dimension and per-dimension gaps are attributable; `mixed` (default): every variant uses
   * `plan`, which may change several dimensions at once.
   */
  attribution?: 'mixed' | 'one-dimension';
  /** The per-dimension plans `one-dimension` cycles through (`compileDimensionPlans`). */
  dimensionPlans?: readonly DimensionPlan[];
  /** Perturbed variants per item; each item also gets variant 0, the base harness. */
  variants: number;
  seed: string | number;
  /** Severity used where the plan does not set one (default 0.5, as in `augment`). */
  severity?: number;
  holdout?: Holdout;
  onReject?: (reject: BenchReject) => void;
  /** Called once per item read (valid or not), for progress and counts. */
  onItem?: (position: number) => void;
  /**
   * The run the bench belongs to (`createRunContext`, a CLI command's or the pipeline's): its hook checks,
   * and the facts of its gold trajectories. Default: one of its own, with `hookChecks`.
   */
  run?: RunContext | undefined;
  /** The custom hook checks the harness names (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
  /**
   * Draw the perturbed variants from a variant pool of `size` shared harnesses (per plan; see
   * `createVariantPool`) instead of building each for its item alone. Its entries are seeded
   * `seed/bench-pool/j`, so they are not the training pool's variants of the same seed; rows that draw
   * the same entry share one variant id, which makes per-variant gaps comparable across items. Default
   * `{ size: 0 }`: every variant built for its item, as before.
   */
  pool?: { size: number; attempts?: number };
}

/** The label of the bench's variant pools in their entries' seeds (`VariantPoolOptions.label`). */
export const benchPoolLabel = 'bench-pool';

/** A benchmark item, or a record of an items file (`readBenchItems`). */
export type BenchInput = BenchItem | BenchItemRecord;

function isRecord(input: BenchInput): input is BenchItemRecord {
  return 'line' in input && ('item' in input || 'issues' in input);
}

/**
 * An item of an items stream, or why it is rejected: a line that did not parse, an id seen before (`seen`
 * is updated), or an item for another harness (its id, or its hash when it names one).
 *
 * @example
 * const admitted = admitItem(record, seen, harness, hashHarness(harness).harness);
 * if ('reject' in admitted) onReject(admitted.reject);
 */
export function admitItem(
  input: BenchInput,
  seen: Set<string>,
  base: Harness,
  baseHash: string,
): { item: BenchItem; line?: number } | { reject: BenchReject } {
  const at = isRecord(input) ? { line: input.line } : {};
  if (isRecord(input) && 'issues' in input)
    return { reject: { reason: 'invalid_item', ...at, issues: input.issues } };
  const item = isRecord(input) ? (input as { item: BenchItem }).item : input;
  const itemId = { itemId: item.id };
  if (seen.has(item.id))
    return {
      reject: {
        reason: 'duplicate_id',
        ...itemId,
        ...at,
        issues: [{ code: 'duplicate_id', path: ['id'], message: `item id "${item.id}" appears twice` }],
      },
    };
  seen.add(item.id);
  if (item.harness.id !== base.id || (item.harness.hash !== undefined && item.harness.hash !== baseHash))
    return {
      reject: {
        reason: 'harness_mismatch',
        ...itemId,
        ...at,
        issues: [
          {
            code: 'harness_mismatch',
            path: ['harness'],
            message: `the item is for harness ${item.harness.id}${item.harness.hash ? ` (${item.harness.hash})` : ''}, not ${base.id} (${baseHash})`,
          },
        ],
      },
    };
  return { item, ...at };
}

/**
 * Moves expectations into a variant's vocabulary through the variant's relabel (`mapExpectations`, the
 * same mapping scoring uses backwards). Facts and forbidden terms are the reply's, which no surface operator
 * changes.
 *
 * @example
 * const moved = relabelExpectations(item.expect, base, row.relabel);
 */
export function relabelExpectations(expect: Expectations, base: Harness, relabel: Relabel): Expectations {
  if (relabel.steps.length === 0) return structuredClone(expect);
  const moved = mapExpectations(expect, relabel, 'forward', base);
  return {
    ...moved,
    // Merged skills load as one.
    skills: [...new Set(moved.skills)],
    // No required value stays no required value (nesting would otherwise demand an empty object).
    toolCalls: moved.toolCalls.map((call, index) =>
      Object.keys(expect.toolCalls[index]?.arguments ?? {}).length === 0 ? { ...call, arguments: {} } : call,
    ),
  };
}

/** Issues when moved expectations name a tool, skill or argument the variant does not have. */
export function checkExpectations(expect: Expectations, harness: Harness): Issue[] {
  const issues: Issue[] = [];
  const skills = new Set(harness.skills.items.map((skill) => skill.id));
  for (const [index, skill] of expect.skills.entries()) {
    if (!skills.has(skill))
      issues.push({
        code: 'unknown_skill',
        path: ['expect', 'skills', index],
        message: `no skill "${skill}"`,
      });
  }
  const checkKeys = (value: Record<string, unknown>, schema: unknown, path: Array<string | number>) => {
    const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    for (const [key, child] of Object.entries(value)) {
      if (!Object.hasOwn(properties, key)) {
        issues.push({ code: 'unknown_argument', path: [...path, key], message: `no parameter "${key}"` });
        continue;
      }
      if (child !== null && typeof child === 'object' && !Array.isArray(child))
        checkKeys(child as Record<string, unknown>, properties[key], [...path, key]);
    }
  };
  for (const [index, call] of expect.toolCalls.entries()) {
    const tool = harness.tools.items.find((candidate) => candidate.name === call.name);
    const path = ['expect', 'toolCalls', index];
    if (!tool) issues.push({ code: 'unknown_tool', path, message: `no tool "${call.name}"` });
    else checkKeys(call.arguments, tool.parameters, [...path, 'arguments']);
  }
  return issues;
}

function splitOf(
  variantIndex: number,
  provenance: Provenance,
  holdout: Holdout | undefined,
): 'train' | 'test' {
  if (!holdout || (holdout.dimension === undefined && holdout.operator === undefined)) return 'test';
  if (variantIndex === 0) return 'test';
  const held = provenance.ops.some(
    (record) =>
      (holdout.dimension !== undefined && record.dimension === holdout.dimension) ||
      (holdout.operator !== undefined && record.name === holdout.operator),
  );
  return held ? 'test' : 'train';
}

/**
 * The item's input under a variant. User messages alone are the same under every harness; an input that
 * carries earlier turns of the conversation (an item derived from a later turn of a log) takes them from the
 * gold rewritten into the variant's vocabulary, up to and including its last user turn, so that the tool
 * calls and results of the earlier turns name the variant's tools.
 *
 * @example
 * const messages = inputUnder(item, augmented.trajectory);
 */
export function inputUnder(item: BenchItem, rewritten: Trajectory): Message[] {
  if (item.input.every((message) => message.role === 'user')) return item.input;
  const last = rewritten.messages.findLastIndex((message) => message.role === 'user' && !message.hsa);
  return rewritten.messages.slice(0, last + 1).filter((message) => message.role !== 'system');
}

/**
 * The bench row of an item under a certified harness (an augmented row of its gold): the system prompt
 * rendered from that harness, the item's input in its vocabulary, the tools it offers, the expectations
 * already moved there.
 *
 * @example
 * const row = benchRowOf(item, augmented, relabelExpectations(item.expect, base, augmented.relabel), 'test');
 */
export function benchRowOf(
  item: BenchItem,
  row: Pick<AugmentRow, 'variantIndex' | 'variantId' | 'harness' | 'trajectory' | 'relabel'> & {
    provenance: object;
    certificate: object;
  },
  expect: Expectations,
  split: 'train' | 'test',
  id = `${item.id}/${row.variantIndex}`,
): BenchRow {
  return {
    id,
    itemId: item.id,
    variantIndex: row.variantIndex,
    variantId: row.variantId,
    split,
    harness: row.harness,
    input: {
      messages: [
        { role: 'system', content: renderSystemPrompt(row.harness, item.context) },
        ...inputUnder(item, row.trajectory),
      ],
      tools: toChatCompletionTools(row.harness),
    },
    expect,
    relabel: { steps: row.relabel.steps.map((step) => ({ ...step })) },
    provenance: { ...row.provenance },
    certificate: { ...row.certificate },
  };
}

/**
 * Variant 0: the base harness, the gold unchanged, certified like any variant (the row every item gets first).
 *
 * @example
 * const result = baseVariant(harness, item, '0');
 * if ('row' in result) rows.push(benchRowOf(item, result.row, item.expect, 'test'));
 */
export function baseVariant(
  base: Harness,
  item: BenchItem,
  seed: string,
  scope?: RunContext | HookCheckRegistry,
): { row: AugmentRow } | { issues: Issue[] } {
  const original = item.gold;
  // The run whose facts the certificate shares (the bench's), or one of its own for these hook checks.
  const run = asRunContext(scope);
  const checks = hookCheckOptions(run);
  // The move's own issues and hook decisions are the rewritten gold's validation under the base (its
  // derived content is the base's by construction), so the certificate reads them instead of walking it
  // again; with issues, it validates from scratch and gives those reasons, as before. Moved directly, not
  // through the trajectory facts (`forwardFacts`): those are keyed by the content hash, which sorts keys,
  // so a fact of the gold under the base would also answer a variant that differs from it in property
  // order alone and changed the variants' rows (docs/decisions/0011-certificate-facts-computed-once.md).
  const forward = forwardTrajectory(original, identityRelabel, base, checks);
  const rewritten = forward.trajectory;
  const certificate = certify({
    base,
    variant: base,
    original,
    rewritten,
    relabel: identityRelabel,
    ...(forward.issues.length === 0 ? { forward } : {}),
    run,
  });
  if (!certificate.certified) return { issues: certificate.issues };
  const baseHash = hashHarness(base).harness;
  return {
    row: {
      id: `${original.id}/0`,
      exampleId: original.id,
      variantIndex: 0,
      // The same harness for every item: one id.
      variantId: `v_${contentHash({ base: baseHash, ops: [] }).slice(7, 27)}`,
      harness: base,
      trajectory: rewritten,
      relabel: { steps: [] },
      provenance: {
        seed,
        variantSeed: `${seed}/${original.id}/0`,
        baseHash,
        ops: [],
        skipped: [],
        planned: [],
        changed: [],
      },
      certificate,
    },
  };
}

/**
 * Generates the bench rows of items: for each item, variant 0 (the base harness) and `variants` perturbed
 * variants, in order, each certified, with the expectations in the variant's vocabulary. Bad items and
 * uncertified variants go to `onReject`; nothing is silently dropped. Deterministic for a seed.
 *
 * @example
 * for await (const row of generateBench(harness, readBenchItems('items.jsonl'), { plan, variants: 5, seed: 42 }))
 *   out.write(`${JSON.stringify(row)}\n`);
 * // In a run of your own (its hook checks, its memory budget):
 * const run = createRunContext({ hookChecks, memoryBytes: 32 << 20 });
 * for await (const row of generateBench(harness, items, { plan, variants: 5, seed: 42, run })) write(row);
 */
export async function* generateBench(
  base: Harness,
  items: Iterable<BenchInput> | AsyncIterable<BenchInput>,
  options: GenerateBenchOptions,
): AsyncGenerator<BenchRow> {
  const reject = options.onReject ?? (() => {});
  const seed = String(options.seed);
  const dimensionPlans = options.dimensionPlans ?? [];
  if (options.attribution === 'one-dimension' && dimensionPlans.length === 0)
    throw new HarnessAugmentError(
      "attribution one-dimension needs the policy's dimension plans (dimensionPlans)",
      {
        kind: 'usage',
      },
    );
  // A bench variant runs the model under test: it enforces what the base enforces (`runnablePlan`).
  const planOf = (variantIndex: number): Plan =>
    runnablePlan(
      options.attribution === 'one-dimension'
        ? (dimensionPlans[(variantIndex - 1) % dimensionPlans.length] as DimensionPlan).plan
        : options.plan,
    ).plan;
  const baseHash = hashHarness(base).harness;
  // One pool per plan (`one-dimension` draws each dimension's variants from its own), made on first use.
  const pools = new Map<Plan, VariantPool | undefined>();
  // One run for the bench: the facts of its gold trajectories are shared by every plan's variants.
  const run = augmentRunOf(base, options);
  const perturbed = (gold: BenchItem['gold'], variantIndex: number): Promise<ExampleResult> => {
    const plan = planOf(variantIndex);
    const augmentOptions = {
      plan,
      seed,
      run,
      ...(options.severity === undefined ? {} : { severity: options.severity }),
    };
    if (!pools.has(plan))
      pools.set(
        plan,
        variantPoolFor(base, {
          ...augmentOptions,
          pool: { size: 0, ...options.pool, label: benchPoolLabel },
        }),
      );
    const pool = pools.get(plan);
    return pool ? pool.augment(gold, variantIndex) : augmentExample(base, gold, variantIndex, augmentOptions);
  };
  const seen = new Set<string>();
  let position = -1;
  for await (const input of items as AsyncIterable<BenchInput>) {
    position++;
    options.onItem?.(position);
    const admitted = admitItem(input, seen, base, baseHash);
    if ('reject' in admitted) {
      reject(admitted.reject);
      continue;
    }
    const { item } = admitted;
    const itemId = { itemId: item.id };
    const at = admitted.line === undefined ? {} : { line: admitted.line };
    for (let variantIndex = 0; variantIndex <= options.variants; variantIndex++) {
      const result =
        variantIndex === 0 ? baseVariant(base, item, seed, run) : await perturbed(item.gold, variantIndex);
      if (!('row' in result)) {
        const issues = 'issues' in result ? result.issues : result.reject.issues;
        reject({ reason: 'uncertified', ...itemId, variantIndex, ...at, issues });
        continue;
      }
      const { row } = result;
      const expect = relabelExpectations(item.expect, base, row.relabel);
      const problems = checkExpectations(expect, row.harness);
      if (problems.length > 0) {
        reject({ reason: 'expectations_not_moved', ...itemId, variantIndex, ...at, issues: problems });
        continue;
      }
      yield benchRowOf(item, row, expect, splitOf(variantIndex, row.provenance, options.holdout));
    }
  }
}
