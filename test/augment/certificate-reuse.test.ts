// The certificate reuses the forward relabel's derivation instead of validating the rewritten trajectory
// again. On fixture rows under the hat policy, that certificate equals one computed from scratch, and every
// row still validates under its variant when checked independently.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { augment } from '../../src/augment/augment.js';
import { certify } from '../../src/augment/certificate.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';

const fixture = new URL('../../fixtures/livestream/', import.meta.url);

describe('the certificate of augment rows', () => {
  it('equals a certificate computed from scratch, and every row validates under its variant', async () => {
    const harness = await loadHarnessFile(new URL('harness.yaml', fixture).pathname);
    const originals = (await readFile(new URL('trajectories.jsonl', fixture), 'utf8'))
      .split('\n')
      .slice(0, 12)
      .map((line) => JSON.parse(line) as Trajectory);
    const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));
    const byId = new Map(originals.map((original) => [original.id, original]));
    let rows = 0;
    for await (const row of augment(harness, originals, { plan, variants: 3, seed: 'reuse' })) {
      rows++;
      const original = byId.get(row.exampleId) as Trajectory;
      const scratch = certify({
        base: harness,
        variant: row.harness,
        original,
        rewritten: row.trajectory,
        relabel: row.relabel,
      });
      // The same verdict; a pool row also says which checks its entry's proof answered.
      const { proof, ...verdict } = row.certificate;
      expect(verdict).toEqual(scratch);
      expect(proof?.entry).toBe(row.provenance.pool?.seed);
      expect(validateTrajectory(row.trajectory, row.harness).issues).toEqual([]);
    }
    expect(rows).toBe(36);
  }, 120_000);
});
