import { augment } from '../src/augment/augment.js';
import { compilePolicy } from '../src/augment/policy.js';
import { presets } from '../src/augment/presets.js';
import { parsePolicy } from '../src/augment/policy.js';
import { createRegistry } from '../src/augment/registry.js';
import { builtinOperators } from '../perturbations/index.js';
import { loadHarnessFile } from '../src/harness/parse-harness.js';
import { readJsonl } from '../src/trajectory/read-jsonl.js';
const limit = Number(process.argv[2] ?? 60);
const harness = await loadHarnessFile(`/work/wt/preserve/fixtures/${process.env.FIX}/harness.yaml`);
const plan = compilePolicy(parsePolicy(presets[process.argv[3] ?? 'hat']), createRegistry([...builtinOperators]));
async function* first() { let n = 0; for await (const r of readJsonl(`/work/wt/preserve/fixtures/${process.env.FIX}/trajectories.jsonl`)) { if (n++ >= limit) return; yield r; } }
let rows = 0; const codes: Record<string, number> = {}; const samples: Record<string, string> = {};
const byOp: Record<string, number> = {};
for await (const row of augment(harness, first(), { plan, variants: 8, seed: '42', onReject: (r: any) => {
  for (const i of r.issues ?? []) { codes[i.code] = (codes[i.code] ?? 0) + 1; samples[i.code] ??= i.message; }
  for (const o of r.provenance?.ops ?? r.ops ?? []) byOp[o.name] = (byOp[o.name] ?? 0) + 1;
  if (!r.provenance) samples['keys'] = Object.keys(r).join(',');
} })) rows++;
console.log({ rows, codes, samples, byOp });
