// One place that turns a policy name or file into a compiled plan with its severity: the CLI (augment,
// sim, bench, pipeline), the pipeline, the simulator's callers and the environment service all call it, so
// `hsa augment --policy tools-only` and a library caller of `presets['tools-only']` run the same plan at
// the same severity.
import { HarnessAugmentError } from '../harness/issues.js';
import type { Plan } from './plan.js';
import {
  compilePolicy,
  loadPolicyFile,
  type Policy,
  type PolicyInput,
  parsePolicy,
  type SeverityLevel,
  severityValue,
} from './policy.js';
import { presets as builtinPresets } from './presets.js';
import type { Registry } from './registry.js';

/** A policy resolved: its compiled plan (carrying the severity), the severity, and the policy itself. */
export interface ResolvedPolicy {
  plan: Plan;
  severity: number;
  policy: Policy;
}

/** Where `resolvePolicy` finds operators and presets, and the severity that overrides the policy's own. */
export interface ResolvePolicyOptions {
  /** The operators the policy names. */
  registry: Registry;
  /** Overrides the policy's own severity: a level, a number in [0, 1], or its text (`"heavy"`, `"0.7"`). */
  severity?: SeverityLevel | number | string;
  /** Named policies a name may pick (default: the built-in presets). */
  presets?: Readonly<Record<string, PolicyInput>>;
}

/** Whether a policy reference names a file (YAML or JSON) rather than a preset. */
export const isPolicyFile = (reference: string): boolean => /\.(ya?ml|json)$/i.test(reference);

/**
 * A severity from a level, a number or its text; a usage error when it is none of them or outside [0, 1].
 *
 * @example
 * parseSeverity('heavy') // 1
 * parseSeverity('0.3')   // 0.3
 */
export function parseSeverity(severity: SeverityLevel | number | string): number {
  const value =
    typeof severity === 'number'
      ? severity
      : /^(slight|medium|heavy)$/.test(severity)
        ? severityValue(severity as SeverityLevel)
        : severity.trim() === ''
          ? Number.NaN
          : Number(severity);
  if (!(value >= 0 && value <= 1))
    throw new HarnessAugmentError(
      `severity must be slight, medium, heavy or a number within [0, 1], got ${JSON.stringify(severity)}`,
      { kind: 'usage' },
    );
  return value;
}

/**
 * The policy a preset name or a policy file (`.yaml`, `.yml`, `.json`) names, parsed and compiled.
 *
 * @example
 * const { plan, severity } = await resolvePolicy('tools-only', { registry });
 * for await (const row of augment(harness, trajectories, { plan, variants: 8, seed: 42 })) …
 */
export async function resolvePolicy(
  reference: string,
  options: ResolvePolicyOptions,
): Promise<ResolvedPolicy> {
  let policy: Policy;
  if (isPolicyFile(reference)) policy = await loadPolicyFile(reference);
  else {
    const named = options.presets ?? builtinPresets;
    if (!Object.hasOwn(named, reference))
      throw new HarnessAugmentError(
        `unknown policy "${reference}"; presets: ${Object.keys(named).join(', ')}, or a policy file (.yaml, .json)`,
        { kind: 'usage' },
      );
    policy = parsePolicy(named[reference], `preset ${reference}`);
  }
  const severity =
    options.severity === undefined ? severityValue(policy.severity) : parseSeverity(options.severity);
  const compiled = compilePolicy(policy, options.registry);
  return { plan: { operators: compiled.operators, sample: compiled.sample, severity }, severity, policy };
}
