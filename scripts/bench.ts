// `npm run bench`: how fast `augment` is on the live-stream fixture, and how that compares with the I/O
// floor — a plain JSONL parse-and-stringify pass over the same output rows. Timings are reported, never
// asserted: a benchmark decides nothing in the test suite.
import { performance } from 'node:perf_hooks';
import { builtinOperators } from '../perturbations/index.js';
import { augment } from '../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../src/augment/policy.js';
import { presets } from '../src/augment/presets.js';
import { createRegistry } from '../src/augment/registry.js';
import { loadHarnessFile } from '../src/harness/parse-harness.js';
import { readJsonl } from '../src/trajectory/read-jsonl.js';

const variants = Number(process.env.BENCH_VARIANTS ?? 8);
const policyName = process.env.BENCH_POLICY ?? 'hat';

const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
const inputs: unknown[] = [];
for await (const record of readJsonl('fixtures/livestream/trajectories.jsonl'))
  if ('value' in record) inputs.push(record.value);
const plan = compilePolicy(parsePolicy(presets[policyName]), createRegistry(builtinOperators));

const started = performance.now();
const lines: string[] = [];
let rejected = 0;
for await (const row of augment(harness, inputs, {
  plan,
  variants,
  seed: 'bench',
  onReject: () => rejected++,
})) {
  lines.push(JSON.stringify(row));
}
const augmentMs = performance.now() - started;

// The floor: parsing and re-serialising the same rows, the least any JSONL-to-JSONL tool must do.
const floorStarted = performance.now();
let bytes = 0;
for (const line of lines) bytes += JSON.stringify(JSON.parse(line)).length;
const floorMs = performance.now() - floorStarted;

const perSecond = (lines.length / augmentMs) * 1000;
console.log(`fixture: ${inputs.length} trajectories × ${variants} variants, policy ${policyName}`);
console.log(`rows: ${lines.length} written, ${rejected} rejected, ${(bytes / 1e6).toFixed(1)} MB`);
console.log(`augment: ${(augmentMs / 1000).toFixed(2)} s → ${perSecond.toFixed(1)} variants/s`);
console.log(`I/O floor (JSONL parse + stringify of the same rows): ${(floorMs / 1000).toFixed(2)} s`);
console.log(`ratio augment / I/O floor: ${(augmentMs / floorMs).toFixed(1)}×`);

// The runtime: simulated episodes per second with the oracle, under the base harness and with 20% faults.
const { simulate } = await import('../src/runtime/sim/simulate.js');
const { createLivestreamScenario } = await import('../src/scenarios/livestream/index.js');
const scenario = createLivestreamScenario();
for (const [label, options] of [
  ['base harness', {}],
  ['20% tool faults', { faults: { rate: 0.2 } }],
] as const) {
  const simStarted = performance.now();
  let episodes = 0;
  for await (const _episode of simulate({ scenario, harness, episodes: 1000, seed: 'bench', ...options }))
    episodes++;
  const simMs = performance.now() - simStarted;
  console.log(
    `simulate (${label}): ${episodes} episodes in ${(simMs / 1000).toFixed(2)} s → ${((episodes / simMs) * 1000).toFixed(0)} episodes/s (rewards included)`,
  );
}
