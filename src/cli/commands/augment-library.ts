// The library code `hsa augment` runs, imported by its action: the command's definition (and so `hsa augment
// --help`) loads none of it.
import type { Harness } from '../../harness/schema.js';
import { readJsonl } from '../../trajectory/read-jsonl.js';
import type { Trajectory } from '../../trajectory/schema.js';
import { type ValidateTrajectoryOptions, validateTrajectory } from '../../trajectory/validate-trajectory.js';

export { planApplicability } from '../../augment/applicability.js';
export { augment, variantPoolFor } from '../../augment/augment.js';
export { createAugmentRun } from '../../augment/augment-run.js';
export { dimensions } from '../../augment/operator.js';
export { loadOperatorModules } from '../../augment/operator-modules.js';
export { createSidecarWriter, readSidecarHashes, sidecarPathOf } from '../../augment/variant-sidecar.js';
export { fileHash } from '../../harness/file-hash.js';
export { contentHash, hashHarness } from '../../harness/hash.js';
export { loadHookChecks } from '../../harness/hook-check-module.js';
export { jsonLine } from '../../harness/json-lines.js';
export { loadHarnessFile } from '../../harness/parse-harness.js';
export { openCheckpointedLines } from '../../pipeline/checkpoint.js';
export { readJsonl } from '../../trajectory/read-jsonl.js';
export { builtinRegistry, loadedOperatorIds, policyFromOptions } from '../operators-registry.js';

/** How many of the first valid trajectories the up-front applicability check tries operators on. */
const probeTrajectories = 8;

/** The first valid trajectories of a file, for the applicability check; invalid lines are left to `augment`. */
export async function firstTrajectories(
  file: string,
  harness: Harness,
  options: ValidateTrajectoryOptions,
): Promise<Trajectory[]> {
  const found: Trajectory[] = [];
  for await (const record of readJsonl(file)) {
    if (!('value' in record)) continue;
    const validation = validateTrajectory(record.value, harness, options);
    if (validation.valid && validation.trajectory) found.push(validation.trajectory);
    if (found.length >= probeTrajectories) break;
  }
  return found;
}
