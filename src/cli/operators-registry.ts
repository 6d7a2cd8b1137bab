// The CLI is the one place that wires the built-in operators and policy presets together.
import { createRegistry, type Registry } from '../augment/registry.js';
import { type ResolvedPolicy, resolvePolicy } from '../augment/resolve-policy.js';
import { HarnessAugmentError } from '../harness/issues.js';

/** Loaded on demand: commands that do not augment start faster and never touch the operators. */
export async function builtinRegistry(): Promise<Registry> {
  const { builtinOperators } = await import('../../perturbations/index.js');
  return createRegistry(builtinOperators);
}

/**
 * The policy of `--policy <name|file>` / `--policy-file <file>` (default `hat`) with `--severity`, compiled
 * against the built-in operators (`resolvePolicy` in src/augment does the work).
 *
 * @example
 * const { plan, severity } = await policyFromOptions(options.policy, options.policyFile, options.severity);
 */
export async function policyFromOptions(
  name: string | undefined,
  file: string | undefined,
  severity?: string,
): Promise<ResolvedPolicy> {
  if (name && file)
    throw new HarnessAugmentError('give --policy or --policy-file, not both', { kind: 'usage' });
  return resolvePolicy(file ?? name ?? 'hat', {
    registry: await builtinRegistry(),
    ...(severity !== undefined ? { severity } : {}),
  });
}
