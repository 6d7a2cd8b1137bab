// The generic rewards on a small airline harness: every case is played through the runtime (so the hook
// markers are the runtime's own) and read against a gold played the same way; the figures are the worked
// examples of docs/rewards.md.
import { describe, expect, it } from 'vitest';
import { renameSymbols } from '../../../src/augment/rename-symbols.js';
import type { Harness } from '../../../src/harness/schema.js';
import { runTurn } from '../../../src/runtime/agent-loop.js';
import { Episode } from '../../../src/runtime/episode.js';
import { taskFromTrajectory } from '../../../src/runtime/episode-task.js';
import { rulesJudge } from '../../../src/runtime/judge.js';
import {
  groundingReward,
  hookComplianceReward,
  judgeReplies,
  quotedFacts,
  scoreGeneric,
  toolCallMatchReward,
  withReplyScore,
} from '../../../src/runtime/rewards/generic/index.js';
import type { ScenarioVariant, ScoreInput } from '../../../src/runtime/scenario.js';
import { toolsFromFunctions } from '../../../src/runtime/tool-runtime.js';
import { ScriptedModel } from '../../../src/scenarios/replay/index.js';
import type { AssistantMessage, Trajectory } from '../../../src/trajectory/schema.js';
import { travelContext, travelHarness } from '../../support/travel-harness.js';

const base = travelHarness();
const backend = toolsFromFunctions({
  find_flights: ({ origin, destination }) => ({
    flights: [{ flight: 'HA 214', from: origin, to: destination, fare_eur: 89, seats_left: 4 }],
  }),
  hold_seat: ({ flight }) => ({ held: true, flight, minutes: 20 }),
  get_baggage_policy: () => ({ cabin_kg: 8, checked_kg: 23 }),
});

let ids = 0;
const calls = (...list: [string, unknown][]): AssistantMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: list.map(([name, args]) => ({
    id: `c${++ids}`,
    type: 'function' as const,
    function: { name, arguments: JSON.stringify(args) },
  })),
});
const reply = (content: string): AssistantMessage => ({ role: 'assistant', content });

const find = ['find_flights', { origin: 'LIS', destination: 'OPO', date: '2026-12-03' }] as [string, unknown];
const hold = ['hold_seat', { flight: 'HA 214', passengers: [{ name: 'Ana Souza' }] }] as [string, unknown];
const loadRebooking = () => calls(['load_skill', { skill_id: 'rebooking' }]);
const question = 'My flight was cancelled, rebook me LIS to OPO on 2026-12-03.';

/** Plays one turn of `script` under `harness` through the runtime. */
async function play(script: AssistantMessage[], harness: Harness = base, id = 'ep'): Promise<Trajectory> {
  const episode = new Episode({ harness, context: travelContext, tools: backend });
  const model = new ScriptedModel([script]);
  await episode.user(question);
  model.startTurn(0);
  await runTurn(episode, model);
  episode.close();
  return episode.trajectory(id);
}

const gold = await play(
  [loadRebooking(), calls(find), calls(hold), reply('Held HA 214 for you at 89 EUR.')],
  base,
  'gold',
);
const episode = { id: 'gold', context: travelContext, task: taskFromTrajectory(gold, base), gold };
const input = (trajectory: Trajectory, variant?: ScenarioVariant): ScoreInput => ({
  base,
  seed: '1',
  episode,
  trajectory,
  ...(variant ? { variant } : {}),
});

describe('tool-call match', () => {
  it('is 1 for the gold itself', () => {
    expect(scoreGeneric(input(gold)).rewards).toEqual({
      toolCallMatch: 1,
      skillSelection: 1,
      hookCompliance: 1,
      grounding: 1,
    });
  });

  it('a skipped call: 2 gold calls, 1 played, 1 matched → F1 2/3', async () => {
    const played = await play([loadRebooking(), calls(find), reply('HA 214 is 89 EUR.')]);
    const { score, details } = toolCallMatchReward(input(played));
    expect(score).toBeCloseTo(2 / 3, 12);
    expect(details).toMatchObject({ precision: 1, recall: 0.5, gold: 2, played: 1, matched: 1 });
    expect(details.findings).toEqual([
      expect.objectContaining({
        code: 'missing_call',
        turn: 0,
        values: ['hold_seat', hold[1] && JSON.stringify(hold[1])],
      }),
    ]);
  });

  it('other arguments: the name matches, the call does not → F1 1/2, name F1 1', async () => {
    const played = await play([
      loadRebooking(),
      calls(find),
      calls(['hold_seat', { flight: 'HA 216', passengers: [{ name: 'Ana Souza' }] }]),
      reply('Held HA 216.'),
    ]);
    const { score, details } = toolCallMatchReward(input(played));
    expect(score).toBe(0.5);
    expect(details.nameF1).toBe(1);
    expect(details.findings.map((finding) => finding.code).sort()).toEqual(['extra_call', 'missing_call']);
    expect(details.findings.find((finding) => finding.code === 'extra_call')).toMatchObject({
      turn: 0,
      message: 6,
      call: 0,
    });
  });

  it('order counts across steps, not within one message', async () => {
    const swapped = await play([
      loadRebooking(),
      calls(hold),
      calls(find),
      reply('Held HA 214 for you at 89 EUR.'),
    ]);
    expect(toolCallMatchReward(input(swapped)).score).toBe(0.5);
    const parallel = await play([
      loadRebooking(),
      calls(hold, find),
      reply('Held HA 214 for you at 89 EUR.'),
    ]);
    expect(toolCallMatchReward(input(parallel)).score).toBe(1);
  });

  it('under a variant: the relabelled calls match; base names, which the variant does not have, do not', async () => {
    const variant = renameSymbols(base, {
      tools: { find_flights: 'search_trips' },
      parameters: [
        { tool: 'find_flights', path: ['origin'], to: 'from_airport' },
        { tool: 'hold_seat', path: ['passengers', '[]', 'name'], to: 'full_name' },
      ],
    });
    const relabelled = await play(
      [
        loadRebooking(),
        calls(['search_trips', { from_airport: 'LIS', destination: 'OPO', date: '2026-12-03' }]),
        calls(['hold_seat', { flight: 'HA 214', passengers: [{ full_name: 'Ana Souza' }] }]),
        reply('Held HA 214 for you at 89 EUR.'),
      ],
      variant.harness,
    );
    expect(scoreGeneric(input(relabelled, variant)).rewards).toMatchObject({
      toolCallMatch: 1,
      skillSelection: 1,
    });
    const memorised = await play(
      [loadRebooking(), calls(find), calls(hold), reply('Held HA 214 for you at 89 EUR.')],
      variant.harness,
    );
    const { score, details } = toolCallMatchReward(input(memorised, variant));
    // find_flights does not exist there and hold_seat's `passengers[].name` fails the variant's schema: the
    // argument hook rejects both calls, so none is played and both gold calls are missing.
    expect(score).toBe(0);
    expect(details).toMatchObject({ gold: 2, played: 0 });
    expect(details.findings.map((finding) => finding.code)).toEqual(['missing_call', 'missing_call']);
    expect(hookComplianceReward(input(memorised, variant)).score).toBe(0);
  });

  it('without a gold trajectory, compares the labels’ tool names', async () => {
    const { gold: _gold, ...labelsOnly } = episode;
    const played = await play([loadRebooking(), calls(find), reply('HA 214 is 89 EUR.')]);
    const { score, details } = toolCallMatchReward({
      base,
      seed: '1',
      episode: labelsOnly,
      trajectory: played,
    });
    expect(details.mode).toBe('names');
    expect(score).toBeCloseTo(2 / 3, 12);
  });
});

describe('skill selection, hook compliance, grounding', () => {
  it('skill selection is the Jaccard of the loaded and the gold skills', async () => {
    const played = await play([
      calls(['load_skill', { skill_id: 'rebooking' }], ['load_skill', { skill_id: 'baggage' }]),
      calls(find),
      calls(hold),
      reply('Held HA 214 for you at 89 EUR.'),
    ]);
    expect(scoreGeneric(input(played)).rewards.skillSelection).toBe(0.5);
  });

  it('a corrected failure complies; a failure left to the block does not', async () => {
    const long = `Held HA 214 for you at 89 EUR. ${'We are sorry for the trouble. '.repeat(3)}`;
    const corrected = await play([
      loadRebooking(),
      calls(find),
      calls(hold),
      reply(long),
      reply('Held HA 214 for you at 89 EUR.'),
    ]);
    expect(hookComplianceReward(input(corrected))).toMatchObject({
      score: 1,
      details: { turns: [{ failed: ['short_reply'], complies: true }] },
    });
    const stuck = await play([
      loadRebooking(),
      calls(find),
      calls(hold),
      reply(long),
      reply(long),
      reply(long),
    ]);
    const { score, details } = hookComplianceReward(input(stuck));
    expect(score).toBe(0);
    expect(details.findings[0]).toMatchObject({ code: 'uncorrected_hook_failure', turn: 0 });
  });

  it('grounding: numbers and quotes of the reply found in tool results, user messages or context', async () => {
    const played = await play([
      loadRebooking(),
      calls(find),
      calls(hold),
      reply('Held “HA 214” for “Ana Souza”, 89 EUR, “window seat”.'),
    ]);
    const { score, details } = groundingReward(input(played));
    // Numbers 214 and 89 (tool result), quotes "HA 214" (tool result) and "Ana Souza" (context) are found; "window seat" is not.
    expect(score).toBe(4 / 5);
    expect(details.findings).toEqual([
      expect.objectContaining({ code: 'ungrounded_quote', values: ['window seat'] }),
    ]);
    expect(quotedFacts('say "hi there" and 「限时」')).toEqual(['hi there', '限时']);
    // Every quote form of the protected-content rule, in text order; an apostrophe inside a word opens none.
    expect(quotedFacts("it's 《说明书》, ‘VIP’ and 'free gift', not 'x\ny'")).toEqual([
      '说明书',
      'VIP',
      'free gift',
    ]);
  });

  it('grounding: the body of a skill the agent loaded is a source, of a skill it did not load is not', async () => {
    const played = await play([
      loadRebooking(),
      calls(find),
      calls(hold),
      reply('HA 214, 89 EUR: “quote fares exactly”, “state weights in kilograms”.'),
    ]);
    const { score, details } = groundingReward(input(played));
    // "quote fares exactly" is in the loaded `rebooking` body; "state weights in kilograms" is in `baggage`, never loaded.
    expect(score).toBe(3 / 4);
    expect(details.findings).toEqual([
      expect.objectContaining({ code: 'ungrounded_quote', values: ['state weights in kilograms'] }),
    ]);
  });

  it('weights the total and refuses bad weights', () => {
    const score = scoreGeneric(input(gold), { weights: { grounding: 0 } });
    expect(score.total).toBe(1);
    expect(() => scoreGeneric(input(gold), { weights: { grounding: -1 } })).toThrow(/finite number/);
  });
});

describe('judgeReplies', () => {
  it('asks a judge k times on the base vocabulary and adds its score as the reply reward', async () => {
    const verdict = await judgeReplies(input(gold), { judge: rulesJudge(), k: 3 });
    expect(verdict).toMatchObject({ keep: true, votes: expect.any(Array) });
    const score = withReplyScore(scoreGeneric(input(gold)), verdict);
    expect(score.rewards.reply).toBe(verdict.score);
    expect(Object.keys(score.rewards)).toEqual([
      'toolCallMatch',
      'skillSelection',
      'hookCompliance',
      'grounding',
      'reply',
    ]);
  });
});
