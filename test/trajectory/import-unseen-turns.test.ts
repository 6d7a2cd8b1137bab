// `import trajectories`: when a hook the log's system did not run blocks a reply (a block marker is
// inserted after it), the logged next user turn answers a message the user never saw: it is dropped, with
// the hook and the place in `meta.import.dropped`, and counted in the repairs. A log the hooks pass keeps
// every turn. The harness is the τ-bench-shaped airline one with its custom check, plus a reply rule.
import { describe, expect, it } from 'vitest';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { importLogRecord } from '../../src/trajectory/import-logs.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { airlineHarnessInput } from '../support/airline.js';
import { hookChecks } from '../support/airline-checks.js';

const input = airlineHarnessInput();
input.hooks.items.push({
  id: 'no_promises',
  stage: 'pre_reply',
  check: { type: 'banned_terms', terms: ['guaranteed'] },
  onFail: { action: 'block', message: 'I cannot promise that; let me check with an agent.' },
});
const harness = parseHarness(input, { hookChecks });

const log = (first: string) => ({
  id: 'air-000',
  messages: [
    { role: 'user', content: 'Can I get a refund for R100?' },
    { role: 'assistant', content: first },
    { role: 'user', content: 'Great, then refund it please.' },
    { role: 'assistant', content: 'I have asked for the refund.' },
  ],
});

describe('import trajectories after an inserted hook_blocked', () => {
  it('drops the user turn that answers the reply the user never saw, with the reason', () => {
    const result = importLogRecord(log('A full refund is guaranteed.'), harness, { hookChecks }, 1);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { trajectory, repairs } = result;
    expect(repairs.droppedTurns).toBe(1);
    expect(trajectory.messages.filter((message) => message.role === 'user' && !message.hsa)).toHaveLength(1);
    expect(trajectory.messages.at(-1)).toMatchObject({
      role: 'assistant',
      hsa: { event: 'hook_blocked', hook: 'no_promises' },
    });
    expect(trajectory.meta?.import).toMatchObject({
      dropped: { turns: 1, reason: expect.stringMatching(/hook "no_promises" ended turn 0 with a block/) },
    });
    expect(validateTrajectory(trajectory, harness, { hookChecks }).valid).toBe(true);
  });

  it('keeps every turn of a log the hooks pass', () => {
    const result = importLogRecord(log('Yes, R100 can be refunded.'), harness, { hookChecks }, 1);
    expect(result.ok && result.repairs.droppedTurns).toBe(0);
    expect(result.ok && result.trajectory.messages.filter((message) => message.role === 'user')).toHaveLength(
      2,
    );
    expect(result.ok && result.trajectory.meta?.import).not.toHaveProperty('dropped');
  });
});
