import { describe, expect, it } from 'vitest';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import type { Message, Trajectory } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { baggageTrajectory, call, result, travelContext, travelHarness } from '../support/travel-harness.js';

const harness = travelHarness();
const codes = (trajectory: unknown) =>
  validateTrajectory(trajectory, harness).issues.map((issue) => issue.code);
const withMessages = (messages: Message[]): Trajectory => ({ ...baggageTrajectory(), messages });
const body = (id: string) => harness.skills.items.find((skill) => skill.id === id)!.body;
const system = (): Message => ({ role: 'system', content: renderSystemPrompt(harness, travelContext) });

describe('validateTrajectory', () => {
  it('accepts a valid trajectory and counts what it holds', () => {
    const validation = validateTrajectory(baggageTrajectory(), harness);
    expect(validation.issues).toEqual([]);
    expect(validation.stats).toEqual({
      messages: 7,
      turns: 1,
      toolCalls: 2,
      skillLoads: 1,
      hookRejections: 0,
    });
    expect(validation.decisions.map((decision) => decision.stage)).toEqual([
      'input',
      'pre_tool',
      'pre_tool',
      'post_tool',
      'pre_reply',
      'post_reply',
    ]);
  });

  it('names an unknown tool, a wrongly typed argument and a missing skill with their JSON paths', () => {
    const trajectory = withMessages([
      system(),
      { role: 'user', content: 'Rebook me please' },
      call('load_skill', { skill_id: 'refunds' }, 'c1'),
      result('c1', 'x'),
      call('cancel_flight', { flight: 'HA 212' }, 'c2'),
      result('c2', '{}'),
      call('get_baggage_policy', { fare_class: 3 }, 'c3'),
      result('c3', '{}'),
    ]);
    const validation = validateTrajectory(trajectory, harness, {});
    const byCode = Object.fromEntries(validation.issues.map((issue) => [issue.code, issue.path]));
    expect(byCode.unknown_skill).toEqual(['messages', 2, 'tool_calls', 0, 'function', 'arguments']);
    expect(byCode.unknown_tool).toEqual(['messages', 4, 'tool_calls', 0, 'function', 'name']);
    expect(byCode.invalid_arguments).toEqual(['messages', 6, 'tool_calls', 0, 'function', 'arguments']);
  });

  it('requires the system prompt rendered from the harness', () => {
    const trajectory = baggageTrajectory();
    trajectory.messages[0] = { role: 'system', content: 'You are helpful.' };
    expect(codes(trajectory)).toEqual(['system_prompt_mismatch']);
    expect(validateTrajectory(trajectory, harness, { checkSystemPrompt: false }).issues).toEqual([]);
  });

  it('requires the offered tools to be the harness tools', () => {
    const trajectory = baggageTrajectory();
    trajectory.tools = trajectory.tools!.slice(1);
    expect(codes(trajectory)).toEqual(['tools_mismatch']);
  });

  it('requires a skill load to return the skill body', () => {
    const trajectory = baggageTrajectory();
    trajectory.messages[3] = result('c1', 'something else');
    expect(codes(trajectory)).toEqual(['skill_body_mismatch']);
  });

  it('reports tool results that answer no call, and calls left unanswered', () => {
    const orphan = baggageTrajectory();
    orphan.messages.splice(6, 0, result('c9', '{}'));
    expect(codes(orphan)).toEqual(['orphan_tool_result']);
    const unanswered = baggageTrajectory();
    unanswered.messages.splice(5, 1);
    expect(codes(unanswered)).toContain('unanswered_tool_call');
  });

  it('accepts a reply rejected by a hook, its exact feedback and the corrected reply', () => {
    const trajectory = baggageTrajectory();
    trajectory.messages.splice(
      6,
      1,
      {
        role: 'assistant',
        content: '8 kg cabin, 23 kg checked, guaranteed.',
        hsa: { event: 'hook_rejected', hook: 'no_guarantees' },
      },
      { role: 'user', content: 'Remove: guaranteed', hsa: { event: 'hook_feedback', hook: 'no_guarantees' } },
      { role: 'assistant', content: '8 kg cabin bag and 23 kg checked.' },
    );
    const validation = validateTrajectory(trajectory, harness);
    expect(validation.issues).toEqual([]);
    expect(validation.stats.hookRejections).toBe(1);
    expect(validation.decisions.filter((decision) => decision.failed)).toEqual([
      { path: ['messages', 6], stage: 'pre_reply', failed: 'no_guarantees' },
    ]);
  });

  it('rejects feedback whose text differs from what the hook renders', () => {
    const trajectory = baggageTrajectory();
    trajectory.messages.splice(
      6,
      1,
      {
        role: 'assistant',
        content: 'Guaranteed: 8 kg and 23 kg.',
        hsa: { event: 'hook_rejected', hook: 'no_guarantees' },
      },
      { role: 'user', content: 'please fix', hsa: { event: 'hook_feedback', hook: 'no_guarantees' } },
      { role: 'assistant', content: '8 kg cabin bag and 23 kg checked.' },
    );
    expect(codes(trajectory)).toEqual(['hook_outcome_mismatch']);
  });

  it('reports a failing reply that is not marked as rejected', () => {
    const trajectory = baggageTrajectory();
    trajectory.messages[6] = { role: 'assistant', content: 'You get 30 kg checked.' };
    const [issue] = validateTrajectory(trajectory, harness).issues;
    expect(issue?.code).toBe('hook_failed_unmarked');
    expect(issue?.message).toContain('grounded_numbers');
  });

  it('applies the exhausted action once the retry budget is spent', () => {
    const trajectory = baggageTrajectory();
    trajectory.messages.splice(
      6,
      1,
      {
        role: 'assistant',
        content: 'Guaranteed 8 kg.',
        hsa: { event: 'hook_rejected', hook: 'no_guarantees' },
      },
      { role: 'user', content: 'Remove: guaranteed', hsa: { event: 'hook_feedback', hook: 'no_guarantees' } },
      {
        role: 'assistant',
        content: 'Still guaranteed 8 kg.',
        hsa: { event: 'hook_rejected', hook: 'no_guarantees' },
      },
      {
        role: 'assistant',
        content: 'A colleague will confirm the details.',
        hsa: { event: 'hook_fallback', hook: 'no_guarantees' },
      },
    );
    expect(codes(trajectory)).toEqual([]);
    // Found terms are reported in the hook's own spelling, whatever the case in the reply.
    expect(trajectory.messages[7]?.content).toBe('Remove: guaranteed');
  });

  it('ends a turn with the fallback of an input hook', () => {
    const trajectory = withMessages([
      system(),
      { role: 'user', content: 'this damn airline' },
      {
        role: 'assistant',
        content: 'Let us keep it friendly. How can I help with your trip?',
        hsa: { event: 'hook_fallback', hook: 'no_profanity' },
      },
    ]);
    expect(codes(trajectory)).toEqual([]);
    const missing = withMessages([system(), { role: 'user', content: 'this damn airline' }]);
    expect(codes(missing)).toEqual(['missing_hook_outcome']);
  });

  it('accepts a tool call rejected before it runs, with the feedback as its result', () => {
    const trajectory = withMessages([
      system(),
      { role: 'user', content: 'Baggage on basic?' },
      call('load_skill', { skill_id: 'baggage' }, 'c1'),
      result('c1', body('baggage')),
      {
        ...call('get_baggage_policy', { fare_class: 'cheap' }, 'c2'),
        hsa: { event: 'hook_rejected', hook: 'valid_arguments' },
      },
      {
        role: 'tool',
        tool_call_id: 'c2',
        content:
          'Call get_baggage_policy again: /fare_class must be equal to one of the allowed values (["basic","standard","flex"])',
        hsa: { event: 'hook_feedback', hook: 'valid_arguments' },
      },
      call('get_baggage_policy', { fare_class: 'basic' }, 'c3'),
      result('c3', { cabin_kg: 7, checked_kg: 0 }),
      { role: 'assistant', content: 'Basic includes a 7 kg cabin bag, no checked bag.' },
    ]);
    const validation = validateTrajectory(trajectory, harness);
    // The bad argument is why the hook rejected the call; the call never ran, so it is not a fault.
    expect(validation.issues).toEqual([]);
    expect(validation.stats.hookRejections).toBe(1);
  });

  it('reports both the bad argument and the unmarked hook failure when nothing rejected the call', () => {
    const trajectory = withMessages([
      system(),
      { role: 'user', content: 'Baggage on basic?' },
      call('get_baggage_policy', { fare_class: 'cheap' }, 'c2'),
      result('c2', '{}'),
    ]);
    expect(codes(trajectory)).toEqual(['invalid_arguments', 'hook_failed_unmarked']);
  });

  it('returns shape issues from the schema with paths', () => {
    const validation = validateTrajectory({ id: 'x', messages: [{ role: 'robot', content: 'hi' }] }, harness);
    expect(validation.valid).toBe(false);
    expect(validation.issues[0]?.path).toEqual(['messages', 0, 'role']);
  });
});
