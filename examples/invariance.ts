// Property-test two agents for harness invariance on the live-stream fixture: the brittle one fails, and
// the checker reports the smallest perturbation that breaks it; the robust one passes 200 runs.
// Run: npx tsx examples/invariance.ts
import { loadHarnessFile, readJsonl, type Trajectory } from 'harness-augment';
import { checkHarnessInvariance, type InvarianceCase, InvarianceError } from 'harness-augment/testing';
import { brittleAgent, robustAgent } from './agents.js';

const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
const cases: InvarianceCase[] = [];
for await (const record of readJsonl('fixtures/livestream/trajectories.jsonl')) {
  if (!('value' in record)) continue;
  const trajectory = record.value as Trajectory;
  if ((trajectory.meta as { scenario?: string } | undefined)?.scenario !== 'price') continue;
  const user = trajectory.messages.find((message) => message.role === 'user');
  if (user) cases.push({ id: trajectory.id, input: [user], trajectory });
  if (cases.length === 8) break;
}

try {
  await checkHarnessInvariance(brittleAgent, harness, cases, { numRuns: 100, seed: 20261130 });
  console.log('brittle agent: passed (unexpected)');
} catch (error) {
  if (!(error instanceof InvarianceError)) throw error;
  console.log(`brittle agent: ${error.message}`);
  const { seed, path } = error.counterexample;
  // The seed and path replay exactly that failure.
  await checkHarnessInvariance(brittleAgent, harness, cases, { seed, path }).catch((replayed: unknown) => {
    if (replayed instanceof InvarianceError)
      console.log(`replayed: ${replayed.counterexample.ops.map((record) => record.name).join(' → ')}`);
  });
}

const { runs } = await checkHarnessInvariance(robustAgent, harness, cases, { numRuns: 200, seed: 20261130 });
console.log(`robust agent: invariant over ${runs} runs`);
