// The rows augmentation writes and what it rejects: plain types, imported by the code that makes them
// (augment, the variant pool, the certified row) and by everything that reads them.
import type { Issue } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';
import type { Relabel } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';
import type { Certificate } from './certificate.js';
import type { Dimension, OperatorRecord } from './operator.js';

/** Provenance: enough to replay a variant exactly. */
export interface Provenance {
  seed: string;
  /** The derived seed of this variant: `seed/exampleId/variantIndex`. */
  variantSeed: string;
  baseHash: string;
  ops: OperatorRecord[];
  /** Operators that did not apply to this example, with the reason. */
  skipped: Array<{ name: string; reason: string }>;
  /** Dimensions the plan chose for this variant. */
  planned: Dimension[];
  /** Dimensions whose operators changed the harness or, through the relabel, the trajectory (an operator may apply and change nothing). */
  changed: Dimension[];
  /** Rows whose variant came from the run's variant pool: which entry, and what was added for the example. */
  pool?: PoolProvenance;
}

/** One output row: stands alone, with the full variant harness. */
export interface AugmentRow {
  id: string;
  exampleId: string;
  variantIndex: number;
  variantId: string;
  harness: Harness;
  trajectory: Trajectory;
  relabel: Relabel;
  provenance: Provenance;
  certificate: Certificate;
}

/** An input or a variant that could not be emitted, with its reason. */
export interface AugmentReject {
  /** `judge_refused`: a certified row that a meaning judge (`hsa augment --judge`) refused. */
  reason:
    | 'syntax_error'
    | 'forbidden_key'
    | 'invalid_trajectory'
    | 'duplicate_id'
    | 'uncertified'
    | 'judge_refused';
  exampleId?: string;
  variantIndex?: number;
  line?: number;
  issues: Issue[];
}

/** Where a pooled row's variant came from, in its provenance. */
export interface PoolProvenance {
  /** The entry's seed, `seed/<label>/index` (`VariantPoolOptions.label`, default `pool`). */
  seed: string;
  index: number;
  size: number;
  /** 0 when the drawn entry certified, n when the n-th next one did. */
  attempt: number;
  /**
   * Operators applied for this example on top of the entry: the entry's deferred steps, drawn from the
   * entry's generator (examples that give them the same facts get the same variant).
   */
  perExample: number;
}

/** What one (example, variant index) gives: a row or the reason it could not. */
export type ExampleResult = { row: AugmentRow } | { reject: AugmentReject };
