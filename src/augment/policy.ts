// Policies: how operator chains are sampled, as plain data (a YAML/JSON file or a named preset) compiled
// into a plan against a registry. Dimensions apply in a fixed order: skill content, skill ids, tools,
// hooks, prompt — so a prompt operator sees the final names.
import { z } from 'zod';
import { readDocument } from '../harness/documents.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { fromZodIssues } from '../harness/parse-harness.js';
import { type Dimension, dimensions, type Operator } from './operator.js';
import { identityPlan, kOf, oneOf, op, type Plan, pipe, sometimes } from './plan.js';
import type { Registry } from './registry.js';

/** Named severities. */
export const severityLevels = { slight: 0.25, medium: 0.5, heavy: 1 } as const;
export type SeverityLevel = keyof typeof severityLevels;

const SeveritySchema = z.union([z.enum(['slight', 'medium', 'heavy']), z.number().min(0).max(1)]);

const PolicyOperatorSchema = z.union([
  z.string().min(1),
  z.strictObject({
    op: z.string().min(1),
    weight: z.number().positive().default(1),
    params: z.record(z.string(), z.unknown()).optional(),
    severity: SeveritySchema.optional(),
  }),
]);

const PolicyDimensionSchema = z.strictObject({
  probability: z
    .number()
    .min(0)
    .max(1)
    .default(1)
    .describe('Chance the dimension is perturbed (ignored with `choose`).'),
  combine: z
    .enum(['one', 'all'])
    .default('one')
    .describe(
      '`one`: each variant draws one operator by weight (the others stand in when it does not apply); `all`: each variant applies every listed operator, in order.',
    ),
  operators: z.array(PolicyOperatorSchema).min(1),
});

/**
 * The schema of an augmentation policy file: dimensions, their operators, severity.
 *
 * @example
 * PolicySchema.safeParse(presets.hat).success // true; parsePolicy(text) adds file and line to errors
 */
export const PolicySchema = z.strictObject({
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  severity: SeveritySchema.default('medium'),
  choose: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Perturb exactly this many of the listed dimensions (k of n).'),
  dimensions: z.partialRecord(z.enum(dimensions), PolicyDimensionSchema).default({}),
});

/** A policy as written in a file or a preset, before defaults apply. */
export type PolicyInput = z.input<typeof PolicySchema>;
/** A parsed policy, defaults applied: severity, per-dimension operators and probabilities, k of n. */
export type Policy = z.output<typeof PolicySchema>;

/** The order in which dimensions apply within a variant. */
export const applicationOrder: readonly Dimension[] = [
  'skill-content',
  'skill-ids',
  'tools',
  'hooks',
  'prompt',
];

/**
 * Resolves a severity level or number to a number in [0, 1].
 *
 * @example
 * severityValue('heavy') // 1
 */
export function severityValue(severity: SeverityLevel | number): number {
  return typeof severity === 'number' ? severity : severityLevels[severity];
}

/**
 * Parses policy data; a bad policy throws a usage error listing every problem with its path.
 *
 * @example
 * parsePolicy({ dimensions: { tools: { operators: ['tools/rename'] } } })
 */
export function parsePolicy(input: unknown, source = 'policy'): Policy {
  const parsed = PolicySchema.safeParse(input);
  if (!parsed.success) {
    const issues = fromZodIssues(parsed.error.issues);
    throw new HarnessAugmentError(`${source}: invalid policy: ${issues.length} issue(s)`, {
      kind: 'usage',
      issues,
    });
  }
  if (parsed.data.choose !== undefined && parsed.data.choose > Object.keys(parsed.data.dimensions).length) {
    throw new HarnessAugmentError(
      `${source}: choose ${parsed.data.choose} is more than the ${Object.keys(parsed.data.dimensions).length} dimensions listed`,
      {
        kind: 'usage',
        issues: [{ code: 'too_big', path: ['choose'], message: 'more than the dimensions listed' }],
      },
    );
  }
  return parsed.data;
}

/** The plan of one dimension of a policy: its operators, drawn one by weight or combined. */
export interface DimensionPlan {
  dimension: Dimension;
  plan: Plan;
}

/**
 * Compiles each dimension of a policy into its own plan (one operator by weight, or all of them with
 * `combine: all`), in application order, without the dimension's probability. Unknown operator ids,
 * operators listed under another dimension and bad params are configuration errors that name the path.
 *
 * @example
 * compileDimensionPlans(presets.hat, registry).map((entry) => entry.dimension) // ['skill-content', …, 'prompt']
 */
export function compileDimensionPlans(policy: Policy, registry: Registry): DimensionPlan[] {
  const plans: DimensionPlan[] = [];
  for (const dimension of applicationOrder) {
    const entry = policy.dimensions[dimension];
    if (!entry) continue;
    const choices = entry.operators.map((item, index): readonly [number, Plan] => {
      const spec = typeof item === 'string' ? { op: item, weight: 1 } : item;
      let operator: Operator;
      try {
        operator = registry.require(spec.op);
      } catch (error) {
        throw new HarnessAugmentError(
          `policy ${policy.name ?? ''} dimensions.${dimension}.operators[${index}]: ${(error as Error).message}`,
          {
            kind: 'usage',
          },
        );
      }
      if (operator.dimension !== dimension) {
        throw new HarnessAugmentError(
          `policy ${policy.name ?? ''} dimensions.${dimension}.operators[${index}]: "${operator.id}" belongs to ${operator.dimension}`,
          { kind: 'usage' },
        );
      }
      if (spec.params !== undefined) {
        const check = operator.params.safeParse(spec.params);
        if (!check.success) {
          throw new HarnessAugmentError(
            `policy ${policy.name ?? ''} dimensions.${dimension}.operators[${index}].params: ${check.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`,
            { kind: 'usage' },
          );
        }
      }
      const severity =
        'severity' in spec && spec.severity !== undefined ? { severity: severityValue(spec.severity) } : {};
      return [spec.weight, op(operator, spec.params, severity)];
    });
    plans.push({
      dimension,
      plan: entry.combine === 'all' ? pipe(...choices.map(([, choice]) => choice)) : oneOf(choices),
    });
  }
  return plans;
}

/**
 * Compiles a policy into a plan: each dimension's plan (`compileDimensionPlans`) with its probability,
 * piped, or `choose` of them. Configuration errors name the path.
 *
 * @example
 * const plan = compilePolicy(presets.hat, registry);
 */
export function compilePolicy(policy: Policy, registry: Registry): Plan {
  const plans = compileDimensionPlans(policy, registry).map(({ dimension, plan }) =>
    policy.choose === undefined
      ? sometimes((policy.dimensions[dimension] as { probability: number }).probability, plan)
      : plan,
  );
  const plan =
    plans.length === 0
      ? identityPlan
      : policy.choose === undefined
        ? pipe(...plans)
        : kOf(policy.choose, plans);
  // The policy's severity travels with its plan, so that a plan used without an explicit severity runs as
  // the policy says (and as `hsa augment --policy` runs it).
  return { operators: plan.operators, sample: plan.sample, severity: severityValue(policy.severity) };
}

/**
 * Reads a policy from a YAML or JSON file.
 *
 * @example
 * const policy = await loadPolicyFile('my-policy.yaml');
 */
export async function loadPolicyFile(file: string): Promise<Policy> {
  const { value } = await readDocument(file);
  return parsePolicy(value, file);
}
