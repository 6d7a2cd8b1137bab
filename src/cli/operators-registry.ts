// The CLI is the one place that wires the built-in operators and policy presets together.
import { loadPolicyFile, type Policy, parsePolicy } from '../augment/policy.js';
import { presets } from '../augment/presets.js';
import { createRegistry, type Registry } from '../augment/registry.js';
import { HarnessAugmentError } from '../harness/issues.js';

/** Loaded on demand: commands that do not augment start faster and never touch the operators. */
export async function builtinRegistry(): Promise<Registry> {
  const { builtinOperators } = await import('../../perturbations/index.js');
  return createRegistry(builtinOperators);
}

/** A preset by name, or a policy file. */
export async function resolvePolicy(name: string | undefined, file: string | undefined): Promise<Policy> {
  if (name && file)
    throw new HarnessAugmentError('give --policy or --policy-file, not both', { kind: 'usage' });
  if (file) return loadPolicyFile(file);
  const chosen = name ?? 'hat';
  const preset = presets[chosen];
  if (!preset) {
    throw new HarnessAugmentError(`unknown policy "${chosen}"; presets: ${Object.keys(presets).join(', ')}`, {
      kind: 'usage',
    });
  }
  return parsePolicy(preset, `preset ${chosen}`);
}
