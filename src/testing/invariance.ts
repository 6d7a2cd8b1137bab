// Property-testing harness invariance: fast-check arbitraries over harness variants that shrink toward
// fewer operators and lower severity (the identity is the smallest value), and a checker that runs an
// agent under the base and under variants, maps its output back, and reports the minimal breaking change.
import fc from 'fast-check';
import { builtinOperators } from '../../perturbations/index.js';
import { diffJson, formatChanges } from '../augment/json-diff.js';
import { applyOperatorSync, type Operator, type OperatorRecord } from '../augment/operator.js';
import { compilePolicy, type PolicyInput, parsePolicy } from '../augment/policy.js';
import { presets } from '../augment/presets.js';
import { createRandom } from '../augment/random.js';
import { createRegistry, type Registry } from '../augment/registry.js';
import { validateAgainstSchema } from '../harness/json-schema-validator.js';
import { offeredTools, toChatCompletionTools } from '../harness/offered-tools.js';
import { renderSystemPrompt } from '../harness/render-prompt.js';
import type { Harness } from '../harness/schema.js';
import { composeRelabels, forwardTrajectory, invertOutput, type Relabel } from '../trajectory/relabel.js';
import type { Message, Trajectory } from '../trajectory/schema.js';

/** One step of a variant recipe: which operator, how strong, which seed. All shrink toward zero. */
export interface VariantStep {
  operator: number;
  /** 1..4, severity = level / 4. */
  level: number;
  seed: number;
}

/** A generated variant: the harness, the relabel back to the base, and the operators that made it. */
export interface HarnessVariant {
  harness: Harness;
  relabel: Relabel;
  ops: OperatorRecord[];
  /** The recipe the variant was built from (replayable). */
  steps: VariantStep[];
}

/**
 * Which variants `arbVariant` and `arbTrajectoryVariant` draw: the policy whose exact operators they use, and
 * how many per variant.
 */
export interface VariantOptions {
  /** A preset name or a policy: only its operators are drawn (default: `hat`). */
  policy?: string | PolicyInput;
  /** The operators the policy names are looked up in (default: the built-in operators). */
  registry?: Registry;
  /** Most operators in one variant (default 3). */
  maxOperators?: number;
}

function policyOperators(options: VariantOptions): Operator[] {
  const registry = options.registry ?? createRegistry(builtinOperators);
  const policy =
    typeof options.policy === 'string' || options.policy === undefined
      ? presets[options.policy ?? 'hat']
      : options.policy;
  if (!policy) throw new Error(`unknown policy preset "${String(options.policy)}"`);
  // Only exact operators: a property runs synchronously and cannot call a model.
  return compilePolicy(parsePolicy(policy), registry).operators.filter(
    (operator) => operator.mode === 'exact',
  );
}

/**
 * Builds a variant from a recipe; operators that do not apply to this harness are passed over.
 *
 * @example
 * const variant = buildVariant(harness, toolOperators, [{ operator: 0, level: 2, seed: 7 }]);
 */
export function buildVariant(
  base: Harness,
  operators: readonly Operator[],
  steps: readonly VariantStep[],
  trajectory?: Trajectory,
): HarnessVariant {
  let harness = base;
  const relabels: Relabel[] = [];
  const ops: OperatorRecord[] = [];
  let current = trajectory;
  for (const step of steps) {
    const operator = operators[step.operator % operators.length] as Operator;
    const applied = applyOperatorSync(operator, harness, {
      // The generator depends on the step alone, so shrinking away an earlier step leaves this one as it was.
      rng: createRandom(`invariance/${step.seed}`),
      severity: step.level / 4,
      ...(current ? { trajectory: current } : {}),
    });
    if ('skip' in applied) continue;
    harness = applied.harness;
    relabels.push(applied.relabel);
    ops.push(applied.record);
    if (trajectory) current = forwardTrajectory(trajectory, composeRelabels(...relabels), harness).trajectory;
  }
  return { harness, relabel: composeRelabels(...relabels), ops, steps: [...steps] };
}

const describeVariant = (variant: HarnessVariant) =>
  variant.ops.length === 0
    ? 'identity'
    : variant.ops.map((record) => `${record.name}(severity ${record.severity})`).join(' → ');

function recipeArbitrary(operatorCount: number, maxOperators: number) {
  return fc.array(
    fc.record({
      operator: fc.nat({ max: Math.max(0, operatorCount - 1) }),
      level: fc.integer({ min: 1, max: 4 }),
      seed: fc.nat({ max: 1_000_000 }),
    }),
    { maxLength: maxOperators },
  );
}

/**
 * An arbitrary of harness variants. It shrinks toward fewer operators, lower severity and smaller seeds;
 * the identity (no operator) is its smallest value.
 *
 * @example
 * fc.assert(fc.property(arbVariant(harness), (variant) => { … }));
 */
export function arbVariant(base: Harness, options: VariantOptions = {}): fc.Arbitrary<HarnessVariant> {
  const operators = policyOperators(options);
  return recipeArbitrary(operators.length, options.maxOperators ?? 3).map((steps) => {
    const variant = buildVariant(base, operators, steps);
    return Object.assign(
      Object.create({ [fc.toStringMethod]: () => describeVariant(variant) }),
      variant,
    ) as HarnessVariant;
  });
}

/**
 * An arbitrary of variants together with the trajectory rewritten into each variant's vocabulary, so that
 * operators that read the example (distractors it never calls, hook budgets it never reaches) take part.
 *
 * @example
 * fc.assert(fc.property(arbTrajectoryVariant(harness, trajectory), ({ harness, trajectory }) => { … }));
 */
export function arbTrajectoryVariant(
  base: Harness,
  trajectory: Trajectory,
  options: VariantOptions = {},
): fc.Arbitrary<HarnessVariant & { trajectory: Trajectory }> {
  const operators = policyOperators(options);
  return recipeArbitrary(operators.length, options.maxOperators ?? 3).map((steps) => {
    const variant = buildVariant(base, operators, steps, trajectory);
    const rewritten = forwardTrajectory(trajectory, variant.relabel, variant.harness).trajectory;
    const value = { ...variant, trajectory: rewritten };
    return Object.assign(Object.create({ [fc.toStringMethod]: () => describeVariant(variant) }), value);
  });
}

/** What an agent receives: the rendered system prompt and the user's messages, the tools, the context. */
export interface AgentInput {
  messages: Message[];
  tools: ReturnType<typeof toChatCompletionTools>;
  context: Record<string, unknown>;
}

/** Any agent: a harness and an input in, the assistant messages it produced out. */
export type Agent = (
  harness: Harness,
  input: AgentInput,
) => Promise<Message[] | Message> | Message[] | Message;

/** A request to run the agent on: the user's messages and the request context. */
export interface InvarianceCase {
  id: string;
  input: Message[];
  context?: Record<string, unknown>;
  /** A gold trajectory, so that operators that read the example can take part. */
  trajectory?: Trajectory;
}

/** Compares the output under the base with the variant's output mapped back; returns a reason when they differ. */
export type Comparator = (base: Message[], mapped: Message[], variant: HarnessVariant) => string | undefined;

/**
 * Tool calls as `name(arguments)` with parsed arguments, the part of an output that must not change.
 *
 * @example
 * toolCallsOf(output) // [{ name: 'find_book', arguments: { title: 'Dune' } }]
 */
export function toolCallsOf(messages: readonly Message[]): Array<{ name: string; arguments: unknown }> {
  return messages.flatMap((message) =>
    message.role === 'assistant'
      ? (message.tool_calls ?? []).map((call) => {
          let parsed: unknown = call.function.arguments;
          try {
            parsed = JSON.parse(call.function.arguments);
          } catch {
            // Unparsable arguments are compared as text.
          }
          return { name: call.function.name, arguments: parsed };
        })
      : [],
  );
}

/**
 * The default comparator: the same tool calls (names and parsed arguments), skill loads included.
 *
 * @example
 * await checkHarnessInvariance(agent, harness, cases, { comparator: sameToolCalls }); // the default
 */
export const sameToolCalls: Comparator = (base, mapped) => {
  const before = toolCallsOf(base);
  const after = toolCallsOf(mapped);
  const changes = diffJson(before, after);
  return changes.length === 0 ? undefined : formatChanges(changes).join('\n');
};

/** Calls that would fail under the variant itself: unknown tools, or arguments its schemas reject. */
function invalidUnderVariant(output: readonly Message[], variant: Harness): string | undefined {
  const tools = new Map(offeredTools(variant).map((tool) => [tool.name, tool]));
  for (const call of toolCallsOf(output)) {
    const tool = tools.get(call.name);
    if (!tool) return `calls "${call.name}", which the variant does not offer`;
    const errors = validateAgainstSchema(tool.parameters, call.arguments);
    if (errors.length > 0)
      return `calls "${call.name}" with arguments the variant rejects: ${errors.join('; ')}`;
  }
  return undefined;
}

/**
 * Options of `checkHarnessInvariance` and `harnessInvarianceProperty`: the variants to draw, the comparator,
 * fast-check's runs and replay.
 */
export interface InvarianceOptions extends VariantOptions {
  /** Says why the base output and the variant's, mapped back, differ (default `sameToolCalls`). */
  comparator?: Comparator;
  /** fast-check runs (default 100). */
  numRuns?: number;
  /** Replay: the seed and path printed with a counterexample. */
  seed?: number;
  path?: string;
}

/** The smallest perturbation fast-check found that changes the agent's behaviour, and how to replay it. */
export interface InvarianceCounterexample {
  caseId: string;
  ops: OperatorRecord[];
  steps: VariantStep[];
  reason: string;
  seed: number;
  path: string;
}

/**
 * Thrown by `checkHarnessInvariance`; `counterexample` holds the minimal failing perturbation.
 *
 * @example
 * try {
 *   await checkHarnessInvariance(agent, harness, cases);
 * } catch (error) {
 *   if (error instanceof InvarianceError) console.log(error.counterexample.ops);
 * }
 */
export class InvarianceError extends Error {
  constructor(readonly counterexample: InvarianceCounterexample) {
    const { caseId, ops, reason, seed, path } = counterexample;
    const chain =
      ops.length === 0
        ? 'no operator (the base harness itself)'
        : ops
            .map(
              (record) => `${record.name} ${JSON.stringify({ severity: record.severity, ...record.params })}`,
            )
            .join(' → ');
    super(
      `the agent's behaviour depends on the harness surface\n  case: ${caseId}\n  minimal perturbation: ${chain}\n  ${reason.split('\n').join('\n  ')}\n  replay: { seed: ${seed}, path: "${path}" }`,
    );
    this.name = 'InvarianceError';
  }
}

const asArray = (output: Message[] | Message) => (Array.isArray(output) ? output : [output]);

function inputFor(harness: Harness, testCase: InvarianceCase): AgentInput {
  const context = testCase.context ?? testCase.trajectory?.context ?? {};
  return {
    messages: [{ role: 'system', content: renderSystemPrompt(harness, context) }, ...testCase.input],
    tools: toChatCompletionTools(harness),
    context,
  };
}

/**
 * The invariance property, to run with `fc.assert` yourself: for every case and variant, the agent's
 * output under the variant, valid under the variant and mapped back with the inverse relabel, equals its
 * output under the base harness.
 *
 * @example
 * await fc.assert(harnessInvarianceProperty(agent, harness, cases), { numRuns: 200 });
 */
export function harnessInvarianceProperty(
  agent: Agent,
  base: Harness,
  cases: readonly InvarianceCase[],
  options: InvarianceOptions = {},
) {
  const operators = policyOperators(options);
  const comparator = options.comparator ?? sameToolCalls;
  const baselines = new Map<string, Promise<Message[]>>();
  const baseline = (testCase: InvarianceCase) => {
    let cached = baselines.get(testCase.id);
    if (!cached) {
      cached = Promise.resolve(agent(base, inputFor(base, testCase))).then(asArray);
      baselines.set(testCase.id, cached);
    }
    return cached;
  };
  return fc.asyncProperty(
    fc.nat({ max: Math.max(0, cases.length - 1) }),
    recipeArbitrary(operators.length, options.maxOperators ?? 3),
    async (caseIndex, steps) => {
      const testCase = cases[caseIndex] as InvarianceCase;
      const variant = buildVariant(base, operators, steps, testCase.trajectory);
      const output = asArray(await agent(variant.harness, inputFor(variant.harness, testCase)));
      const invalid = invalidUnderVariant(output, variant.harness);
      if (invalid)
        throw new InvarianceFailure(testCase.id, variant, `under the variant the agent ${invalid}`);
      const mapped = invertOutput(output, variant.relabel);
      const reason = comparator(await baseline(testCase), mapped, variant);
      if (reason)
        throw new InvarianceFailure(
          testCase.id,
          variant,
          `mapped back, its tool calls differ from the base run:\n${reason}`,
        );
    },
  );
}

class InvarianceFailure extends Error {
  constructor(
    readonly caseId: string,
    readonly variant: HarnessVariant,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * Checks that an agent behaves the same under harness variants. On failure it throws an InvarianceError
 * with the minimal perturbation (fast-check shrinks toward fewer operators and lower severity), a readable
 * diff, and the seed and path that replay it (`{ seed, path }` in the options).
 *
 * @example
 * await checkHarnessInvariance(myAgent, harness, cases, { numRuns: 200 });
 */
export async function checkHarnessInvariance(
  agent: Agent,
  base: Harness,
  cases: readonly InvarianceCase[],
  options: InvarianceOptions = {},
): Promise<{ runs: number }> {
  if (cases.length === 0) throw new Error('checkHarnessInvariance: no cases');
  const details = await fc.check(harnessInvarianceProperty(agent, base, cases, options), {
    numRuns: options.numRuns ?? 100,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.path === undefined ? {} : { path: options.path }),
  });
  if (!details.failed) return { runs: details.numRuns };
  const failure = details.errorInstance;
  if (!(failure instanceof InvarianceFailure))
    throw failure instanceof Error ? failure : new Error(String(failure));
  throw new InvarianceError({
    caseId: failure.caseId,
    ops: failure.variant.ops,
    steps: failure.variant.steps,
    reason: failure.reason,
    seed: details.seed,
    path: details.counterexamplePath ?? '',
  });
}
