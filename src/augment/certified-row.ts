// The last step of every augmentation path (an example's own variant or a pool entry): carry the example
// into the variant, certify it, and write the row. One place, so that both paths write the same bytes.

import { contentHash } from '../harness/hash.js';
import type { Issue } from '../harness/issues.js';
import type { RunContext } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { forwardFacts } from '../trajectory/facts.js';
import type { Relabel } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';
import { certify } from './certificate.js';
import type { EntryProof } from './entry-proof.js';
import { type Dimension, dimensions } from './operator.js';
import type { AugmentRow, Provenance } from './row.js';

export interface CertifiedRowInput {
  base: Harness;
  baseHash: string;
  harness: Harness;
  original: Trajectory;
  relabel: Relabel;
  variantIndex: number;
  /** The run the row belongs to (its hook checks and facts). */
  run: RunContext;
  /** What the variant id hashes with the base and the operators (the seed the variant was built from). */
  idSeed: string;
  provenance: Omit<Provenance, 'baseHash' | 'changed'> & { changed: ReadonlySet<Dimension> };
  /** The proof of the pool entry the row is drawn from: the certificate takes what it covers from it. */
  proof?: EntryProof | undefined;
  /**
   * `variantIdOf(baseHash, provenance.ops, idSeed)`, where the caller has it already (every row a pool entry
   * gives as it is has the same one).
   */
  variantId?: string;
}

/**
 * The id of a variant: a hash of the base, the operators that applied and the seed it was built from.
 *
 * @example
 * variantIdOf(baseHash, row.provenance.ops, '42/pool/7') // 'v_3f9a…'
 */
export function variantIdOf(baseHash: string, ops: Provenance['ops'], idSeed: string): string {
  return `v_${contentHash({ base: baseHash, ops, seed: idSeed }).slice(7, 27)}`;
}

/**
 * Rewrites the example under the variant and certifies it: the row, or the certificate's issues.
 *
 * @example
 * const result = certifiedRow({ base, baseHash, harness, original, relabel, variantIndex: 0, idSeed, provenance });
 * if ('row' in result) write(result.row);
 */
export function certifiedRow(input: CertifiedRowInput): { row: AugmentRow } | { issues: Issue[] } {
  const { base, harness, original, relabel, variantIndex } = input;
  // The example under its variant is a fact the plan's steps may have derived already (the last step's own
  // certificate, or the example the last operator was given): read, not moved again.
  const forward = forwardFacts(original, relabel, harness, input.run, input.proof?.walk);
  const rewritten = forward.trajectory;
  const certificate = certify({
    base,
    variant: harness,
    original,
    rewritten,
    relabel,
    forward,
    run: input.run,
    ...(input.proof ? { proof: input.proof } : {}),
  });
  if (!certificate.certified) return { issues: certificate.issues };
  const { seed, variantSeed, ops, skipped, planned, changed, pool } = input.provenance;
  return {
    row: {
      id: `${original.id}/${variantIndex}`,
      exampleId: original.id,
      variantIndex,
      variantId: input.variantId ?? variantIdOf(input.baseHash, ops, input.idSeed),
      harness,
      trajectory: rewritten,
      relabel,
      provenance: {
        seed,
        variantSeed,
        baseHash: input.baseHash,
        ops,
        skipped,
        planned,
        changed: dimensions.filter((dimension) => changed.has(dimension)),
        ...(pool ? { pool } : {}),
      },
      certificate,
    },
  };
}
