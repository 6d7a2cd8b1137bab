// `hsa augment --workers N` shares one variant pool between its workers (the main thread and N - 1
// threads): every entry is built once, by one of them, and handed to the threads that need it, so N
// workers build exactly the entries one thread builds, and give the same results.
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

    const setup = { harnessFile, policy: 'hat', seed: 'shared', variants, variantPool: 256 };
    // As `hsa augment --workers 2` runs: the main thread is one of the two workers.
    const threads = createAugmentPool(setup, 2, variantPoolFor(harness, options), {
      mainThreadWorks: true,
    });
    try {
      const together = await Promise.all(
        trajectories.map((trajectory) => threads.augmentVariants(trajectory)),
      );
      expect(JSON.stringify(together)).toBe(JSON.stringify(alone));
      // Two workers: the main thread and one worker thread.
      expect(threads.threads()).toBe(1);
      // Each entry was built once, by one thread: as many builds as one thread made, not one set per thread.
      expect(threads.entriesBuilt()).toBe(single.built());
    } finally {
      await threads.close();
    }
    // As the pipeline runs (its main thread kept for the teacher's requests): two threads, the same rows.
    const apart = createAugmentPool(setup, 2, variantPoolFor(harness, options));
    try {
      const results = await Promise.all(trajectories.map((trajectory) => apart.augmentVariants(trajectory)));
      expect(JSON.stringify(results)).toBe(JSON.stringify(alone));
      expect(apart.threads()).toBe(2);
      expect(apart.entriesBuilt()).toBe(single.built());
    } finally {
      await apart.close();
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
      // Without a pool the main thread holds nothing to augment with: every worker is a thread.
      expect(plain.threads()).toBe(2);
    } finally {
      await plain.close();
    }
  }, 300_000);
});
