// The certificate's inverse check reads the original's walk under the base instead of walking the
// restored trajectory (`restoresWithoutWalk` in src/augment/certificate.ts): the inverse steps' output,
// with the contents that walk derives set as it sets them, must equal the original. Where that does not
// hold it walks, so the verdict is always the walk's: each certificate here equals the one computed from
// scratch (a copy of the original, validated and moved back by walking). Counted in walks, never in time.

import { describe, expect, it } from 'vitest';
import { certify } from '../../src/augment/certificate.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { createRunContext } from '../../src/harness/run-context.js';
import type { Harness } from '../../src/harness/schema.js';
import { forwardFacts } from '../../src/trajectory/facts.js';
import { forwardTrajectory } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import {
  derivedContent,
  rederiveTrajectory,
  trajectoryWalks,
  validateTrajectory,
} from '../../src/trajectory/validate-trajectory.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

/** The example as a run holds it: parsed by its validation under the base, which is its fact. */
function parsed(trajectory: Trajectory, harness: Harness): Trajectory {
  const validation = validateTrajectory(trajectory, harness);
  if (!validation.valid || !validation.trajectory) throw new Error(JSON.stringify(validation.issues));
  return validation.trajectory;
}

/** The baggage example whose reply says `reply` (every other message as `baggageTrajectory` has it). */
function withReply(harness: Harness, reply: string): Trajectory {
  const trajectory = baggageTrajectory(harness);
  const messages = [...trajectory.messages];
  messages[messages.length - 1] = { role: 'assistant', content: reply };
  return { ...trajectory, messages };
}

/** The certificate of `original` under a tool rename, as a row gets it, and the inverse walks it made. */
function certified(harness: Harness, original: Trajectory, tools: Record<string, string>) {
  const { harness: variant, relabel } = renameSymbols(harness, { tools });
  const forward = forwardFacts(original, relabel, variant, createRunContext());
  const before = trajectoryWalks().rederive;
  const certificate = certify({
    base: harness,
    variant,
    original,
    rewritten: forward.trajectory,
    relabel,
    forward,
  });
  const walks = trajectoryWalks().rederive - before;
  // From scratch: a copy of the original (not the parsed object: no fact of it is read), the move made again.
  const copy = structuredClone(original);
  const scratch = certify({
    base: harness,
    variant,
    original: copy,
    rewritten: forwardTrajectory(copy, relabel, variant).trajectory,
    relabel,
  });
  return { certificate, scratch, walks };
}

describe("the inverse check over the original's walk", () => {
  it('certifies a rename without walking the restored trajectory', () => {
    const harness = travelHarness();
    const original = parsed(baggageTrajectory(harness), harness);
    const { certificate, scratch, walks } = certified(harness, original, {
      get_baggage_policy: 'lookup_baggage_policy',
    });
    expect(certificate.certified).toBe(true);
    // Before: the inverse walked the restored trajectory under the base (1).
    expect(walks).toBe(0);
    expect(certificate).toEqual(scratch);
  });

  it('walks, and refuses as the walk does, when the inverse does not restore a free text', () => {
    const harness = travelHarness();
    // The reply already names the new name: the forward move leaves it, the inverse renames it.
    const original = parsed(
      withReply(harness, 'Standard fare: 8 kg cabin, 23 kg checked (lookup_baggage_policy).'),
      harness,
    );
    const { certificate, scratch, walks } = certified(harness, original, {
      get_baggage_policy: 'lookup_baggage_policy',
    });
    expect(certificate.checks.inverseExact).toBe(false);
    expect(certificate.certified).toBe(false);
    expect(walks).toBe(1);
    expect(certificate).toEqual(scratch);
  });

  it('gives the verdict of the walk when a rename changes a hook decision', () => {
    const harness = travelHarness();
    // 76 characters, under short_reply's 80; with hold_seat renamed to a longer name, over it.
    const reply = 'Standard fare: 8 kg cabin, 23 kg checked. I can use hold_seat when you pick.';
    expect(reply.length).toBeLessThanOrEqual(80);
    const original = parsed(withReply(harness, reply), harness);
    const { certificate, scratch } = certified(harness, original, {
      hold_seat: 'reserve_seat_for_passenger',
    });
    expect(certificate.certified).toBe(false);
    expect(certificate.issues.map((issue) => issue.code)).toContain('hook_failed_unmarked');
    expect(certificate).toEqual(scratch);
  });

  it('walks where the original is not the validated object (a copy of it)', () => {
    const harness = travelHarness();
    const original = structuredClone(parsed(baggageTrajectory(harness), harness));
    const { certificate, scratch, walks } = certified(harness, original, {
      get_baggage_policy: 'lookup_baggage_policy',
    });
    expect(certificate.certified).toBe(true);
    expect(walks).toBe(1);
    expect(certificate).toEqual(scratch);
  });

  it('knows which contents a walk derives: the system prompt and the skill body, by validation or re-derivation', () => {
    const harness = travelHarness();
    const trajectory = baggageTrajectory(harness);
    // Each with the skill whose body it holds (a skill load's result).
    expect([...(derivedContent(validateTrajectory(trajectory, harness).decisions) ?? [])]).toEqual([
      [0, undefined],
      [3, 'baggage'],
    ]);
    // A stale prompt is written by a re-derivation (derived), reported by a validation (not held: not derived).
    const stale = {
      ...trajectory,
      messages: [{ role: 'system' as const, content: 'old' }, ...trajectory.messages.slice(1)],
    };
    expect([...(derivedContent(rederiveTrajectory(stale, harness).decisions)?.keys() ?? [])]).toEqual([0, 3]);
    expect([...(derivedContent(validateTrajectory(stale, harness).decisions)?.keys() ?? [])]).toEqual([3]);
  });
});
