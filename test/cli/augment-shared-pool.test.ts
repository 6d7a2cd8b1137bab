// `hsa augment --workers N` shares one variant pool between its threads: every entry is built once, by one
// thread (or the main thread), and handed to the threads that need it, so N threads build exactly the
// entries one thread builds, and give the same results.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { augmentExample, type ExampleResult, variantPoolFor } from '../../src/augment/augment.js';
import { policyFromOptions } from '../../src/cli/operators-registry.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { createAugmentPool } from '../../src/pipeline/parallel/augment-pool.js';
import type { Trajectory } from '../../src/trajectory/schema.js';

const fixture = new URL('../../fixtures/livestream/', import.meta.url).pathname;
const examples = 6;
const variants = 4;

describe('the variant pool shared by worker threads', () => {
  it('builds each entry once across threads and gives the rows of one thread', async () => {
    const harnessFile = `${fixture}harness.yaml`;
    const harness = await loadHarnessFile(harnessFile);
    const { plan, severity } = await policyFromOptions('hat', undefined, undefined);
    const trajectories = readFileSync(`${fixture}trajectories.jsonl`, 'utf8')
      .split('\n')
      .slice(0, examples)
      .map((line) => JSON.parse(line) as Trajectory);
    const options = { plan, seed: 'shared', severity, pool: { size: 256 } };

    // One thread: the run's pool, as `augment` uses it.
    const single = variantPoolFor(harness, options);
    if (!single) throw new Error('no pool');
    const alone: ExampleResult[][] = [];
    for (const trajectory of trajectories) {
      const results: ExampleResult[] = [];
      for (let variantIndex = 0; variantIndex < variants; variantIndex++)
        results.push(await single.augment(trajectory, variantIndex));
      alone.push(results);
    }
    expect(single.built()).toBeGreaterThan(variants);

    const threads = createAugmentPool(
      { harnessFile, policy: 'hat', seed: 'shared', variants, variantPool: 256 },
      2,
      variantPoolFor(harness, options),
    );
    try {
      const together = await Promise.all(
        trajectories.map((trajectory) => threads.augmentVariants(trajectory)),
      );
      expect(JSON.stringify(together)).toBe(JSON.stringify(alone));
      // Each entry was built once, by one thread: as many builds as one thread made, not one set per thread.
      expect(threads.entriesBuilt()).toBe(single.built());
    } finally {
      await threads.close();
    }
    // Without a pool, the threads build every variant for its example, as `augmentExample` does.
    const plain = createAugmentPool(
      { harnessFile, policy: 'hat', seed: 'shared', variants: 1, variantPool: 0 },
      2,
      undefined,
    );
    try {
      const [first] = trajectories as [Trajectory];
      expect(JSON.stringify(await plain.augmentVariants(first))).toBe(
        JSON.stringify([await augmentExample(harness, first, 0, { plan, seed: 'shared', severity })]),
      );
      expect(plain.entriesBuilt()).toBe(0);
    } finally {
      await plain.close();
    }
  }, 300_000);
});
