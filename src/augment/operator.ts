// The operator contract: a pure, seeded function harness → { harness', relabel, record }, declared as data
// plus `apply`. Operators import only the public core, the same surface a third-party author gets.
import type { z } from 'zod';
import { sameHarnessContent } from '../harness/hash.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { fromZodIssues } from '../harness/parse-harness.js';
import { type RunContext, runContextOf } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { identityRelabel, type Relabel } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';
import { createRandom, type Random } from './random.js';

/**
 * The five dimensions of harness variation.
 *
 * @example
 * dimensions.includes('tools') // true
 */
export const dimensions = ['skill-ids', 'skill-content', 'tools', 'prompt', 'hooks'] as const;
/** One of the five dimensions of a harness an operator perturbs (`dimensions` lists them). */
export type Dimension = (typeof dimensions)[number];

/**
 * How an operator preserves the task: `exact` carries the gold trajectory over through its relabel;
 * `regenerate` needs a model (a paraphraser, a teacher) and a judge.
 */
export type PreservationMode = 'exact' | 'regenerate';

/**
 * What a variant does to the rules the environment enforces (which hooks run, in which order, with which
 * checks, thresholds and retry budgets). `kept`: any episode meets the same hook decisions under the variant
 * as under the base, names relabeled. `fitted`: only the given trajectory's decisions are kept; another
 * episode may pass where the base rejects it (a guard switched off, a threshold relaxed) or run out of a
 * budget the base would have left it. A `fitted` variant makes rows from that trajectory (SFT), never runs
 * episodes (the simulator, the environment server, RL, the bench): see `runnablePlan`.
 *
 * @example
 * const enforcement: Enforcement = 'fitted'; // hooks/disable-untriggered
 */
export type Enforcement = 'kept' | 'fitted';

/** A text rewrite requested by a `regenerate` operator, e.g. a paraphrase that keeps protected spans. */
export interface RegenerateRequest {
  operator: string;
  instruction: string;
  text: string;
  /** Spans that must appear verbatim in the answer. */
  protectedSpans: string[];
}

/** The injected model call of `regenerate` operators. */
export type RegenerateFunction = (request: RegenerateRequest) => Promise<string>;

/** What an operator sees besides the harness. */
export interface OperatorContext<Params> {
  /** The operator's own seeded generator. */
  rng: Random;
  /** 0 changes nothing; 1 is the strongest setting. */
  severity: number;
  params: Params;
  /** The example being augmented, in the vocabulary of the harness given to `apply`. */
  trajectory?: Trajectory;
  /** For `regenerate` operators. */
  regenerate?: RegenerateFunction;
  /**
   * The custom hook checks the harness names: pass them to `renameSymbols`, `buildSymbolTable`,
   * `safeParseHarness`, `validateTrajectory` and `certify` so that their mentions follow and they run
   * (the same as `run.hookChecks`).
   */
  hookChecks?: HookCheckRegistry | undefined;
  /**
   * The run the operator is applied in: pass it to `certifies` and `validationFacts`, so that the facts they
   * derive are the ones the plan and the row's certificate read.
   */
  run: RunContext;
}

/** What `apply` returns: the variant and the relabel that carries trajectories to it. */
export interface OperatorOutput {
  harness: Harness;
  relabel: Relabel;
}

/** Why an operator produced no variant (it does not apply to this harness or example). */
export interface OperatorSkip {
  skip: string;
}

/**
 * What an operator author writes: its id and version, dimension, preservation mode, zod params and a pure
 * seeded `apply`.
 */
export interface OperatorSpec<Schema extends z.ZodType> {
  /** `dimension/verb`, never renamed. */
  id: string;
  /** Bump when the seeded output changes. */
  version: number;
  dimension: Dimension;
  mode: PreservationMode;
  /** What its variants do to the rules the environment enforces (default `kept`); see `Enforcement`. */
  enforcement?: Enforcement;
  /** One line: what it changes and what it keeps. */
  description: string;
  params: Schema;
  apply(
    harness: Harness,
    context: OperatorContext<z.output<Schema>>,
  ): OperatorOutput | OperatorSkip | Promise<OperatorOutput | OperatorSkip>;
  /**
   * A variant pool builds its entries without an example, so `apply` reads no trajectory there: whether an
   * entry this operator took part in still fits an example, told from the example (a reason when it does
   * not). The pool then draws the example another entry, as it does for one that does not certify. Give it
   * when `apply` refuses something for what the example says (`tools/add-distractors`: no `get_weather`
   * where the user asks about the weather).
   */
  fitsExample?(input: { base: Harness; variant: Harness; trajectory: Trajectory }): string | undefined;
  /**
   * `apply` decides from the example (`context.trajectory`) and skips without one: a variant pool, which
   * builds its entries without an example, then leaves the step to each example instead of taking one of the
   * step's example-free fallbacks in its place (`hooks/vary-budgets` reads which budgets the example spends).
   */
  needsExample?: boolean;
}

/** A perturbation operator, as `defineOperator` makes it from an `OperatorSpec`. */
export interface Operator<Schema extends z.ZodType = z.ZodType> extends OperatorSpec<Schema> {
  readonly kind: 'operator';
}

/**
 * Declares an operator. The id must read `dimension/verb` and start with the operator's dimension. At
 * severity 0 the operator is the identity: `apply` is not called and the harness comes back unchanged (the
 * law `identity at severity zero` holds for every operator without a guard of its own).
 *
 * @example
 * export const reorderTools = defineOperator({ id: 'tools/reorder', version: 1, dimension: 'tools', mode: 'exact',
 *   description: 'Shuffles the tool registry; names and schemas stay.', params: z.object({}),
 *   apply: (harness, { rng }) => ({ harness: { ...harness, tools: { ...harness.tools, items: rng.shuffle(harness.tools.items) } }, relabel: identityRelabel }) });
 */
export function defineOperator<Schema extends z.ZodType>(spec: OperatorSpec<Schema>): Operator<Schema> {
  if (!/^[a-z-]+\/[a-z][a-z0-9-]*$/.test(spec.id) || !spec.id.startsWith(`${spec.dimension}/`)) {
    throw new HarnessAugmentError(
      `operator id "${spec.id}" must read "${spec.dimension}/verb" in kebab-case`,
      {
        kind: 'usage',
      },
    );
  }
  const apply: OperatorSpec<Schema>['apply'] = (harness, context) =>
    context.severity <= 0 ? unchanged(harness) : spec.apply(harness, context);
  return Object.freeze({ ...spec, apply, kind: 'operator' as const });
}

/** Provenance of one applied operator: enough, with the seed, to replay it exactly. */
export interface OperatorRecord {
  name: string;
  version: number;
  dimension: Dimension;
  severity: number;
  params: Record<string, unknown>;
}

/**
 * What `applyOperator` returns: the variant and its relabel, the record of the step, and whether the example
 * changed.
 */
export interface AppliedOperator extends OperatorOutput {
  record: OperatorRecord;
  /** Whether the example changed: the harness (content hash) or, through the relabel, the trajectory. */
  changed: boolean;
}

/**
 * How `applyOperator` runs one operator: its generator or seed, severity, params, the example it may read.
 */
export interface ApplyOptions {
  /** A generator, or a seed string to make one. */
  rng?: Random | string;
  severity?: number;
  params?: unknown;
  /**
   * The example, or a function that derives it: then it is called only when the operator reads
   * `context.trajectory` (at most once), so an operator that never looks at the example costs no move of it.
   */
  trajectory?: Trajectory | (() => Trajectory);
  regenerate?: RegenerateFunction;
  /** The run (default: one of its own for this call, with `hookChecks`). */
  run?: RunContext;
  /** The custom hook checks, when no `run` is given. */
  hookChecks?: HookCheckRegistry | undefined;
}

/**
 * Parses an operator's params; bad params are a configuration error naming the operator and the path.
 *
 * @example
 * parseOperatorParams(renameTools, { style: 'camel' })
 */
export function parseOperatorParams<Schema extends z.ZodType>(
  operator: Operator<Schema>,
  params: unknown,
): z.output<Schema> {
  const parsed = operator.params.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const issues = fromZodIssues(parsed.error.issues, ['params']);
  throw new HarnessAugmentError(
    `operator "${operator.id}": invalid params: ${issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    { kind: 'usage', issues },
  );
}

/**
 * Applies one operator with a seed, severity and params. Returns the variant, its relabel and the record,
 * or the reason the operator does not apply.
 *
 * @example
 * const applied = await applyOperator(renameTools, harness, { rng: 'seed-1', severity: 1 });
 */
export async function applyOperator<Schema extends z.ZodType>(
  operator: Operator<Schema>,
  harness: Harness,
  options: ApplyOptions = {},
): Promise<AppliedOperator | OperatorSkip> {
  const prepared = prepare(operator, options);
  if ('skip' in prepared) return prepared;
  return finish(harness, prepared.record, await operator.apply(harness, prepared.context));
}

/**
 * Applies an `exact` operator synchronously, for property-based tests whose generators cannot await.
 * Throws when the operator's `apply` returns a promise.
 *
 * @example
 * const applied = applyOperatorSync(reorderTools, harness, { rng: 'seed', severity: 0.5 });
 */
export function applyOperatorSync<Schema extends z.ZodType>(
  operator: Operator<Schema>,
  harness: Harness,
  options: ApplyOptions = {},
): AppliedOperator | OperatorSkip {
  const prepared = prepare(operator, options);
  if ('skip' in prepared) return prepared;
  const output = operator.apply(harness, prepared.context);
  if (output instanceof Promise) {
    throw new HarnessAugmentError(`operator "${operator.id}" is asynchronous; use applyOperator`, {
      kind: 'usage',
    });
  }
  return finish(harness, prepared.record, output);
}

function prepare<Schema extends z.ZodType>(
  operator: Operator<Schema>,
  options: ApplyOptions,
): { record: OperatorRecord; context: OperatorContext<z.output<Schema>> } | OperatorSkip {
  const severity = options.severity ?? 1;
  if (!(severity >= 0 && severity <= 1)) {
    throw new HarnessAugmentError(
      `operator "${operator.id}": severity must be within [0, 1], got ${severity}`,
      { kind: 'usage' },
    );
  }
  const params = parseOperatorParams(operator, options.params);
  const rng =
    typeof options.rng === 'string' ? createRandom(options.rng) : (options.rng ?? createRandom('0'));
  const record: OperatorRecord = {
    name: operator.id,
    version: operator.version,
    dimension: operator.dimension,
    severity,
    params: params as Record<string, unknown>,
  };
  if (operator.mode === 'regenerate' && !options.regenerate) {
    return {
      skip: `operator "${operator.id}" regenerates text and needs a regenerate function (a model); none was given`,
    };
  }
  const run = runContextOf(options.run, options.hookChecks);
  const context: OperatorContext<z.output<Schema>> = { rng, severity, params, run };
  setExample(context, options.trajectory);
  if (options.regenerate) context.regenerate = options.regenerate;
  if (run.hookChecks) context.hookChecks = run.hookChecks;
  return { record, context };
}

/**
 * Sets the context's `trajectory`: the example itself, or a getter that derives it on the first read and
 * keeps it (see `ApplyOptions.trajectory`). A spread of the context reads it, as any read does.
 */
function setExample(context: OperatorContext<unknown>, trajectory: ApplyOptions['trajectory']): void {
  if (typeof trajectory !== 'function') {
    if (trajectory) context.trajectory = trajectory;
    return;
  }
  let derived: Trajectory | undefined;
  Object.defineProperty(context, 'trajectory', {
    enumerable: true,
    configurable: true,
    get: () => {
      derived ??= trajectory();
      return derived;
    },
  });
}

function finish(
  harness: Harness,
  record: OperatorRecord,
  output: OperatorOutput | OperatorSkip,
): AppliedOperator | OperatorSkip {
  if ('skip' in output) return output;
  const changed = output.relabel.steps.length > 0 || !sameHarnessContent(output.harness, harness);
  return { ...output, record, changed };
}

/**
 * The result of an operator that changes nothing.
 *
 * @example
 * if (harness.tools.items.length === 0) return unchanged(harness); // an operator with nothing to do
 */
export const unchanged = (harness: Harness): OperatorOutput => ({ harness, relabel: identityRelabel });
