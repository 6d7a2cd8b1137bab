// The meaning judge's spec: plain types only, so that the pipeline and the CLI depend on this and never on
// an implementation (src/adapters/judge/meaning-judge.ts is one, over an OpenAI-compatible endpoint). A judge
// is asked about pairs of texts — a base text and the variant's text that stands for it (a skill body, a
// tool description, a parameter description, a prompt section, a hook message) — and says whether the variant text requires exactly
// what the base text requires. It may refuse more than the certificate, never less: a row it refuses is
// rejected, a row it keeps still needed its certificate.
import type { PartKind } from '../augment/changed-parts.js';

/** One question: does the variant text require exactly what the base text requires? */
export interface MeaningPair {
  kind: PartKind;
  /**
   * A readable name of the part, e.g. `skill item_qa body` or `tool set_budget_limit parameter budget_limit
   * description` (for the judge's context and the reasons).
   */
  label: string;
  base: string;
  /** The variant's text, with renamed identifiers written in their base names. */
  variant: string;
}

/** A judge's answer about one pair. */
export interface MeaningVerdict {
  /** Whether the variant text requires exactly what the base text requires. */
  same: boolean;
  /** Why, in one sentence: shown in the rejects file when `same` is false. */
  reason: string;
}

/** Options of one `judgeParts` call. */
export interface MeaningJudgeCallOptions {
  signal?: AbortSignal;
}

/**
 * A judge of changed texts, version 1 of the spec: one verdict per pair, in order. It may ask each pair
 * alone or several together; a failure to reach it rejects the promise (the run stops, and resumes), while
 * an answer it cannot read is a verdict `same: false` with that reason, never a pass.
 *
 * @example
 * const [verdict] = await judge.judgeParts([{ kind: 'skill_body', label: 'skill a body', base: 'Quote prices.', variant: 'State prices.' }]);
 */
export interface MeaningJudgeV1 {
  readonly specificationVersion: 'v1';
  /** Names the judge and everything that changes its answers (endpoint, model, instructions): verdicts are cached under it. */
  readonly id: string;
  judgeParts(pairs: readonly MeaningPair[], options?: MeaningJudgeCallOptions): Promise<MeaningVerdict[]>;
}
