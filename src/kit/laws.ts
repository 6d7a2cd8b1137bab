// The laws every operator obeys, as a reusable suite: built-in operators run it, and so can third-party ones.
// Over random seeds, severities, params and cases (given ones plus random harnesses from other domains):
// determinism, a valid variant, a passing certificate (valid under the variant, hooks agree, exact inverse),
// identity at severity zero, no change outside the operator's dimension, and `needsExample` declared by an
// operator that applies with the example and skips without it.
// The built-in operators' tests take their fixed cases (the live-stream fixture, the travel harness) from
// `lawCases()` in test/support/law-cases.ts. fast-check (an optional peer) is loaded when the laws run, so
// that operators importing the kit never need it.
import { certify } from '../augment/certificate.js';
import {
  applyOperator,
  type Dimension,
  type Operator,
  type RegenerateFunction,
} from '../augment/operator.js';
import { canonicalJson } from '../harness/canonical-json.js';
import { hashHarness } from '../harness/hash.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { safeParseHarness } from '../harness/parse-harness.js';
import type { Harness, HarnessPartName } from '../harness/schema.js';
import { hookReferences } from '../harness/symbol-table.js';
import { forwardTrajectory, relabelMessages } from '../trajectory/relabel.js';
import { type LawCase, randomLawCase } from './random-case.js';

export type { LawCase } from './random-case.js';
export { randomLawCase } from './random-case.js';

/**
 * Harness parts each dimension may change; identifier renames reach every part through mentions. A
 * skill-content operator may also rewrite the hook fields that name a skill it merges or splits (see
 * `skillReferencesBlanked`), and nothing else of the hooks.
 *
 * @example
 * partsTouchedBy.prompt // ['prompt']
 */
export const partsTouchedBy: Record<Dimension, readonly HarnessPartName[]> = {
  'skill-ids': ['skills', 'hooks', 'prompt', 'tools'],
  'skill-content': ['skills'],
  tools: ['skills', 'hooks', 'prompt', 'tools'],
  prompt: ['prompt'],
  hooks: ['hooks'],
};

/**
 * Options of `checkOperatorLaws`: the cases to run the operator on, the param sets, and fast-check's runs and
 * seed.
 */
export interface OperatorLawOptions {
  /** Fixed cases, e.g. your own harness with a sample of its trajectories. */
  cases?: LawCase[];
  /** Also run on random harnesses from other domains (default true). */
  randomCases?: boolean;
  /** Param sets to try (default `[{}]`). */
  params?: unknown[];
  /** fast-check runs (default 40). */
  runs?: number;
  /** fast-check seed, to replay a failure. */
  seed?: number;
  /** For `regenerate` operators: a deterministic stand-in for the model. */
  regenerate?: RegenerateFunction;
}

/** What `checkOperatorLaws` returns once every law held: how many cases ran, applied or were skipped. */
export interface OperatorLawReport {
  /** Cases run. */
  runs: number;
  /** Cases where the operator applied (the rest skipped). */
  applied: number;
  /** Skip reasons and how often each occurred. */
  skipped: Record<string, number>;
}

/**
 * The message when fast-check, the law suite's peer dependency, is not installed.
 *
 * @example
 * console.error(missingFastCheckMessage); // says which package to install
 */
export const missingFastCheckMessage =
  'checkOperatorLaws needs fast-check, its peer dependency: npm install --save-dev fast-check@^4';

async function loadFastCheck(): Promise<typeof import('fast-check').default> {
  try {
    return (await import('fast-check')).default;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
      throw new Error(missingFastCheckMessage, { cause: error });
    throw error;
  }
}

class LawViolation extends Error {
  constructor(law: string, detail: string) {
    super(`law "${law}" broken: ${detail}`);
    this.name = 'LawViolation';
  }
}

function partsChanged(before: Harness, after: Harness): HarnessPartName[] {
  const a = hashHarness(before);
  const b = hashHarness(after);
  return (['skills', 'hooks', 'prompt', 'tools'] as const).filter((part) => a[part] !== b[part]);
}

/** The harness with every hook field that names a skill outright (`skill_loaded.skill`, custom params) emptied. */
function skillReferencesBlanked(harness: Harness, hookChecks: HookCheckRegistry | undefined): Harness {
  const copy = structuredClone(harness);
  for (const reference of hookReferences(harness, hookChecks)) {
    if (reference.kind !== 'skill') continue;
    const parent = reference.path
      .slice(0, -1)
      .reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], copy) as Record<
      string | number,
      unknown
    >;
    parent[reference.path.at(-1) as string | number] = '';
  }
  return copy;
}

/**
 * Runs the operator laws and throws a readable error naming the broken law, the case, the seed and the
 * fast-check replay path. Also fails when the operator never applies, since then nothing was tested.
 *
 * @example
 * it('obeys the laws', async () => { await checkOperatorLaws(renameTools, { cases: myCases }); });
 */
export async function checkOperatorLaws(
  operator: Operator,
  options: OperatorLawOptions = {},
): Promise<OperatorLawReport> {
  const fc = await loadFastCheck();
  const paramSets = options.params ?? [{}];
  const fixed = options.cases ?? [];
  const report: OperatorLawReport = { runs: 0, applied: 0, skipped: {} };
  // Counterexamples print as the case name: a whole harness in the report would bury the law that broke.
  const named = (lawCase: LawCase): LawCase =>
    Object.assign(Object.create({ [fc.toStringMethod]: () => `case(${lawCase.name})` }), lawCase);
  const randomArbitrary = fc.integer({ min: 0, max: 1_000_000 }).map((seed) => named(randomLawCase(seed)));
  const fixedArbitrary = fixed.length > 0 ? fc.constantFrom(...fixed.map(named)) : undefined;
  const arbitraries = [
    ...(fixedArbitrary ? [fixedArbitrary] : []),
    ...(options.randomCases === false ? [] : [randomArbitrary]),
  ];
  const [only] = arbitraries;
  if (!only) throw new Error('checkOperatorLaws: no cases to run');
  const caseArbitrary = arbitraries.length === 1 ? only : fc.oneof(...arbitraries);

  await fc.assert(
    fc.asyncProperty(
      caseArbitrary,
      fc.nat(),
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.double({ min: 0.05, max: 1, noNaN: true }),
      fc.nat({ max: paramSets.length - 1 }),
      async (lawCase, trajectoryIndex, seed, severity, paramIndex) => {
        report.runs++;
        const original = lawCase.trajectories[trajectoryIndex % lawCase.trajectories.length];
        if (!original) throw new Error(`case ${lawCase.name} has no trajectory`);
        const checks = { hookChecks: lawCase.hookChecks };
        const where = `case ${lawCase.name}, trajectory ${original.id}, seed ${seed}, severity ${severity}, params ${JSON.stringify(paramSets[paramIndex])}`;
        const run = (withSeverity: number) =>
          applyOperator(operator, lawCase.harness, {
            rng: `law/${seed}`,
            severity: withSeverity,
            params: paramSets[paramIndex],
            trajectory: original,
            ...(options.regenerate ? { regenerate: options.regenerate } : {}),
            ...checks,
          });
        const first = await run(severity);
        const second = await run(severity);
        if (canonicalJson(first) !== canonicalJson(second))
          throw new LawViolation('deterministic', `two runs differ (${where})`);
        if ('skip' in first) {
          report.skipped[first.skip] = (report.skipped[first.skip] ?? 0) + 1;
          return;
        }
        report.applied++;
        if (!operator.needsExample) {
          // Applied with the example: one that skips without it decides from it, and a pool's entries (built
          // without examples) would never apply it unless it says so.
          const without = await applyOperator(operator, lawCase.harness, {
            rng: `law/${seed}`,
            severity,
            params: paramSets[paramIndex],
            ...(options.regenerate ? { regenerate: options.regenerate } : {}),
            ...checks,
          });
          if ('skip' in without)
            throw new LawViolation(
              'declares needsExample',
              `it applies with the example and skips without it ("${without.skip}"): declare needsExample: true (${where})`,
            );
        }

        const parsed = safeParseHarness(first.harness, checks);
        if (!parsed.success) {
          throw new LawViolation(
            'variant valid',
            `${parsed.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')} (${where})`,
          );
        }
        if (canonicalJson(parsed.data) !== canonicalJson(first.harness)) {
          throw new LawViolation(
            'variant valid',
            `the variant is not in parsed form (defaults missing) (${where})`,
          );
        }
        const blank = operator.dimension === 'skill-content';
        const before = blank ? skillReferencesBlanked(lawCase.harness, lawCase.hookChecks) : lawCase.harness;
        const after = blank ? skillReferencesBlanked(first.harness, lawCase.hookChecks) : first.harness;
        const outside = partsChanged(before, after).filter(
          (part) => !partsTouchedBy[operator.dimension].includes(part),
        );
        if (outside.length > 0)
          throw new LawViolation('untouched parts untouched', `${outside.join(', ')} changed (${where})`);

        const moved = forwardTrajectory(original, first.relabel, first.harness, checks);
        const certificate = certify({
          base: lawCase.harness,
          variant: first.harness,
          original,
          rewritten: moved.trajectory,
          relabel: first.relabel,
          ...checks,
        });
        if (!certificate.certified) {
          const detail = certificate.issues
            .slice(0, 5)
            .map((issue) => `${issue.path.join('.')}: ${issue.message}`);
          throw new LawViolation('certificate passes', `${detail.join('; ')} (${where})`);
        }

        const zero = await run(0);
        if (!('skip' in zero)) {
          if (canonicalJson(zero.harness) !== canonicalJson(lawCase.harness)) {
            throw new LawViolation('identity at severity zero', `the harness changed (${where})`);
          }
          const messages = relabelMessages(original.messages, zero.relabel, 'forward');
          if (JSON.stringify(messages) !== JSON.stringify(original.messages)) {
            throw new LawViolation(
              'identity at severity zero',
              `the relabel changed the trajectory (${where})`,
            );
          }
        }
      },
    ),
    { numRuns: options.runs ?? 40, ...(options.seed === undefined ? {} : { seed: options.seed }) },
  );
  if (report.applied === 0) {
    throw new LawViolation(
      'applies somewhere',
      `operator "${operator.id}" skipped every run: ${JSON.stringify(report.skipped)}`,
    );
  }
  return report;
}
