// The CLI is the one place that wires the built-in operators, the operators of `--operators` modules and the
// policy presets together.
import type { Operator } from '../augment/operator.js';
import { type LoadedOperators, loadOperatorModules, registryOf } from '../augment/operator-modules.js';
import type { Registry } from '../augment/registry.js';
import { type ResolvedPolicy, resolvePolicy } from '../augment/resolve-policy.js';
import { HarnessAugmentError } from '../harness/issues.js';

/** Loaded on demand: commands that do not augment start faster and never touch the operators. */
async function builtinOperatorList(): Promise<readonly Operator[]> {
  return (await import('../../perturbations/index.js')).builtinOperators;
}

/**
 * The registry of the built-in operators plus loaded ones. A loaded operator whose id is a built-in's, or
 * another module's, is a usage error naming both.
 *
 * @example
 * const registry = await builtinRegistry(await loadOperatorModules(['./my-operators.mjs']));
 */
export async function builtinRegistry(loaded: readonly LoadedOperators[] = []): Promise<Registry> {
  return registryOf(await builtinOperatorList(), loaded);
}

/**
 * The registry of a command's `--operators` modules (none: the built-ins only).
 *
 * @example
 * const registry = await registryFromOptions(options.operators);
 */
export async function registryFromOptions(modules: readonly string[] | undefined): Promise<Registry> {
  return builtinRegistry(await loadOperatorModules(modules));
}

// Defined with the other shared options, light to import for a command's definition.
export { withOperatorsOption } from './command-options.js';

/**
 * The id and version of every operator loaded from modules: part of a run's identity, so that a changed
 * module version is never resumed into the same output.
 *
 * @example
 * loadedOperatorIds(await loadOperatorModules(['./ops.mjs'])) // ['tools/prefix@1']
 */
export function loadedOperatorIds(loaded: readonly LoadedOperators[]): string[] {
  return loaded.flatMap((entry) => entry.operators.map((operator) => `${operator.id}@${operator.version}`));
}

/**
 * The policy of `--policy <name|file>` / `--policy-file <file>` (default `hat`) with `--severity`, compiled
 * against the registry (default: the built-in operators; `resolvePolicy` in src/augment does the work).
 *
 * @example
 * const { plan, severity } = await policyFromOptions(options.policy, options.policyFile, options.severity);
 */
export async function policyFromOptions(
  name: string | undefined,
  file: string | undefined,
  severity?: string,
  registry?: Registry,
): Promise<ResolvedPolicy> {
  if (name && file)
    throw new HarnessAugmentError('give --policy or --policy-file, not both', { kind: 'usage' });
  return resolvePolicy(file ?? name ?? 'hat', {
    registry: registry ?? (await builtinRegistry()),
    ...(severity !== undefined ? { severity } : {}),
  });
}
