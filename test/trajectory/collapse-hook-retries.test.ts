// Hook-retry collapsing: hand-made cases for each hook-marker pattern, the live-stream fixture collapsed and
// validated under its harness, idempotence, and the seeded keepShare choice (share, edge cases, order-independence).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { injectRecovery } from '../../perturbations/hooks/inject-recovery.js';
import { applyOperator } from '../../src/augment/operator.js';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { loadHarnessFile, parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import {
  type CollapseResult,
  collapseHookRetries,
  collapseHookRetriesSample,
  keepsFullTrace,
} from '../../src/trajectory/collapse-hook-retries.js';
import { forwardTrajectory } from '../../src/trajectory/relabel.js';
import type { HookEvent, Message, Trajectory } from '../../src/trajectory/schema.js';
import { rederiveTrajectory, validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import {
  baggageTrajectory,
  call,
  result,
  travelHarness,
  travelHarnessInput,
} from '../support/travel-harness.js';

const harness = travelHarness();
const base = baggageTrajectory();
const [system, question, load, loaded, lookup, policy, reply] = base.messages as Message[] as [
  Message,
  Message,
  Extract<Message, { role: 'assistant' }>,
  Message,
  Message,
  Message,
  Message,
];
const body = (id: string) => harness.skills.items.find((skill) => skill.id === id)!.body;

const marker = (event: HookEvent['event'], hook: string, injected?: true): HookEvent =>
  injected ? { event, hook, injected } : { event, hook };
const rejectedReply = (content: string, hook: string, injected?: true): Message => ({
  role: 'assistant',
  content,
  hsa: marker('hook_rejected', hook, injected),
});
/** Feedback content is left empty: the harness renders it when the trajectory is built. */
const feedback = (hook: string, injected?: true): Message => ({
  role: 'user',
  content: '',
  hsa: marker('hook_feedback', hook, injected),
});
const rejectedCall = (name: string, args: unknown, id: string, hook: string): Message => ({
  ...call(name, args, id),
  hsa: marker('hook_rejected', hook),
});
const callFeedback = (id: string, hook: string): Message => ({
  role: 'tool',
  tool_call_id: id,
  content: '',
  hsa: marker('hook_feedback', hook),
});
const ended = (event: 'hook_fallback' | 'hook_blocked', hook: string): Message => ({
  role: 'assistant',
  content: '',
  hsa: marker(event, hook),
});

/** 98 characters: fails `short_reply` (at most 80) and nothing before it. */
const tooLong =
  'On a standard fare: 8 kg cabin bag and 23 kg checked. Let me know if you have any other questions.';

/** Builds a valid trajectory from messages, the hook turns rendered by the harness. */
function build(messages: Message[], under: Harness = harness): Trajectory {
  const { trajectory, issues } = rederiveTrajectory({ ...base, messages }, under);
  expect(issues).toEqual([]);
  expect(validateTrajectory(trajectory, under).issues).toEqual([]);
  return trajectory;
}

/** Collapses and checks that the result still validates and that collapsing again changes nothing. */
function collapse(trajectory: Trajectory, under: Harness = harness): CollapseResult {
  const before = validateTrajectory(trajectory, under).stats.hookRejections;
  const outcome = collapseHookRetries(trajectory);
  const validation = validateTrajectory(outcome.trajectory, under);
  expect(validation.issues).toEqual([]);
  expect(before - validation.stats.hookRejections).toBe(outcome.collapsed);
  const again = collapseHookRetries(outcome.trajectory);
  expect(again.trajectory).toBe(outcome.trajectory);
  expect(again.collapsed).toBe(0);
  expect(again.kept).toBe(outcome.kept);
  return outcome;
}

const json = (value: unknown) => JSON.stringify(value);

describe('collapseHookRetries on hand-made trajectories', () => {
  it('returns a trajectory without hook markers as the same object', () => {
    expect(collapseHookRetries(base)).toEqual({ trajectory: base, collapsed: 0, kept: false });
    expect(collapseHookRetries(base).trajectory).toBe(base);
  });

  it('removes a reply rejected by a reply hook with its feedback turn', () => {
    const trajectory = build([
      system,
      question,
      load,
      loaded,
      lookup,
      policy,
      rejectedReply(tooLong, 'short_reply'),
      feedback('short_reply'),
      reply,
    ]);
    const outcome = collapse(trajectory);
    expect(outcome.collapsed).toBe(1);
    expect(outcome.kept).toBe(false);
    expect(json(outcome.trajectory)).toBe(json(base));
    // The kept messages are the original objects, in order.
    expect(outcome.trajectory.messages).toEqual(
      trajectory.messages.filter((_, index) => index !== 6 && index !== 7),
    );
    outcome.trajectory.messages.forEach((message, index) => {
      expect(message).toBe(trajectory.messages[index < 6 ? index : index + 2]);
    });
  });

  it('removes two retries of the same hook', () => {
    const trajectory = build([
      system,
      question,
      load,
      loaded,
      lookup,
      policy,
      rejectedReply(tooLong, 'short_reply'),
      feedback('short_reply'),
      rejectedReply(`${tooLong.slice(0, 60)} Anything else about your bags today?`, 'short_reply'),
      feedback('short_reply'),
      reply,
    ]);
    expect(trajectory.messages[9]?.content).toBe('Too long (97/80). Attempt 2 of 2.');
    const outcome = collapse(trajectory);
    expect(outcome).toMatchObject({ collapsed: 2, kept: false });
    expect(json(outcome.trajectory)).toBe(json(base));
  });

  it('removes a reply rejected for a missing skill load: the load and the reply remain', () => {
    const trajectory = build([
      system,
      question,
      rejectedReply('On a standard fare: 8 kg cabin bag and 23 kg checked.', 'reply_skill'),
      feedback('reply_skill'),
      load,
      loaded,
      lookup,
      policy,
      reply,
    ]);
    const outcome = collapse(trajectory);
    expect(outcome).toMatchObject({ collapsed: 1, kept: false });
    expect(json(outcome.trajectory)).toBe(json(base));
  });

  it('removes a tool call rejected for bad arguments with the tool message answering it', () => {
    const trajectory = build([
      system,
      question,
      load,
      loaded,
      rejectedCall('get_baggage_policy', { fare_class: 'gold' }, 'c9', 'valid_arguments'),
      callFeedback('c9', 'valid_arguments'),
      lookup,
      policy,
      reply,
    ]);
    expect(trajectory.messages[5]?.content).toMatch(/^Call get_baggage_policy again: /);
    const outcome = collapse(trajectory);
    expect(outcome).toMatchObject({ collapsed: 1, kept: false });
    expect(json(outcome.trajectory)).toBe(json(base));
  });

  it('keeps the accepted calls of a parallel message where one call was rejected', () => {
    const [loadCall] = load.tool_calls!;
    const [badCall] = call('get_baggage_policy', { fare_class: 'gold' }, 'c9').tool_calls;
    const trajectory = build([
      system,
      question,
      {
        role: 'assistant',
        content: null,
        tool_calls: [loadCall!, badCall!],
        hsa: marker('hook_rejected', 'valid_arguments'),
      },
      loaded,
      callFeedback('c9', 'valid_arguments'),
      lookup,
      policy,
      reply,
    ]);
    const outcome = collapse(trajectory);
    expect(outcome).toMatchObject({ collapsed: 1, kept: false });
    // The message keeps the accepted load (same call object) and loses the marker: the skill it loaded
    // is what lets the final reply pass `reply_skill`.
    expect(json(outcome.trajectory)).toBe(json(base));
    const trimmed = outcome.trajectory.messages[2] as Extract<Message, { role: 'assistant' }>;
    expect(trimmed.tool_calls?.[0]).toBe(
      trajectory.messages[2]?.role === 'assistant' && trajectory.messages[2].tool_calls?.[0],
    );
    expect(outcome.trajectory.messages[3]).toBe(trajectory.messages[3]);
  });

  it('keeps whole a turn whose retry budget ran out into a fallback', () => {
    const trajectory = build([
      system,
      question,
      load,
      loaded,
      lookup,
      policy,
      rejectedReply('Guaranteed: 8 kg cabin bag.', 'no_guarantees'),
      feedback('no_guarantees'),
      rejectedReply('8 kg cabin bag, guaranteed.', 'no_guarantees'),
      ended('hook_fallback', 'no_guarantees'),
    ]);
    expect(trajectory.messages.at(-1)?.content).toBe('A colleague will confirm the details.');
    const outcome = collapse(trajectory);
    expect(outcome).toEqual({ trajectory, collapsed: 0, kept: true });
    expect(outcome.trajectory).toBe(trajectory);
    // Without the whole-turn rule the fallback would stand without the failures that justify it.
    const naive = {
      ...trajectory,
      messages: trajectory.messages.filter((_, index) => index < 6 || index > 7),
    };
    expect(validateTrajectory(naive, harness).issues.map((issue) => issue.code)).toContain(
      'hook_outcome_mismatch',
    );
    // Even when an accepted reply follows the fallback in the same turn, the fallback's failures stay.
    const continued = build([...trajectory.messages, reply]);
    expect(collapse(continued)).toEqual({ trajectory: continued, collapsed: 0, kept: true });
  });

  it('keeps whole a turn that a pre_tool fallback hook ended, and collapses the other turns', () => {
    const lookups = ['c2b', 'c3b', 'c4b', 'c5b'].flatMap((id) => [
      call('get_baggage_policy', { fare_class: 'flex' }, id),
      result(id, { cabin_kg: 10, checked_kg: 32, pieces: 2 }),
    ]);
    const first = [
      question,
      load,
      loaded,
      lookup,
      policy,
      rejectedReply(tooLong, 'short_reply'),
      feedback('short_reply'),
      reply,
    ];
    const second = [
      { role: 'user' as const, content: 'And on flex? Check all of it.' },
      call('load_skill', { skill_id: 'baggage' }, 'c11'),
      result('c11', body('baggage')),
      ...lookups,
      rejectedCall('get_baggage_policy', { fare_class: 'flex' }, 'c6b', 'tool_budget'),
      callFeedback('c6b', 'tool_budget'),
      ended('hook_fallback', 'tool_budget'),
    ] as Message[];
    const trajectory = build([system, ...first, ...second]);
    expect(trajectory.messages.at(-2)?.content).toMatch(/^blocked by hook "tool_budget": /);
    const outcome = collapse(trajectory);
    expect(outcome).toMatchObject({ collapsed: 1, kept: true });
    expect(outcome.trajectory.messages).toEqual([
      system,
      ...first.filter((_, index) => index < 5 || index > 6),
      ...trajectory.messages.slice(9),
    ]);
    trajectory.messages.slice(9).forEach((message, index) => {
      expect(outcome.trajectory.messages[7 + index]).toBe(message);
    });
  });

  it('leaves input hook blocks and fallbacks untouched', () => {
    const input = travelHarnessInput();
    input.hooks.items = [
      {
        id: 'no_links',
        stage: 'input',
        check: { type: 'regex', pattern: 'https?://', mode: 'must_not' },
        onFail: { action: 'block', message: 'Links are hidden.' },
      },
      ...input.hooks.items,
    ];
    const blocking = parseHarness(input);
    const trajectory = build(
      [
        system,
        { role: 'user', content: 'see http://spam.example' },
        ended('hook_blocked', 'no_links'),
        { role: 'user', content: 'damn it' },
        ended('hook_fallback', 'no_profanity'),
        question,
        load,
        loaded,
        lookup,
        policy,
        rejectedReply(tooLong, 'short_reply'),
        feedback('short_reply'),
        reply,
      ],
      blocking,
    );
    expect(trajectory.messages[2]?.content).toBe('Links are hidden.');
    const outcome = collapse(trajectory, blocking);
    expect(outcome).toMatchObject({ collapsed: 1, kept: false });
    expect(outcome.trajectory.messages).toEqual(
      trajectory.messages.filter((_, index) => index !== 10 && index !== 11),
    );
    for (let index = 0; index < 10; index++)
      expect(outcome.trajectory.messages[index]).toBe(trajectory.messages[index]);

    const onlyBlocks = build(trajectory.messages.slice(0, 5), blocking);
    expect(collapseHookRetries(onlyBlocks)).toEqual({ trajectory: onlyBlocks, collapsed: 0, kept: false });
    expect(collapseHookRetries(onlyBlocks).trajectory).toBe(onlyBlocks);
  });

  it('collapses injected recovery episodes the same way', () => {
    const trajectory = build([
      system,
      question,
      load,
      loaded,
      lookup,
      policy,
      rejectedReply(tooLong, 'short_reply', true),
      feedback('short_reply', true),
      reply,
    ]);
    expect(trajectory.messages[7]?.role === 'user' && trajectory.messages[7].hsa?.injected).toBe(true);
    const outcome = collapse(trajectory);
    expect(outcome).toMatchObject({ collapsed: 1, kept: false });
    expect(json(outcome.trajectory)).toBe(json(base));
  });

  it('keeps whole a turn that never recovers to an accepted reply', () => {
    const trajectory = build([
      system,
      question,
      load,
      loaded,
      lookup,
      policy,
      rejectedReply(tooLong, 'short_reply'),
      feedback('short_reply'),
    ]);
    const outcome = collapse(trajectory);
    expect(outcome).toEqual({ trajectory, collapsed: 0, kept: true });
  });
});

describe('collapseHookRetries on the live-stream fixture', async () => {
  const fixtureHarness = await loadHarnessFile('fixtures/livestream/harness.yaml');
  const lines = readFileSync('fixtures/livestream/trajectories.jsonl', 'utf8').split('\n').filter(Boolean);
  const trajectories = lines.map((line) => JSON.parse(line) as Trajectory);
  const hasMarker = (trajectory: Trajectory, event: HookEvent['event']) =>
    trajectory.messages.some((message) => 'hsa' in message && message.hsa?.event === event);

  it('collapses every trajectory into one that validates under the fixture harness, idempotently', () => {
    let collapsedTotal = 0;
    let keptTotal = 0;
    trajectories.forEach((trajectory, index) => {
      const outcome = collapseHookRetries(trajectory);
      const validation = validateTrajectory(outcome.trajectory, fixtureHarness);
      expect(validation.issues, trajectory.id).toEqual([]);
      const before = validateTrajectory(trajectory, fixtureHarness).stats.hookRejections;
      expect(before - validation.stats.hookRejections, trajectory.id).toBe(outcome.collapsed);
      // The kept messages are original objects in their original order.
      let cursor = 0;
      for (const message of outcome.trajectory.messages) {
        cursor = trajectory.messages.indexOf(message, cursor);
        expect(cursor, trajectory.id).toBeGreaterThanOrEqual(0);
        cursor++;
      }
      if (!hasMarker(trajectory, 'hook_rejected')) {
        expect(outcome.trajectory).toBe(trajectory);
        expect(json(outcome.trajectory)).toBe(lines[index]);
      }
      expect(hasMarker(outcome.trajectory, 'hook_rejected')).toBe(outcome.kept);
      if (!outcome.kept) expect(hasMarker(outcome.trajectory, 'hook_feedback')).toBe(false);
      const again = collapseHookRetries(outcome.trajectory);
      expect(again.trajectory).toBe(outcome.trajectory);
      expect(again.collapsed).toBe(0);
      collapsedTotal += outcome.collapsed;
      if (outcome.kept) keptTotal++;
    });
    expect(collapsedTotal).toBeGreaterThan(40);
    expect(keptTotal).toBeGreaterThan(0);
  });

  it('keeps exactly the trajectories whose failures end a turn in a fallback or block', () => {
    for (const trajectory of trajectories) {
      const outcome = collapseHookRetries(trajectory);
      const messages = outcome.trajectory.messages;
      messages.forEach((message, index) => {
        if (!('hsa' in message) || message.hsa?.event !== 'hook_rejected') return;
        // The turn of a remaining rejection ends in a fallback or a block.
        const next = messages.findIndex((later, at) => at > index && later.role === 'user' && !later.hsa);
        const turnEnd = messages[(next === -1 ? messages.length : next) - 1];
        expect(turnEnd && 'hsa' in turnEnd ? turnEnd.hsa?.event : undefined, trajectory.id).toMatch(
          /^hook_(fallback|blocked)$/,
        );
      });
    }
    const byId = new Map(trajectories.map((trajectory) => [trajectory.id, trajectory]));
    // ls-0105: numbers_grounded retried, then its budget ran out into a fallback.
    // ls-0142: the tool-call budget rejected a seventh call and ended the turn with a fallback.
    for (const id of ['ls-0105', 'ls-0142']) {
      const trajectory = byId.get(id)!;
      expect(collapseHookRetries(trajectory)).toEqual({ trajectory, collapsed: 0, kept: true });
    }
  });

  it('removes injected recovery episodes exactly: the original comes back', async () => {
    const clean = trajectories
      .filter((trajectory) => !trajectory.messages.some((message) => 'hsa' in message))
      .slice(0, 8);
    let injected = 0;
    for (const trajectory of clean) {
      const applied = await applyOperator(injectRecovery, fixtureHarness, {
        rng: 'collapse',
        severity: 1,
        trajectory,
      });
      if ('skip' in applied) continue;
      const moved = forwardTrajectory(trajectory, applied.relabel, fixtureHarness).trajectory;
      const episodes = applied.relabel.steps.length;
      expect(moved.messages.length).toBe(trajectory.messages.length + 2 * episodes);
      const outcome = collapseHookRetries(moved);
      expect(outcome).toMatchObject({ collapsed: episodes, kept: false });
      expect(outcome.trajectory).toEqual(trajectory);
      injected += episodes;
    }
    expect(injected).toBeGreaterThan(0);
  });
});

describe('keepsFullTrace and collapseHookRetriesSample', async () => {
  const fixtureHarness = await loadHarnessFile('fixtures/livestream/harness.yaml');
  const trajectories = readFileSync('fixtures/livestream/trajectories.jsonl', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Trajectory);
  const ids = trajectories.map((trajectory) => trajectory.id);
  const withFailures = trajectories.filter((trajectory) =>
    trajectory.messages.some((message) => 'hsa' in message && message.hsa?.event === 'hook_rejected'),
  );

  it('keeps a share of ids that converges to keepShare', () => {
    for (const keepShare of [0.1, 0.3, 0.5, 0.8]) {
      const share = ids.filter((id) => keepsFullTrace(id, { keepShare, seed: 'fixed' })).length / ids.length;
      expect(Math.abs(share - keepShare), `keepShare ${keepShare}`).toBeLessThan(0.08);
      const many = Array.from({ length: 4000 }, (_, index) => `example-${index}`);
      const manyShare =
        many.filter((id) => keepsFullTrace(id, { keepShare, seed: 'fixed' })).length / many.length;
      expect(Math.abs(manyShare - keepShare), `keepShare ${keepShare} over 4000 ids`).toBeLessThan(0.03);
    }
  });

  it('keeps none at keepShare 0 and all at keepShare 1', () => {
    expect(ids.some((id) => keepsFullTrace(id, { keepShare: 0, seed: 'fixed' }))).toBe(false);
    expect(ids.every((id) => keepsFullTrace(id, { keepShare: 1, seed: 'fixed' }))).toBe(true);
    const none = collapseHookRetriesSample(trajectories, { keepShare: 0, seed: 'fixed' });
    expect(none.some((outcome) => outcome.fullTrace)).toBe(false);
    expect(none.map((outcome) => json(outcome.trajectory))).toEqual(
      trajectories.map((trajectory) => json(collapseHookRetries(trajectory).trajectory)),
    );
    const all = collapseHookRetriesSample(trajectories, { keepShare: 1, seed: 'fixed' });
    all.forEach((outcome, index) => {
      const failed = withFailures.includes(trajectories[index]!);
      expect(outcome.fullTrace).toBe(failed);
      if (failed)
        expect(outcome).toEqual({
          trajectory: trajectories[index],
          collapsed: 0,
          kept: true,
          fullTrace: true,
        });
    });
  });

  it('depends on the seed and the id only', () => {
    const options = { keepShare: 0.5, seed: 'fixed' };
    expect(ids.map((id) => keepsFullTrace(id, options))).toEqual(
      ids.map((id) => keepsFullTrace(id, { ...options })),
    );
    const other = ids.filter((id) => keepsFullTrace(id, { keepShare: 0.5, seed: 'other' }));
    expect(other).not.toEqual(ids.filter((id) => keepsFullTrace(id, options)));
  });

  it('decides each trajectory the same whatever the order, batch or shard', () => {
    const options = { keepShare: 0.4, seed: 'shards' };
    const render = (outcomes: ReturnType<typeof collapseHookRetriesSample>) =>
      Object.fromEntries(outcomes.map((outcome) => [outcome.trajectory.id, json(outcome)]));
    const whole = render(collapseHookRetriesSample(trajectories, options));
    const reversed = render(collapseHookRetriesSample([...trajectories].reverse(), options));
    const sharded = render(
      [0, 1, 2].flatMap((shard) =>
        collapseHookRetriesSample(
          trajectories.filter((_, index) => index % 3 === shard),
          options,
        ),
      ),
    );
    const single = Object.fromEntries(
      trajectories.map((trajectory) => [trajectory.id, json(collapseHookRetriesSample(trajectory, options))]),
    );
    expect(reversed).toEqual(whole);
    expect(sharded).toEqual(whole);
    expect(single).toEqual(whole);
  });

  it('keeps the chosen trajectories whole and collapses the rest into valid ones', () => {
    const outcomes = collapseHookRetriesSample(withFailures, { keepShare: 0.3, seed: 'fixed' });
    const full = outcomes.filter((outcome) => outcome.fullTrace);
    expect(full.length).toBeGreaterThan(0);
    expect(full.length).toBeLessThan(outcomes.length);
    outcomes.forEach((outcome, index) => {
      const trajectory = withFailures[index]!;
      expect(outcome.fullTrace).toBe(keepsFullTrace(trajectory.id, { keepShare: 0.3, seed: 'fixed' }));
      if (outcome.fullTrace) {
        expect(outcome.trajectory).toBe(trajectory);
        expect(outcome).toMatchObject({ collapsed: 0, kept: true });
      } else {
        expect(outcome).toEqual({ ...collapseHookRetries(trajectory), fullTrace: false });
      }
      expect(validateTrajectory(outcome.trajectory, fixtureHarness).issues).toEqual([]);
    });
  });

  it('never marks a trajectory without hook failures as keeping its trace', () => {
    const clean = trajectories.filter((trajectory) => !withFailures.includes(trajectory));
    for (const outcome of collapseHookRetriesSample(clean, { keepShare: 1, seed: 'fixed' })) {
      expect(outcome).toMatchObject({ collapsed: 0, kept: false, fullTrace: false });
    }
  });

  it('rejects a keepShare outside [0, 1] and a seed that is not a string', () => {
    for (const keepShare of [-0.1, 1.5, Number.NaN]) {
      expect(() => keepsFullTrace('x', { keepShare, seed: 's' })).toThrow(HarnessAugmentError);
      expect(() => collapseHookRetriesSample([], { keepShare, seed: 's' })).toThrow(
        /keepShare must be a number in \[0, 1\]/,
      );
    }
    expect(() => keepsFullTrace('x', { keepShare: 0.5, seed: 42 as unknown as string })).toThrow(
      /seed must be a string/,
    );
  });
});
