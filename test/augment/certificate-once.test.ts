// "No step certified twice": the facts a certificate compares (the example moved into a variant, its
// validation there, the original's validation under the base) are derived once and read by every check
// that needs them — the operator's own certificate (`certifies`), the hook facts of the hook operators, the
// next step's example and the row's certificate. Counted in walks of the trajectory (`trajectoryWalks`),
// never in time.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { disableUntriggered } from '../../perturbations/hooks/disable-untriggered.js';
import { augmentExample } from '../../src/augment/augment.js';
import { certify } from '../../src/augment/certificate.js';
import { applyOperator, defineOperator, unchanged } from '../../src/augment/operator.js';
import { op, pipe } from '../../src/augment/plan.js';
import { createVariantPool } from '../../src/augment/variant-pool.js';
import { certifies } from '../../src/kit/certify.js';
import { trajectoryWalks } from '../../src/trajectory/validate-trajectory.js';
import { renameBaggageTool } from '../support/rename-baggage-tool.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

/**
 * A third-party style operator that needs the example and certifies its step once, through the kit, in the
 * run it is applied in (`run`); with `byRun: false` it names only the hook checks, as operators written
 * before run contexts do.
 */
function checkedHeadingOperator(byRun: boolean) {
  return defineOperator({
    id: 'prompt/checked-heading',
    version: 1,
    dimension: 'prompt',
    mode: 'exact',
    description: 'Sets the xml heading style where the example stays certified.',
    params: z.object({}),
    apply(harness, { severity, trajectory, hookChecks, run }) {
      if (severity === 0) return unchanged(harness);
      if (!trajectory) return { skip: 'needs the trajectory' };
      const variant = { ...harness, prompt: { ...harness.prompt, headingStyle: 'xml' as const } };
      const scope = byRun ? { run } : { hookChecks };
      if (!certifies({ base: harness, variant, trajectory, ...scope })) return { skip: 'not certified' };
      return { harness: variant, relabel: { steps: [] } };
    },
  });
}
const checkedHeading = checkedHeadingOperator(true);

function walksOf<T>(run: () => Promise<T>): Promise<{ result: T; validate: number; rederive: number }> {
  const before = trajectoryWalks();
  return run().then((result) => {
    const after = trajectoryWalks();
    return {
      result,
      validate: after.validate - before.validate,
      rederive: after.rederive - before.rederive,
    };
  });
}

describe('a certificate over facts computed once', () => {
  it("reads the operator's move of the example: one forward walk under the variant, one validation of the original", async () => {
    const harness = travelHarness();
    const original = baggageTrajectory(harness);
    const { result, validate, rederive } = await walksOf(() =>
      augmentExample(harness, original, 0, { plan: pipe(op(checkedHeading)), seed: 'once' }),
    );
    if (!('row' in result)) throw new Error(`expected a row: ${JSON.stringify(result)}`);
    expect(result.row.provenance.ops.map((record) => record.name)).toEqual(['prompt/checked-heading']);
    expect(result.row.harness.prompt.headingStyle).toBe('xml');
    // The operator's certificate moves the example forward (1) and back (1) and validates the original
    // (1); the row's certificate reads that move and that validation, and walks only its own inverse (1).
    // Before: the operator's certificate validated its moved example again and the row moved the original
    // again (validate 2, rederive 4).
    expect({ validate, rederive }).toEqual({ validate: 1, rederive: 3 });
    // The certificate is the one computed from scratch.
    const scratch = certify({
      base: harness,
      variant: result.row.harness,
      original,
      rewritten: result.row.trajectory,
      relabel: result.row.relabel,
    });
    expect(result.row.certificate).toEqual(scratch);
    expect(scratch.certified).toBe(true);
  });

  it('gives an operator that names only the hook checks the same row, derived without the shared move', async () => {
    const harness = travelHarness();
    const original = baggageTrajectory(harness);
    const rowOf = (byRun: boolean) =>
      augmentExample(harness, original, 0, { plan: pipe(op(checkedHeadingOperator(byRun))), seed: 'once' });
    const byRun = await rowOf(true);
    expect('row' in byRun).toBe(true);
    expect(JSON.stringify(await rowOf(false))).toBe(JSON.stringify(byRun));
  });

  it("chains a pool entry's move and the per-example step's move into the row's certificate", async () => {
    const harness = travelHarness();
    const original = baggageTrajectory(harness);
    const pool = createVariantPool(
      harness,
      { plan: pipe(op(renameBaggageTool), op(checkedHeading)), seed: 'once', size: 1 },
      () => Promise.reject(new Error('the entry should certify')),
    );
    const { result, validate, rederive } = await walksOf(() => pool.augment(original, 0));
    if (!('row' in result)) throw new Error(`expected a row: ${JSON.stringify(result)}`);
    expect(result.row.provenance.pool).toMatchObject({ attempt: 0, perExample: 1 });
    expect(JSON.stringify(result.row.trajectory)).toContain('lookup_baggage_policy');
    // The example moved into the entry (1), by the checked step into its variant (1), and the row's
    // inverse (1); the original validated once (1). The step's inverse reads the entry's move of the
    // example instead of walking (`restoresWithoutWalk`). Before: the step's certificate validated its
    // move again and the row moved the original into the variant again (validate 2, rederive 5); then the
    // step's inverse walked (rederive 4).
    expect({ validate, rederive }).toEqual({ validate: 1, rederive: 3 });
    const { proof, ...verdict } = result.row.certificate;
    // The per-example step (the heading) changed the prompt: checked for the row; the entry's rename of the
    // tool (its tools, the mentions in skills and hooks, the new name) is its proof's.
    expect(proof).toEqual({
      entry: 'once/pool/0',
      atEntry: ['content.skills', 'content.hooks', 'content.tools', 'names'],
      perRow: ['validUnderVariant', 'hooksAgree', 'inverseExact', 'content.prompt'],
    });
    expect(verdict).toEqual(
      certify({
        base: harness,
        variant: result.row.harness,
        original,
        rewritten: result.row.trajectory,
        relabel: result.row.relabel,
      }),
    );
  });

  it('gives the hook operators the validation their certificate reads: the example is validated once', async () => {
    const harness = travelHarness();
    const trajectory = baggageTrajectory(harness);
    const { result, validate, rederive } = await walksOf(() =>
      applyOperator(disableUntriggered, harness, { rng: 'once', severity: 1, trajectory }),
    );
    if ('skip' in result) throw new Error(`expected a variant: ${result.skip}`);
    const disabled = result.harness.hooks.items.filter((hook) => !hook.enabled).length;
    expect(disabled).toBeGreaterThan(0);
    // The hook facts validate the example (1); each candidate's certificate moves it (forward and back)
    // and reads that validation. Before: the certificate validated the example again, and each candidate's
    // move again (validate 2 + candidates).
    expect(validate).toBe(1);
    expect(rederive % 2).toBe(0);
  });
});
