// One augmentation run: the base harness and its hash, and the run context (its hook checks and the facts
// its variants and rows derive). `augment`, `augmentExample`, a variant pool and the pipeline create one
// where a run starts and pass it to every step; the run's memory goes when the run does.
import { hashHarness } from '../harness/hash.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { HarnessAugmentError } from '../harness/issues.js';
import {
  assertRunHookChecks,
  createRunContext,
  type RunContext,
  type RunContextOptions,
} from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';

/** What one augmentation run holds. */
export interface AugmentRun extends RunContext {
  /** The harness the run's trajectories were recorded under. */
  readonly base: Harness;
  /** The base's content hash (`hashHarness(base).harness`). */
  readonly baseHash: string;
}

/**
 * Creates the run of one augmentation over `base`.
 *
 * @example
 * const run = createAugmentRun(harness, { hookChecks });
 * for await (const row of augment(harness, trajectories, { plan, variants: 8, seed: 42, run })) write(row);
 */
export function createAugmentRun(base: Harness, options: RunContextOptions = {}): AugmentRun {
  return Object.freeze({
    ...createRunContext(options),
    base,
    baseHash: hashHarness(base).harness,
  });
}

/**
 * The augmentation run of `base` in a run that was started elsewhere (a CLI command, the pipeline, a
 * caller's own `createRunContext`): the same hook checks and the same memos, so what one derives the
 * other reads.
 *
 * @example
 * const run = augmentRunIn(base, createRunContext({ hookChecks }));
 */
export function augmentRunIn(base: Harness, run: RunContext): AugmentRun {
  return Object.freeze({ ...run, base, baseHash: hashHarness(base).harness });
}

/**
 * The run given — an augmentation run must be over this base; a plain run context becomes the
 * augmentation run of `base` in it (`augmentRunIn`) — or a new one with `hookChecks`. Given both a run and
 * hook checks that are not the run's, it throws a usage error.
 *
 * @example
 * const run = augmentRunOf(base, options);
 */
export function augmentRunOf(
  base: Harness,
  options: { run?: RunContext | AugmentRun | undefined; hookChecks?: HookCheckRegistry | undefined },
): AugmentRun {
  const { run, hookChecks } = options;
  if (!run) return createAugmentRun(base, { hookChecks });
  assertRunHookChecks(run, hookChecks);
  if (!('base' in run)) return augmentRunIn(base, run);
  if (run.base !== base)
    throw new HarnessAugmentError('the run was created for another base harness (createAugmentRun)', {
      kind: 'usage',
    });
  return run;
}
