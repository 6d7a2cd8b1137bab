// Runs the scenario laws on the parcel-desk scenario, as its author's test would, then simulates it under
// tools-only variants. Only the published entry points are imported.

import { fileURLToPath } from 'node:url';
import { builtinOperators, createRegistry, loadHarnessFile, resolvePolicy } from 'harness-augment';
import { simulate } from 'harness-augment/runtime';
import { checkScenarioLaws } from 'harness-augment/testing';
import { scenario } from './parcel-scenario.js';

const harness = await loadHarnessFile(fileURLToPath(new URL('./harness.yaml', import.meta.url)));
const { plan } = await resolvePolicy('tools-only', { registry: createRegistry(builtinOperators) });

const report = await checkScenarioLaws(scenario, { harness, augment: { plan }, faults: { rate: 0.2 } });
console.log(`laws hold: ${report.runs} runs, ${report.episodes} episodes, ${report.golds} golds checked`);

let total = 0;
let variants = 0;
for await (const episode of simulate({ scenario, harness, episodes: 5, seed: 'demo', augment: { plan } })) {
  total += episode.rewards.total;
  if (episode.variant) variants++;
}
console.log(`simulated: 5 episodes, ${variants} under variants, mean reward ${(total / 5).toFixed(2)}`);
