// The log importer on single records: system prompt modes, skill bodies, aliases, markers for unmarked
// retries and input fallbacks, and the strict/loose reading of hook turns.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import type { Harness } from '../../src/harness/schema.js';
import { importLogLine, importLogRecord } from '../../src/trajectory/import-logs.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';

let harness: Harness;
let gold: Trajectory[];

beforeAll(async () => {
  harness = await loadHarnessFile('fixtures/helpdesk/harness.yaml');
  gold = readFileSync('fixtures/helpdesk/trajectories.jsonl', 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Trajectory);
});

/** A gold trajectory as an unmarked log: markers dropped, skill loads answered with `{"loaded": id}`. */
function unmarked(trajectory: Trajectory) {
  const loads = new Map<string, string>();
  return {
    conversation_id: trajectory.id,
    context: trajectory.context,
    messages: trajectory.messages.map((message) => {
      const { hsa: _marker, ...rest } = message as typeof message & { hsa?: unknown };
      if (message.role === 'assistant')
        for (const call of message.tool_calls ?? [])
          if (call.function.name === 'load_skill')
            loads.set(call.id, JSON.parse(call.function.arguments).skill_id);
      if (message.role === 'tool' && loads.has(message.tool_call_id) && !message.hsa)
        return { ...rest, content: JSON.stringify({ loaded: loads.get(message.tool_call_id) }) };
      return rest;
    }),
  };
}

const withEvent = (event: string) =>
  gold.find((trajectory) =>
    trajectory.messages.some((message) => 'hsa' in message && message.hsa?.event === event),
  )!;

describe('importLogRecord', () => {
  it('restores every marker of the gold from its unmarked log, whatever the hook', () => {
    let marked = 0;
    for (const trajectory of gold) {
      const imported = importLogRecord(unmarked(trajectory), harness, {}, 1);
      if (!imported.ok) throw new Error(`${trajectory.id}: ${imported.reject.message}`);
      expect(imported.trajectory.messages).toEqual(trajectory.messages);
      marked += imported.repairs.hookMarkers;
    }
    expect(marked).toBeGreaterThanOrEqual(20);
  });

  it('marks an input fallback, a rejected call and a rejected reply', () => {
    for (const event of ['hook_fallback', 'hook_feedback']) {
      const trajectory = withEvent(event);
      const imported = importLogRecord(unmarked(trajectory), harness);
      expect(imported.ok && imported.trajectory.messages).toEqual(trajectory.messages);
    }
    const rejectedCall = gold.find((trajectory) =>
      trajectory.messages.some(
        (message) => message.role === 'tool' && message.hsa?.event === 'hook_feedback',
      ),
    )!;
    const imported = importLogRecord(unmarked(rejectedCall), harness);
    expect(imported.ok && imported.trajectory.messages).toEqual(rejectedCall.messages);
  });

  it('renders the system prompt from the context, or keeps the logged one', () => {
    const log = unmarked(gold[0]!);
    log.messages[0] = { role: 'system', content: 'You are a helpful assistant.' };
    const rendered = importLogRecord(log, harness, { system: 'render' });
    expect(rendered.ok && rendered.trajectory.messages[0]!.content).toBe(
      renderSystemPrompt(harness, gold[0]!.context),
    );
    const kept = importLogRecord(log, harness, { system: 'keep' });
    expect(kept.ok && kept.trajectory.messages[0]!.content).toBe('You are a helpful assistant.');
    if (kept.ok) {
      expect(validateTrajectory(kept.trajectory, harness, { checkSystemPrompt: false }).valid).toBe(true);
      expect(validateTrajectory(kept.trajectory, harness).issues[0]?.code).toBe('system_prompt_mismatch');
    }
    const { messages } = unmarked(gold[0]!);
    const missing = importLogRecord({ messages: messages.slice(1) }, harness, { system: 'keep' }, 7);
    expect(missing.ok ? undefined : missing.reject).toMatchObject({
      line: 7,
      reason: 'missing_system_message',
    });
  });

  it('maps legacy names through the aliases, and rejects a name no alias maps', () => {
    const log = unmarked(gold.find((trajectory) => trajectory.meta?.scenario === 'how_to')!);
    const legacy = JSON.parse(
      JSON.stringify(log)
        .replaceAll('search_knowledge_base', 'search_kb')
        .replaceAll('\\"knowledge-base-answer\\"', '\\"kb_answer\\"'),
    );
    const rejected = importLogRecord(legacy, harness);
    expect(rejected.ok ? undefined : rejected.reject).toMatchObject({ reason: 'unknown_skill' });
    expect(rejected.ok ? '' : rejected.reject.message).toContain('"kb_answer"');
    const halfway = importLogRecord(legacy, harness, {
      aliases: { skills: { kb_answer: 'knowledge-base-answer' } },
    });
    expect(halfway.ok ? '' : halfway.reject.message).toContain('tool "search_kb" is not offered');
    const imported = importLogRecord(legacy, harness, {
      aliases: {
        tools: { search_kb: 'search_knowledge_base' },
        skills: { kb_answer: 'knowledge-base-answer' },
      },
    });
    expect(imported.ok && imported.repairs).toMatchObject({
      aliasedTools: 1,
      aliasedSkills: 1,
      skillBodies: 1,
    });
    expect(imported.ok && validateTrajectory(imported.trajectory, harness).valid).toBe(true);
  });

  it('takes other feedback wording only in loose mode', () => {
    const trajectory = gold.find((candidate) =>
      candidate.messages.some((message) => message.role === 'user' && message.hsa?.event === 'hook_feedback'),
    )!;
    const log = unmarked(trajectory);
    const index = trajectory.messages.findIndex((message) => message.role === 'user' && message.hsa);
    (log.messages[index] as { content: string }).content = 'Please rewrite that reply.';
    const strict = importLogRecord(log, harness);
    expect(strict.ok ? undefined : strict.reject.reason).toBe('hook_turn_mismatch');
    const loose = importLogRecord(log, harness, { hookTurns: 'loose' });
    expect(loose.ok && loose.trajectory.messages).toEqual(trajectory.messages);
  });

  it('rejects a reply that fails a hook when the log goes on without a retry', () => {
    const log = unmarked(
      gold.find((trajectory) => trajectory.meta?.scenario === 'small_talk' && !trajectory.meta?.slips)!,
    );
    const last = log.messages.at(-1) as { content: string };
    last.content = `${last.content} Your fix is guaranteed.`;
    log.messages.push({ role: 'user', content: 'thanks' } as never);
    const imported = importLogRecord(log, harness, {}, 3);
    expect(imported.ok ? undefined : imported.reject).toMatchObject({
      line: 3,
      reason: 'hook_turn_mismatch',
    });
    log.messages.pop();
    const ended = importLogRecord(log, harness, {}, 3);
    expect(ended.ok ? undefined : ended.reject.reason).toBe('hook_not_retried');
  });

  it('counts the retry budget as the validator does: a second failure blocks, and the block is inserted', () => {
    const trajectory = gold.find((candidate) =>
      (candidate.meta?.slips as string[] | undefined)?.includes('reply:no_guarantees'),
    )!;
    const log = unmarked(trajectory);
    const rejected = trajectory.messages.findIndex(
      (message) => message.role === 'assistant' && message.hsa?.hook === 'no_guarantees',
    );
    // The model repeats the promise after the feedback, and the log ends there (a block sends nothing).
    (log.messages[rejected + 2] as { content: string }).content = (
      log.messages[rejected] as { content: string }
    ).content;
    log.messages.splice(rejected + 3);
    const imported = importLogRecord(log, harness);
    if (!imported.ok) throw new Error(imported.reject.message);
    const tail = imported.trajectory.messages.slice(rejected);
    expect(tail.map((message) => ('hsa' in message ? message.hsa?.event : undefined))).toEqual([
      'hook_rejected',
      'hook_feedback',
      'hook_rejected',
      'hook_blocked',
    ]);
    expect(validateTrajectory(imported.trajectory, harness).valid).toBe(true);
  });

  it('gives torn lines and shapeless records a reason', () => {
    expect(importLogLine('{"messages": [', 4, harness)).toMatchObject({
      ok: false,
      reject: { line: 4, reason: 'invalid_json' },
    });
    expect(importLogLine('   ', 5, harness)).toBeUndefined();
    expect(importLogLine('[1,2]', 6, harness)).toMatchObject({
      ok: false,
      reject: { reason: 'not_an_object' },
    });
    expect(importLogLine('{"id":"a","messages":[]}', 7, harness)).toMatchObject({
      ok: false,
      reject: { id: 'a', reason: 'missing_messages' },
    });
    expect(importLogLine('{"id":"b","messages":[{"role":"robot","content":"x"}]}', 8, harness)).toMatchObject(
      {
        ok: false,
        reject: { reason: 'invalid_message', path: ['messages', 0, 'role'] },
      },
    );
  });
});
