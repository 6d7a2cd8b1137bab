// A relabel copies only the messages it changes: a message none of whose calls (or texts) it renames is the
// input's own object, so moving an example allocates per change, not per message. The result is the same
// JSON as before, and the inverse still restores the input exactly.
import { describe, expect, it } from 'vitest';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { relabelMessages } from '../../src/trajectory/relabel.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

describe('a relabel of messages', () => {
  it('keeps the messages it does not change as they are, and copies the one it renames', () => {
    const harness = travelHarness();
    const { messages } = baggageTrajectory(harness);
    const { relabel } = renameSymbols(harness, { tools: { get_baggage_policy: 'baggage_rules' } });
    const moved = relabelMessages(messages, relabel, 'forward');
    // messages[2] loads a skill, [4] calls the renamed tool.
    expect(moved[2]).toBe(messages[2]);
    expect(moved[4]).not.toBe(messages[4]);
    expect(JSON.stringify(moved[4])).toContain('"name":"baggage_rules"');
    const { relabel: skills } = renameSymbols(harness, { skills: { rebooking: 'rebook_flight' } });
    // A skill rename: the load of another skill and the calls of other tools stay the same objects.
    const loaded = relabelMessages(messages, skills, 'forward');
    expect(loaded[2]).toBe(messages[2]);
    expect(loaded[4]).toBe(messages[4]);
    expect(JSON.stringify(relabelMessages(moved, relabel, 'inverse'))).toBe(JSON.stringify(messages));
  });
});
