// The simulator's oracle rollout of every RL row `npm start` wrote (rl/rows.jsonl): the episode the
// environment server plays for the row's reset (same seed, index and `hat` augmentation), played in process.
// Prints one JSON line per row: its id, the variant id the rollout ran under, the assistant messages the
// agent wrote (tool-call arguments as raw JSON text) and the simulator's total reward. The consumer suite
// replays these gold messages through a trainer's own tool loop against `hsa env serve`.
//
//   node --import tsx test/consumers/oracle_rollouts.ts out/pipeline/rl/rows.jsonl
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinOperators } from '../../perturbations/index.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { type SimulatedEpisode, simulate } from '../../src/runtime/sim/simulate.js';
import { createLivestreamScenario, FIXTURE_EPISODES } from '../../src/scenarios/livestream/index.js';

interface RlRowLine {
  id: string;
  seed: string;
  episode: { index: number };
  state: 'original' | 'augmented';
  variantId?: string;
}

const rowsPath = process.argv[2];
if (!rowsPath) throw new Error('usage: oracle_rollouts.ts <rl/rows.jsonl>');
const scenario = createLivestreamScenario();
const harness = await loadHarnessFile(join(import.meta.dirname, '../../fixtures/livestream/harness.yaml'));
const hat = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));

for (const line of readFileSync(rowsPath, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const row = JSON.parse(line) as RlRowLine;
  const run = simulate({
    scenario,
    harness,
    seed: row.seed,
    idPrefix: 'env-',
    shard: { index: row.episode.index, count: FIXTURE_EPISODES },
    ...(row.state === 'augmented' ? { augment: { plan: hat, severity: 0.5 } } : {}),
  });
  const sim = (await run.next()).value as SimulatedEpisode;
  // The agent's own messages: not the fallbacks and blocks the episode appends itself.
  const messages = sim.trajectory.messages.flatMap((message) => {
    if (message.role !== 'assistant') return [];
    if (message.hsa?.event === 'hook_fallback' || message.hsa?.event === 'hook_blocked') return [];
    const { hsa: _marker, ...rest } = message;
    return [rest];
  });
  const variantId = sim.variant?.id ?? null;
  process.stdout.write(`${JSON.stringify({ id: row.id, variantId, messages, reward: sim.rewards.total })}\n`);
}
