// Writing a scenario: the library-desk scenario (examples/custom-scenario/library-scenario.ts) runs its
// harness in the simulator, under the base harness and under `tools-only` variants (opaque tool names,
// renamed parameters). Its backend is a module of functions that always sees the base names: the runtime
// maps each call back through the variant's relabel first. Scored with the default rewards.
// The same from the shell: hsa sim run --scenario examples/custom-scenario/library-scenario.ts
//   --harness examples/custom-scenario/harness.yaml --augment tools-only --out out/library.jsonl
// Run: npx tsx examples/custom-scenario.ts
import {
  builtinOperators,
  createRegistry,
  loadHarnessFile,
  resolvePolicy,
  validateTrajectory,
} from 'harness-augment';
import { type Scenario, simulate } from 'harness-augment/runtime';
import { scenario as library } from './custom-scenario/library-scenario.js';

const harness = await loadHarnessFile('examples/custom-scenario/harness.yaml');
const { plan, severity } = await resolvePolicy('tools-only', { registry: createRegistry(builtinOperators) });

// The same scenario, with a backend that notes the names its calls arrive with.
const arrived = new Set<string>();
const scenario: Scenario = {
  ...library,
  async backend(episode, context) {
    const backend = await library.backend(episode, context);
    return {
      call(request, callContext) {
        arrived.add(request.name);
        return backend.call(request, callContext);
      },
    };
  },
};

for (const augment of [undefined, { plan, severity }]) {
  arrived.clear();
  let valid = 0;
  let total = 0;
  const names = new Set<string>();
  const episodes = [];
  for await (const episode of simulate({
    scenario,
    harness,
    seed: 'example',
    ...(augment ? { augment } : {}),
  })) {
    episodes.push(episode);
    if (validateTrajectory(episode.trajectory, episode.harness).valid) valid++;
    total += episode.rewards.total;
    for (const message of episode.trajectory.messages)
      if (message.role === 'assistant')
        for (const call of message.tool_calls ?? []) names.add(call.function.name);
  }
  const label = augment ? 'tools-only variants' : 'base harness';
  console.log(
    `${label}: ${episodes.length} episodes, ${valid} valid, mean total reward ${(total / episodes.length).toFixed(3)}`,
  );
  console.log(`  tools called: ${[...names].sort().join(', ')}`);
  console.log(`  the backend was called as: ${[...arrived].sort().join(', ')}`);
  console.log(`  rewards of ${episodes[0]!.id}: ${JSON.stringify(episodes[0]!.rewards.rewards)}`);
}
