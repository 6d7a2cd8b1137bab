// The operator golden harness: what an operator generates for a fixed seed, as a readable JSON summary
// (record, harness changes, relabel, trajectory changes), compared with a file kept in the repository. A
// release that changes the summary bumps the operator's version and updates the file on purpose.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { diffJson, formatChanges } from '../augment/json-diff.js';
import { applyOperator, type Operator, type RegenerateFunction } from '../augment/operator.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { Harness } from '../harness/schema.js';
import { forwardTrajectory } from '../trajectory/relabel.js';
import type { Trajectory } from '../trajectory/schema.js';

/**
 * The input an operator's golden summary is made from (`operatorGolden`, `checkOperatorGolden`): a harness, a
 * trajectory and the operator's settings.
 */
export interface GoldenCase {
  /** The harness the operator is applied to. */
  harness: Harness;
  /** A trajectory that validates under the harness. */
  trajectory: Trajectory;
  /** The seed (default `golden`). */
  rng?: string;
  /** Default 1: the strongest setting shows the most. */
  severity?: number;
  /** The operator's params, parsed by its schema (default `{}`). */
  params?: unknown;
  /** For `regenerate` operators: a deterministic stand-in for the model. */
  regenerate?: RegenerateFunction;
  /** The custom hook checks the harness names. */
  hookChecks?: HookCheckRegistry | undefined;
}

/**
 * The golden summary of one operator on one case, as the text of the golden file (2-space JSON, final
 * newline). A skip is recorded with its reason.
 *
 * @example
 * const text = await operatorGolden(renameTools, { harness, trajectory });
 */
export async function operatorGolden(operator: Operator, golden: GoldenCase): Promise<string> {
  const { harness, trajectory } = golden;
  const checks = { hookChecks: golden.hookChecks };
  const applied = await applyOperator(operator, harness, {
    rng: golden.rng ?? 'golden',
    severity: golden.severity ?? 1,
    trajectory,
    ...(golden.params === undefined ? {} : { params: golden.params }),
    ...(golden.regenerate ? { regenerate: golden.regenerate } : {}),
    ...checks,
  });
  const summary =
    'skip' in applied
      ? { operator: operator.id, version: operator.version, skip: applied.skip }
      : {
          operator: operator.id,
          version: operator.version,
          record: applied.record,
          changes: formatChanges(diffJson(harness, applied.harness), 160),
          relabel: applied.relabel,
          messages: formatChanges(
            diffJson(
              trajectory.messages,
              forwardTrajectory(trajectory, applied.relabel, applied.harness, checks).trajectory.messages,
            ),
            160,
          ),
        };
  return `${JSON.stringify(summary, null, 2)}\n`;
}

/** Options of `checkOperatorGolden`. */
export interface GoldenFileOptions {
  /** Write the file instead of comparing (e.g. when `UPDATE_GOLDEN=1`). */
  update?: boolean;
}

/** What `checkOperatorGolden` found: the text generated now and the file's text. */
export interface GoldenResult {
  file: string;
  actual: string;
  expected: string;
  /** Whether the file was written (update, or created). */
  written: boolean;
}

/**
 * Reads an operator's golden file and generates its summary now; compare the two texts with your test
 * runner (`expect(actual).toBe(expected)`) to see the diff. A missing file is an error that says how to
 * create it; `update` (re)writes it instead.
 *
 * @example
 * const { actual, expected } = await checkOperatorGolden(myOperator, { harness, trajectory }, 'test/golden/my-op.json',
 *   { update: process.env.UPDATE_GOLDEN === '1' });
 * expect(actual).toBe(expected);
 */
export async function checkOperatorGolden(
  operator: Operator,
  golden: GoldenCase,
  file: string,
  options: GoldenFileOptions = {},
): Promise<GoldenResult> {
  const actual = await operatorGolden(operator, golden);
  if (options.update) {
    writeFileSync(file, actual);
    return { file, actual, expected: actual, written: true };
  }
  if (!existsSync(file))
    throw new Error(
      `no golden file for operator "${operator.id}" at ${file}; write it once with { update: true } and review it`,
    );
  return { file, actual, expected: readFileSync(file, 'utf8'), written: false };
}
