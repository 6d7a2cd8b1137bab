// Presets do what their descriptions say: the rotbench levels combine their operators, and every
// built-in operator is in some preset.
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { type AugmentRow, augment } from '../../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { readJsonl } from '../../src/trajectory/read-jsonl.js';

const registry = createRegistry([...builtinOperators]);

describe('presets', () => {
  it('name every built-in operator somewhere, tools/change-schema-style included', () => {
    const named = new Set(
      Object.values(presets).flatMap((preset) =>
        Object.values(preset.dimensions ?? {}).flatMap((dimension) =>
          (dimension?.operators ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.op)),
        ),
      ),
    );
    expect(named.has('tools/change-schema-style')).toBe(true);
  });

  it('rotbench-slight, -medium and -heavy apply all their operators together', async () => {
    const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
    for (const name of ['rotbench-slight', 'rotbench-medium', 'rotbench-heavy']) {
      const policy = parsePolicy(presets[name]);
      const listed = policy.dimensions.tools?.operators.length ?? 0;
      const plan = compilePolicy(policy, registry);
      const rows: AugmentRow[] = [];
      let read = 0;
      const input = (async function* () {
        for await (const record of readJsonl('fixtures/livestream/trajectories.jsonl')) {
          if (read++ >= 6) return;
          yield record;
        }
      })();
      for await (const row of augment(harness, input, { plan, variants: 2, seed: 3 })) rows.push(row);
      expect(rows.length, name).toBe(12);
      for (const row of rows) {
        const tried = row.provenance.ops.length + row.provenance.skipped.length;
        expect(tried, `${name} ${row.id}`).toBe(listed);
        expect(row.provenance.ops.length, `${name} ${row.id}`).toBeGreaterThanOrEqual(2);
      }
    }
  });
});
