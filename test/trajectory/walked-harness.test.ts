// A walk reads a harness's tools by name from one map per harness object: the skill loader's schema is one
// object for every walk (its validator is found by object), and the walk's answers are unchanged.
import { describe, expect, it } from 'vitest';
import { offeredTools } from '../../src/harness/offered-tools.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { validateTrajectory, walkedHarness } from '../../src/trajectory/validate-trajectory.js';
import {
  baggageTrajectory,
  call,
  result,
  travelHarness,
  travelHarnessInput,
} from '../support/travel-harness.js';

describe('walkedHarness', () => {
  it('is built once per harness object, with the offered tools and skill bodies', () => {
    const harness = travelHarness();
    const first = walkedHarness(harness);
    expect(walkedHarness(harness)).toBe(first);
    expect(first.tools.get('load_skill')?.parameters).toBe(
      walkedHarness(harness).tools.get('load_skill')?.parameters,
    );
    expect([...first.tools.values()]).toEqual(offeredTools(harness));
    expect(first.skills.get('baggage')).toBe(
      harness.skills.items.find((skill) => skill.id === 'baggage')?.body,
    );
    expect(walkedHarness(parseHarness(travelHarnessInput()))).not.toBe(first);
  });

  it('still rejects an unknown skill and a bad argument on a second walk of the harness', () => {
    const harness = travelHarness();
    expect(validateTrajectory(baggageTrajectory(harness), harness).valid).toBe(true);
    const input = baggageTrajectory(harness);
    const messages = [
      ...input.messages.slice(0, 2),
      call('load_skill', { skill_id: 'no_such_skill' }, 'u1'),
      result('u1', 'x'),
      call('load_skill', { skill_id: 7 }, 'u2'),
      result('u2', 'x'),
      { role: 'assistant' as const, content: 'Done.' },
    ];
    const codes = validateTrajectory({ ...input, messages }, harness).issues.map((issue) => issue.code);
    expect(codes).toContain('unknown_skill');
    expect(codes).toContain('invalid_arguments');
    // The same issues as under a harness object never walked before.
    const fresh = travelHarness();
    expect(validateTrajectory({ ...input, messages }, fresh).issues).toEqual(
      validateTrajectory({ ...input, messages }, harness).issues,
    );
  });
});
