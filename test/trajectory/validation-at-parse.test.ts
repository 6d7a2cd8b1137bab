// An input validated on the way in (`validateTrajectory` parses it into a new object) carries that
// validation: the trajectory facts read it instead of walking the trajectory again, under the same
// harness content and hook checks only.
import { describe, expect, it } from 'vitest';
import { noHookChecks } from '../../src/harness/hook-checks.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { validationFacts } from '../../src/trajectory/facts.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { trajectoryWalks, validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { baggageTrajectory, travelHarness, travelHarnessInput } from '../support/travel-harness.js';

describe('validation at parse', () => {
  it('is the fact of the parsed trajectory under the same harness content', () => {
    const base = travelHarness();
    const parsed = validateTrajectory(baggageTrajectory(), base);
    const trajectory = parsed.trajectory as Trajectory;
    const before = trajectoryWalks().validate;
    // Another object with the same content: the same facts.
    const facts = validationFacts(trajectory, parseHarness(travelHarnessInput()));
    expect(trajectoryWalks().validate - before).toBe(0);
    expect(facts).toMatchObject({ valid: parsed.valid, issues: parsed.issues, decisions: parsed.decisions });
    const fresh = validateTrajectory(baggageTrajectory(), travelHarness());
    expect(facts.decisions).toEqual(fresh.decisions);
    expect(facts.issues).toEqual(fresh.issues);
  });

  it('is not used under other harness content, other hook checks or fewer checks', () => {
    const base = travelHarness();
    const trajectory = validateTrajectory(baggageTrajectory(), base).trajectory as Trajectory;
    const input = travelHarnessInput();
    const other = parseHarness({ ...input, description: 'another harness' });
    let before = trajectoryWalks().validate;
    validationFacts(trajectory, other);
    expect(trajectoryWalks().validate - before).toBe(1);
    before = trajectoryWalks().validate;
    validationFacts(trajectory, base, noHookChecks);
    expect(trajectoryWalks().validate - before).toBe(1);
    const partial = validateTrajectory(baggageTrajectory(), base, { checkSystemPrompt: false })
      .trajectory as Trajectory;
    before = trajectoryWalks().validate;
    validationFacts(partial, base);
    expect(trajectoryWalks().validate - before).toBe(1);
  });
});
