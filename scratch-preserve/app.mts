import { planApplicability } from '../src/augment/applicability.js';
import { compilePolicy, parsePolicy } from '../src/augment/policy.js';
import { presets } from '../src/augment/presets.js';
import { createRegistry } from '../src/augment/registry.js';
import { builtinOperators } from '../perturbations/index.js';
import { loadHarnessFile } from '../src/harness/parse-harness.js';
import { readJsonl } from '../src/trajectory/read-jsonl.js';
import { validateTrajectory } from '../src/trajectory/validate-trajectory.js';
const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
const trajectories: any[] = [];
for await (const r of readJsonl('fixtures/livestream/trajectories.jsonl')) { if ('value' in r) { const v = validateTrajectory(r.value, harness); if (v.valid) trajectories.push(v.trajectory); } if (trajectories.length >= 3) break; }
for (const name of Object.keys(presets)) {
  const t = performance.now();
  const result = await planApplicability(compilePolicy(parsePolicy(presets[name]), createRegistry([...builtinOperators])), harness, trajectories);
  console.log(name, result.canChange, (performance.now() - t).toFixed(0), 'ms', result.operators.filter((o) => !o.applies).map((o) => `${o.operator}: ${o.reason}`));
}
