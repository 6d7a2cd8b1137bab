// The worker-thread side of `hsa augment --workers N`: loads the harness, policy and hook checks once per
// thread, then augments one example (all its variant indexes) per task, exactly as the main thread would.
import { builtinOperators } from '../../../perturbations/index.js';
import {
  type AugmentOptions,
  augmentExample,
  type ExampleResult,
  variantPoolFor,
} from '../../augment/augment.js';
import { resolvePolicy } from '../../augment/resolve-policy.js';
import type { VariantPool } from '../../augment/variant-pool.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { loadHarnessFile } from '../../harness/parse-harness.js';
import type { Harness } from '../../harness/schema.js';
import type { Trajectory } from '../../trajectory/schema.js';
import { loadHookChecks } from '../hook-checks-loader.js';
import { loadOperatorModules } from '../operators-loader.js';
import { registryOf } from '../operators-registry.js';

/** What every task of one run shares: the CLI options that decide a row. */
export interface AugmentWorkerSetup {
  harnessFile: string;
  policy?: string;
  policyFile?: string;
  severity?: string;
  hookChecks?: string;
  /** `--operators` modules (absolute paths): every thread loads them, as the main thread does. */
  operators?: string[];
  seed: string;
  variants: number;
  /** Entries of the variant pool (0: every variant built for its example). */
  variantPool: number;
}

export interface AugmentWorkerTask {
  setup: AugmentWorkerSetup;
  trajectory: Trajectory;
}

interface Loaded {
  harness: Harness;
  options: Pick<AugmentOptions, 'plan' | 'seed' | 'severity' | 'hookChecks'>;
  /** This thread's copy of the run's pool: entries are built from their seeds, so every copy agrees. */
  pool: VariantPool | undefined;
}

let loadedKey: string | undefined;
let loaded: Promise<Loaded> | undefined;

async function load(setup: AugmentWorkerSetup): Promise<Loaded> {
  const hookChecks = await loadHookChecks(setup.hookChecks);
  const harness = await loadHarnessFile(setup.harnessFile, hookChecks ? { hookChecks } : {});
  // As policyFromOptions does; the operators are imported statically (a dynamic import of a .js path does
  // not resolve to its .ts source inside a worker thread under tsx).
  if (setup.policy && setup.policyFile)
    throw new HarnessAugmentError('give --policy or --policy-file, not both', { kind: 'usage' });
  const { plan, severity } = await resolvePolicy(setup.policyFile ?? setup.policy ?? 'hat', {
    registry: registryOf(builtinOperators, await loadOperatorModules(setup.operators)),
    ...(setup.severity !== undefined ? { severity: setup.severity } : {}),
  });
  const options = { plan, seed: setup.seed, severity, ...(hookChecks ? { hookChecks } : {}) };
  return {
    harness,
    options,
    pool: variantPoolFor(harness, { ...options, pool: { size: setup.variantPool } }),
  };
}

/**
 * Augments one example in a worker thread: the results of variant indexes 0 … variants - 1, in order.
 *
 * @example
 * await pool.run({ setup, trajectory }) // [{ row }, { reject }, …]
 */
export default async function augmentInWorker(task: AugmentWorkerTask): Promise<ExampleResult[]> {
  const key = JSON.stringify(task.setup);
  if (key !== loadedKey || !loaded) {
    loadedKey = key;
    loaded = load(task.setup);
  }
  const { harness, options, pool } = await loaded;
  const results: ExampleResult[] = [];
  for (let variantIndex = 0; variantIndex < task.setup.variants; variantIndex++)
    results.push(
      await (pool
        ? pool.augment(task.trajectory, variantIndex)
        : augmentExample(harness, task.trajectory, variantIndex, options)),
    );
  return results;
}
