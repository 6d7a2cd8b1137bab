// Run by cache-estimates.test.ts in a fresh `node --expose-gc`: augments the live-stream fixture's rows
// (`hat`, one variant each), then for each named cache weighs what clearing it frees against what its
// estimate says it holds, and prints one JSON line per cache.
import { readFile } from 'node:fs/promises';
import { builtinOperators } from '../../perturbations/index.js';
import { augment } from '../../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { boundedCaches } from '../../src/harness/bounded-cache.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';

const rows = Number(process.argv[2] ?? 200);
const gc = (globalThis as unknown as { gc: () => void }).gc;
const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
const lines = (await readFile('fixtures/livestream/trajectories.jsonl', 'utf8')).split('\n').filter(Boolean);
const plan = compilePolicy(parsePolicy(presets.hat as string), createRegistry(builtinOperators));
function* inputs(): Generator<unknown> {
  for (let index = 0; index < rows; index++) {
    const value = JSON.parse(lines[index % lines.length] as string) as { id: string };
    value.id = `${value.id}~${Math.floor(index / lines.length)}`;
    yield value;
  }
}
for await (const row of augment(harness, inputs(), { plan, variants: 1, seed: 'cache-estimates' }))
  JSON.stringify(row);

// The heap and the memory of Buffers (a cache of UTF-8 bytes holds them outside the heap).
const memoryUsed = () => {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};
for (const cache of boundedCaches()) {
  const before = memoryUsed();
  const estimate = cache.size;
  cache.clear();
  process.stdout.write(`${JSON.stringify({ name: cache.name, estimate, freed: before - memoryUsed() })}\n`);
}
