// "Certify after moving the trajectory": the one check an operator runs on a candidate variant before it
// returns it, so that a change which would flip a hook decision or break the inverse is dropped early.
import { certifiedChecks } from '../augment/certificate.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { type RunContext, runContextOf } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { forwardFacts } from '../trajectory/facts.js';
import { identityRelabel, type Relabel } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';

/**
 * What `certifies` checks: the base and variant harnesses, the relabel between them, the trajectory, and the
 * run.
 */
export interface CertifiesInput {
  /** The harness the trajectory was recorded under. */
  base: Harness;
  /** The candidate variant. */
  variant: Harness;
  /** Carries the trajectory to the variant (default: the identity). */
  relabel?: Relabel;
  /** The example; without one there is nothing to check and the answer is yes. */
  trajectory: Trajectory | undefined;
  /**
   * The run (`context.run` of an operator): its hook checks, and the facts its other checks share — the move
   * derived here is the one the row's certificate reads.
   */
  run?: RunContext | undefined;
  /** The custom hook checks, when no `run` is given: the answer is the same, only nothing is shared. */
  hookChecks?: HookCheckRegistry | undefined;
}

/**
 * Whether the trajectory, moved to the variant with the relabel, is certified: it validates under the
 * variant, every hook decides as before, and the inverse restores it byte for byte. One error rule: a
 * relabel that cannot move the trajectory (it reports issues) or that the library refuses (a
 * `HarnessAugmentError`, e.g. a map that is not invertible) means "no"; any other error is a bug and is
 * thrown.
 *
 * @example
 * if (!certifies({ base: harness, variant, relabel, trajectory, run }))
 *   return { skip: 'the change would flip a hook decision' };
 */
export function certifies(input: CertifiesInput): boolean {
  const { base, variant, trajectory } = input;
  if (!trajectory) return true;
  const relabel = input.relabel ?? identityRelabel;
  const run = runContextOf(input.run, input.hookChecks);
  try {
    // The move is a fact of (trajectory, relabel, variant): derived once, it is also what the row's
    // certificate reads when this variant becomes the row's (`applyPlanSteps` chains it), and the
    // certificate takes its validation from it instead of walking the moved trajectory again.
    const moved = forwardFacts(trajectory, relabel, variant, run);
    if (moved.issues.length > 0) return false;
    return certifiedChecks({
      base,
      variant,
      original: trajectory,
      rewritten: moved.trajectory,
      relabel,
      forward: moved,
      run,
    }).certified;
  } catch (error) {
    if (error instanceof HarnessAugmentError) return false;
    throw error;
  }
}
