import { augmentExample } from '../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../src/augment/policy.js';
import { presets } from '../src/augment/presets.js';
import { createRegistry } from '../src/augment/registry.js';
import { builtinOperators } from '../perturbations/index.js';
import { loadHarnessFile } from '../src/harness/parse-harness.js';
import { readJsonl } from '../src/trajectory/read-jsonl.js';
import { validateTrajectory } from '../src/trajectory/validate-trajectory.js';
const harness = await loadHarnessFile('fixtures/helpdesk/harness.yaml');
const plan = compilePolicy(parsePolicy(presets.hat), createRegistry([...builtinOperators]));
for await (const r of readJsonl('fixtures/helpdesk/trajectories.jsonl')) {
  if (!('value' in r)) continue;
  const t = validateTrajectory(r.value, harness).trajectory!;
  for (let v = 1; v <= 8; v++) {
    const res: any = await augmentExample(harness, t, v, { plan, seed: '42' });
    if (!('row' in res)) {
      const issues = res.issues ?? res.reject?.issues;
      console.log(t.id, v, JSON.stringify(issues).slice(0, 300), JSON.stringify(res.provenance?.ops?.map((o: any) => o.name) ?? res.reject?.provenance?.ops?.map((o: any) => o.name) ?? Object.keys(res.reject ?? res)));
    }
  }
}
