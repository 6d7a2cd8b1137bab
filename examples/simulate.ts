// The live-stream scenario in the simulator: 20 planned episodes, each moved into a certified `hat` variant
// of the fixture harness, played by the scripted oracle through the runtime with 20% of the tool calls
// failing (timeouts, malformed output, permission errors), then scored with the scenario's four rewards in
// the base vocabulary. `hsa sim run --scenario livestream --harness fixtures/livestream/harness.yaml
// --episodes 20 --seed example --augment hat --faults 0.2 --out out/sim.jsonl` does the same from the
// command line.
// Run: npx tsx examples/simulate.ts
import {
  builtinOperators,
  compilePolicy,
  createRegistry,
  loadHarnessFile,
  type Message,
  parsePolicy,
  presets,
  validateTrajectory,
} from 'harness-augment';
import { isToolError, simulate } from 'harness-augment/runtime';
import { createLivestreamScenario } from 'harness-augment/scenarios';

const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));

/** Failed registry calls in a trajectory, and how many of them a later call of the same tool answered. */
function faultRecovery(messages: readonly Message[], loader: string) {
  const names = new Map<string, string>();
  const results: Array<{ name: string; failed: boolean }> = [];
  for (const message of messages) {
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
    const name = message.role === 'tool' && !message.hsa ? names.get(message.tool_call_id) : undefined;
    if (message.role === 'tool' && name && name !== loader)
      results.push({ name, failed: isToolError(message.content) });
  }
  const failed = results.filter((result) => result.failed);
  const recovered = failed.filter((result) =>
    results.slice(results.indexOf(result) + 1).some((later) => later.name === result.name && !later.failed),
  );
  return { failed: failed.length, recovered: recovered.length };
}

const rewards = ['accuracy', 'effectiveness', 'toolRationality', 'skillSelection', 'total'] as const;
const sums = Object.fromEntries(rewards.map((name) => [name, 0])) as Record<(typeof rewards)[number], number>;
let episodes = 0;
let valid = 0;
let faults = 0;
let recovered = 0;

for await (const episode of simulate({
  scenario: createLivestreamScenario(),
  harness,
  episodes: 20,
  seed: 'example',
  augment: { plan },
  faults: { rate: 0.2 },
})) {
  episodes++;
  // Each episode validates under the harness it was played in: the variant, not the base.
  if (validateTrajectory(episode.trajectory, episode.harness).valid) valid++;
  const recovery = faultRecovery(episode.trajectory.messages, episode.harness.skills.loader.tool);
  faults += recovery.failed;
  recovered += recovery.recovered;
  const scores: Record<string, number> = { ...episode.rewards.rewards, total: episode.rewards.total };
  for (const name of rewards) sums[name] += scores[name] ?? 0;
  // Findings say why a reward is below 1 (docs/rewards.md); their codes are enough for a summary line.
  const codes = [...new Set(episode.rewards.findings.map((finding) => finding.code))];
  const kinds = Object.entries(episode.faults.kinds).map(([kind, count]) => `${kind}×${count}`);
  console.log(
    [
      episode.id,
      String(episode.trajectory.meta?.scenario).padEnd(17),
      `${episode.variant?.ops.length ?? 0} ops`,
      `total ${episode.rewards.total.toFixed(3)}`,
      ...(kinds.length > 0 ? [`faults: ${kinds.join(' ')}`] : []),
      ...(codes.length > 0 ? [`findings: ${codes.join(' ')}`] : []),
    ].join('  '),
  );
}

console.log(
  `${episodes} episodes under hat variants, ${valid} valid; ${faults} tool faults, ${recovered} recovered`,
);
console.log(
  `mean rewards: ${rewards.map((name) => `${name} ${(sums[name] / episodes).toFixed(4)}`).join(', ')}`,
);
