// Asks a meaning judge about the texts a row's variant changed, and keeps the row only when every one is
// judged to require what its base text requires. Each (base text, variant text) pair is asked once: verdicts
// are cached by the two texts' hashes (and given back as lines for the caller to persist, so that a resumed
// run asks nothing twice), and a pair asked for one row while another row waits on it is asked once. What
// is asked: the parts that changed beyond renamed identifiers (the variant text written in base names, so a
// pool of variants that share a rewording share its verdict), parameter descriptions included; a text the
// variant added (a distractor tool, an optional parameter) or removed has no base text to compare and is
// left to the certificate.
import { type ChangedPart, changedParts } from '../augment/changed-parts.js';
import { contentHash } from '../harness/hash.js';
import type { Issue } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';
import type { Relabel } from '../trajectory/relabel.js';
import type { MeaningJudgeV1, MeaningPair, MeaningVerdict } from './meaning-judge-spec.js';

/** One cached verdict, as a line of the verdicts file: the judge's id and the two texts' hashes. */
export interface MeaningVerdictLine extends MeaningVerdict {
  judge: string;
  base: string;
  variant: string;
}

/** The filter's decision about one row. */
export type MeaningCheck = { keep: true } | { keep: false; issues: Issue[] };

/** How many pairs the filter saw, asked the judge about, and answered from its cache. */
export interface MeaningFilterStats {
  pairs: number;
  asked: number;
  cached: number;
  refusedRows: number;
}

export interface MeaningFilter {
  /** Judges the changed texts of a row's variant against the base. */
  check(base: Harness, row: { harness: Harness; relabel: Relabel }): Promise<MeaningCheck>;
  /** The verdicts learned since the last call, in the order they were asked: lines to persist. */
  takeNewVerdicts(): MeaningVerdictLine[];
  readonly stats: Readonly<MeaningFilterStats>;
}

/** A changed part with both sides. */
export type JudgedPart = ChangedPart & Required<Pick<ChangedPart, 'base' | 'variant' | 'inBaseNames'>>;

/**
 * The parts of a row the judge is asked about: changed beyond names, with a base text and a variant text.
 *
 * @example
 * judgedParts(changedParts(base, row.harness, row.relabel)).length // the pairs this row needs verdicts for
 */
export function judgedParts(parts: readonly ChangedPart[]): JudgedPart[] {
  return parts.filter(
    (part): part is JudgedPart =>
      !part.renameOnly &&
      part.base !== undefined &&
      part.variant !== undefined &&
      part.inBaseNames !== undefined,
  );
}

/**
 * A row filter over a meaning judge, with a verdict cache seeded from `known` (lines of an earlier run;
 * those of another judge id are ignored).
 *
 * @example
 * const filter = createMeaningFilter({ judge, known: await readVerdictLines(file) });
 * const check = await filter.check(base, row);
 * if (!check.keep) rejects.push({ reason: 'judge_refused', issues: check.issues });
 */
export function createMeaningFilter(options: {
  judge: MeaningJudgeV1;
  known?: Iterable<MeaningVerdictLine>;
}): MeaningFilter {
  const { judge } = options;
  const verdicts = new Map<string, Promise<MeaningVerdict>>();
  for (const line of options.known ?? [])
    if (line.judge === judge.id)
      verdicts.set(`${line.base}/${line.variant}`, Promise.resolve({ same: line.same, reason: line.reason }));
  // The settle functions of the pairs being asked, by key.
  const resolveLater = new Map<
    string,
    { resolve: (verdict: MeaningVerdict) => void; reject: (error: unknown) => void }
  >();
  const learned: MeaningVerdictLine[] = [];
  const stats: MeaningFilterStats = { pairs: 0, asked: 0, cached: 0, refusedRows: 0 };
  return {
    stats,
    takeNewVerdicts: () => learned.splice(0),
    async check(base, row) {
      const parts = judgedParts(changedParts(base, row.harness, row.relabel));
      const keys = parts.map((part) => ({
        base: contentHash(part.base.text),
        variant: contentHash(part.inBaseNames),
      }));
      const ask: Array<{ pair: MeaningPair; key: (typeof keys)[number] }> = [];
      const pending: Array<Promise<MeaningVerdict>> = [];
      stats.pairs += parts.length;
      parts.forEach((part, index) => {
        const key = keys[index] as (typeof keys)[number];
        const cached = verdicts.get(`${key.base}/${key.variant}`);
        if (cached) {
          stats.cached++;
          pending.push(cached);
          return;
        }
        ask.push({
          pair: { kind: part.kind, label: part.base.label, base: part.base.text, variant: part.inBaseNames },
          key,
        });
        // A placeholder, so that the same pair later in this row is not asked twice.
        const answer = new Promise<MeaningVerdict>((resolve, reject) => {
          resolveLater.set(`${key.base}/${key.variant}`, { resolve, reject });
        });
        answer.catch(() => undefined);
        verdicts.set(`${key.base}/${key.variant}`, answer);
        pending.push(answer);
      });
      if (ask.length > 0) {
        stats.asked += ask.length;
        try {
          const answers = await judge.judgeParts(ask.map((entry) => entry.pair));
          if (answers.length !== ask.length)
            throw new Error(
              `the meaning judge ${judge.id} gave ${answers.length} verdicts for ${ask.length} pairs`,
            );
          ask.forEach(({ key }, index) => {
            const verdict = answers[index] as MeaningVerdict;
            learned.push({
              judge: judge.id,
              base: key.base,
              variant: key.variant,
              same: verdict.same,
              reason: verdict.reason,
            });
            resolveLater.get(`${key.base}/${key.variant}`)?.resolve(verdict);
            resolveLater.delete(`${key.base}/${key.variant}`);
          });
        } catch (error) {
          // Nothing is cached from a failed call: a later row (or a resumed run) asks again.
          for (const { key } of ask) {
            verdicts.delete(`${key.base}/${key.variant}`);
            resolveLater.get(`${key.base}/${key.variant}`)?.reject(error);
            resolveLater.delete(`${key.base}/${key.variant}`);
          }
          throw error;
        }
      }
      const results = await Promise.all(pending);
      const issues: Issue[] = [];
      results.forEach((verdict, index) => {
        if (verdict.same) return;
        const part = parts[index] as (typeof parts)[number];
        issues.push({
          code: 'meaning_changed',
          path: part.variant.path,
          message: `${part.variant.label === part.base.label ? part.variant.label : `${part.variant.label} (base: ${part.base.label})`}: the judge says the variant does not require what the base requires: ${verdict.reason}`,
        });
      });
      if (issues.length === 0) return { keep: true };
      stats.refusedRows++;
      return { keep: false, issues };
    },
  };
}
