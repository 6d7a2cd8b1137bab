// Replays logged conversations on any harness: the helpdesk fixture's logs, its tools fresh for each episode, under
// `hat` variants, once with the relabelled gold and once keeping the base names, scored by the generic rewards.
import { readFile } from 'node:fs/promises';
import {
  builtinOperators,
  compilePolicy,
  createRegistry,
  loadHarnessFile,
  parsePolicy,
  presets,
  type Trajectory,
} from 'harness-augment';
import { moduleBackend, simulate } from 'harness-augment/runtime';
import { createHelpdeskTools, createReplayScenario } from 'harness-augment/scenarios';

const harness = await loadHarnessFile('fixtures/helpdesk/harness.yaml');
const trajectories = (await readFile('fixtures/helpdesk/trajectories.jsonl', 'utf8'))
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Trajectory);
const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));

for (const player of ['gold', 'base-names'] as const) {
  const scenario = createReplayScenario({
    trajectories,
    player,
    backends: { default: moduleBackend({ createTools: () => createHelpdeskTools() }) },
  });
  const sums: Record<string, number> = {};
  let episodes = 0;
  for await (const episode of simulate({
    scenario,
    harness,
    episodes: 30,
    seed: 'example',
    augment: { plan },
  })) {
    episodes++;
    for (const [name, value] of Object.entries(episode.rewards.rewards))
      sums[name] = (sums[name] ?? 0) + value;
  }
  await scenario.close?.();
  const means = Object.entries(sums).map(([name, sum]) => `${name} ${(sum / episodes).toFixed(4)}`);
  console.log(`${player}: ${episodes} episodes under hat variants; ${means.join(', ')}`);
}
