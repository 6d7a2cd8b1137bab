// The public entry points that start or join a run take the run: what they derive is held in it (its
// trajectory facts), their output is the one they give with a run of their own, and a run given with hook
// checks that are not its own is refused as a usage error before any work.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenario as library } from '../../examples/custom-scenario/library-scenario.js';
import { builtinOperators } from '../../perturbations/index.js';
import { augmentRunIn, augmentRunOf, createAugmentRun } from '../../src/augment/augment-run.js';
import { createRegistry } from '../../src/augment/registry.js';
import { resolvePolicy } from '../../src/augment/resolve-policy.js';
import { generateBench } from '../../src/bench/generate.js';
import { readBenchItems } from '../../src/bench/items.js';
import { nextVersionBench } from '../../src/bench/next-version.js';
import type { BenchItem } from '../../src/bench/schema.js';
import { driftReport } from '../../src/drift/drift.js';
import { createHookCheckRegistry } from '../../src/harness/hook-checks.js';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { createRunContext, runContextOf } from '../../src/harness/run-context.js';
import { createEnvService } from '../../src/runtime/env/service.js';
import { simulate } from '../../src/runtime/sim/simulate.js';
import { forwardFacts, knownForward } from '../../src/trajectory/facts.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import { projectRoot } from '../support/run-cli.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

const livestream = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
const libraryHarness = await loadHarnessFile(join(projectRoot, 'examples/custom-scenario/harness.yaml'));
const registry = createRegistry(builtinOperators);
const { plan, policy } = await resolvePolicy('hat', { registry });
const items: BenchItem[] = [];
for await (const record of readBenchItems(join(projectRoot, 'fixtures/livestream/bench/items.jsonl'))) {
  if ('item' in record) items.push(record.item);
  if (items.length === 2) break;
}

/** Two registries with no checks: not the same registry, so a run of one refuses the other. */
const ownChecks = createHookCheckRegistry([]);
const otherChecks = createHookCheckRegistry([]);

async function usageErrorOf(work: () => Promise<unknown>): Promise<HarnessAugmentError> {
  try {
    await work();
  } catch (error) {
    if (HarnessAugmentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a usage error');
}

async function drain<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

describe('a run and hook checks together', () => {
  it('takes the run with its own hook checks, and refuses hook checks that are not its own', () => {
    const run = createRunContext({ hookChecks: ownChecks });
    expect(runContextOf(run, ownChecks)).toBe(run);
    expect(runContextOf(run, undefined)).toBe(run);
    expect(() => runContextOf(run, otherChecks)).toThrow(/not the run's/);
    const base = travelHarness();
    expect(() => augmentRunOf(base, { run, hookChecks: otherChecks })).toThrow(/not the run's/);
    expect(augmentRunOf(base, { run, hookChecks: ownChecks }).hookChecks).toBe(ownChecks);
  });

  it('makes a plain run the augmentation run of a base, sharing its memos', () => {
    const harness = travelHarness();
    const trajectory = baggageTrajectory(harness);
    const run = createRunContext();
    const augmentation = augmentRunIn(harness, run);
    expect(augmentRunOf(harness, { run }).base).toBe(harness);
    const moved = forwardFacts(trajectory, identityRelabel, harness, augmentation);
    expect(knownForward(trajectory, identityRelabel, harness, run)).toBe(moved);
    // An augmentation run over another base is still refused.
    expect(() => augmentRunOf(travelHarness(), { run: createAugmentRun(harness) })).toThrow(/another base/);
  });

  it('is refused by every entry point as a usage error, before any work', async () => {
    const run = createRunContext({ hookChecks: ownChecks });
    const both = { run, hookChecks: otherChecks };
    const errors = [
      await usageErrorOf(() =>
        drain(generateBench(livestream, items, { plan, variants: 1, seed: 1, ...both })),
      ),
      await usageErrorOf(() => drain(nextVersionBench(livestream, livestream, items, both))),
      await usageErrorOf(() =>
        drain(simulate({ scenario: library, harness: libraryHarness, episodes: 1, ...both })),
      ),
      await usageErrorOf(async () =>
        createEnvService({ scenario: library, harness: libraryHarness, ...both }),
      ),
      await usageErrorOf(() =>
        driftReport(
          [
            { label: 'v1', source: 'v1.yaml', harness: livestream },
            { label: 'v2', source: 'v2.yaml', harness: livestream },
          ],
          { policy, plan, severity: 0.5, seed: 'd', samples: 1, ...both },
        ),
      ),
    ];
    for (const error of errors) {
      expect(error.kind).toBe('usage');
      expect(error.message).toMatch(/not the run's/);
    }
  });
});

describe('entry points given a run', () => {
  it('generateBench derives in the run given, with the rows of a run of its own', async () => {
    const run = createRunContext();
    const options = { plan, variants: 2, seed: 7 };
    const inRun = await drain(generateBench(livestream, items, { ...options, run }));
    const alone = await drain(generateBench(livestream, items, options));
    expect(inRun.length).toBeGreaterThan(items.length);
    expect(JSON.stringify(inRun)).toBe(JSON.stringify(alone));
    expect(run.memoryReport().caches).toContain('trajectory forward facts');
  });

  it('simulate plays its variants in the run given, with the episodes of a run of its own', async () => {
    const run = createRunContext();
    const options = { scenario: library, harness: libraryHarness, episodes: 2, seed: 's', augment: { plan } };
    const inRun = await drain(simulate({ ...options, run }));
    const alone = await drain(simulate(options));
    expect(inRun.some((episode) => episode.variant)).toBe(true);
    expect(JSON.stringify(inRun)).toBe(JSON.stringify(alone));
    expect(run.memoryReport().caches).toContain('trajectory forward facts');
  });
});
