// One run context per run: its memos are its own (another run derives again), the same object for the
// whole run, and named; a call given only hook checks gets a context of its own; an augmentation run is
// bound to its base harness.
import { describe, expect, it } from 'vitest';
import { augmentRunOf, createAugmentRun } from '../../src/augment/augment-run.js';
import { hashHarness } from '../../src/harness/hash.js';
import { createHookCheckRegistry } from '../../src/harness/hook-checks.js';
import { asRunContext, createRunContext, defineRunMemo } from '../../src/harness/run-context.js';
import { forwardFacts, validationFacts } from '../../src/trajectory/facts.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import { trajectoryWalks } from '../../src/trajectory/validate-trajectory.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

const counter = defineRunMemo('counter', () => ({ count: 0 }));

describe('run context', () => {
  it('makes a memo on first use and keeps it for the run, separate from every other run', () => {
    const run = createRunContext();
    expect(run.memoNames()).toEqual([]);
    run.memo(counter).count++;
    run.memo(counter).count++;
    expect(run.memo(counter).count).toBe(2);
    expect(run.memoNames()).toEqual(['counter']);
    expect(createRunContext().memo(counter).count).toBe(0);
  });

  it('holds the trajectory facts of its run only: another run derives them again', () => {
    const harness = travelHarness();
    const trajectory = baggageTrajectory(harness);
    const first = createRunContext();
    const before = trajectoryWalks();
    const moved = forwardFacts(trajectory, identityRelabel, harness, first);
    expect(forwardFacts(trajectory, identityRelabel, harness, first)).toBe(moved);
    expect(trajectoryWalks().rederive - before.rederive).toBe(1);
    expect(first.memoNames()).toEqual(['trajectory numbers']);
    expect(first.memoryReport().caches).toEqual(['trajectory forward facts', 'trajectory validation facts']);
    const second = createRunContext();
    const again = forwardFacts(trajectory, identityRelabel, harness, second);
    expect(again).not.toBe(moved);
    expect(trajectoryWalks().rederive - before.rederive).toBe(2);
    expect(JSON.stringify(again)).toBe(JSON.stringify(moved));
    // The moved trajectory's validation was recorded with the move: read, not walked.
    const validated = trajectoryWalks().validate;
    expect(validationFacts(moved.trajectory, harness, first).valid).toBe(true);
    expect(trajectoryWalks().validate).toBe(validated);
  });

  it('wraps hook checks given instead of a run in a context of their own, and passes a run through', () => {
    const hookChecks = createHookCheckRegistry([]);
    const wrapped = asRunContext(hookChecks);
    expect(wrapped.hookChecks).toBe(hookChecks);
    expect(asRunContext(wrapped)).toBe(wrapped);
    expect(asRunContext(undefined).hookChecks).toBeUndefined();
  });
});

describe('augmentation run', () => {
  it('holds its base and the base hash, and refuses to serve another base', () => {
    const base = travelHarness();
    const run = createAugmentRun(base);
    expect(run.base).toBe(base);
    expect(run.baseHash).toBe(hashHarness(base).harness);
    expect(augmentRunOf(base, { run })).toBe(run);
    expect(() => augmentRunOf(travelHarness(), { run })).toThrow(/another base harness/);
    const hookChecks = createHookCheckRegistry([]);
    expect(augmentRunOf(base, { hookChecks }).hookChecks).toBe(hookChecks);
  });
});
