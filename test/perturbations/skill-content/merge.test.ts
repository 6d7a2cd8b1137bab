import { describe, expect, it } from 'vitest';
import { mergeSkills } from '../../../perturbations/skill-content/merge.js';
import { certify } from '../../../src/augment/certificate.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import type { Harness } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { forwardTrajectory } from '../../../src/trajectory/relabel.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import {
  baggageTrajectory,
  call,
  result,
  travelHarness,
  travelHarnessInput,
} from '../../support/travel-harness.js';

const harness = travelHarness();
const trajectory = baggageTrajectory();
const applied = (output: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in output) throw new Error(`skipped: ${output.skip}`);
  return output;
};
const loadsOf = (moved: Trajectory) =>
  moved.messages.flatMap((message) =>
    message.role === 'assistant'
      ? (message.tool_calls ?? [])
          .filter((c) => c.function.name === 'load_skill')
          .map((c) => c.function.arguments)
      : [],
  );
const certified = (base: Harness, output: AppliedOperator, original: Trajectory) => {
  const moved = forwardTrajectory(original, output.relabel, output.harness).trajectory;
  return {
    moved,
    certificate: certify({
      base,
      variant: output.harness,
      original,
      rewritten: moved,
      relabel: output.relabel,
    }),
  };
};

/** Two user turns: the first loads `rebooking`, the second `baggage`. */
function twoTurnTrajectory(): Trajectory {
  const draft: Trajectory = {
    ...trajectory,
    id: 'two-turns',
    messages: [
      trajectory.messages[0]!,
      { role: 'user', content: 'My flight was cancelled, can you help?' },
      call('load_skill', { skill_id: 'rebooking' }, 't1'),
      result('t1', ''),
      { role: 'assistant', content: 'I am sorry. Let me look for another flight.' },
      ...trajectory.messages.slice(1),
    ],
  };
  return rederiveTrajectory(draft, harness).trajectory;
}

describe('skill-content/merge', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(mergeSkills, { cases: await lawCases() });
  });

  it('merges two skills of a kind under subheadings; loads follow with an exact inverse (golden)', async () => {
    const output = applied(
      await applyOperator(mergeSkills, harness, { rng: 'golden', severity: 1, trajectory }),
    );
    expect(output.harness.skills.items.map((skill) => [skill.id, skill.kind, skill.risk])).toEqual([
      ['rebooking_baggage', 'reply', 'medium'],
      ['apology_first', 'strategy', undefined],
    ]);
    const merged = output.harness.skills.items[0]!;
    expect(merged.description).toBe(
      'Rebook a passenger onto another flight; answer baggage allowance questions',
    );
    expect(merged.body).toBe(
      [
        '## Rebook a passenger onto another flight',
        '',
        harness.skills.items[0]!.body,
        '',
        '## Answer baggage allowance questions',
        '',
        harness.skills.items[1]!.body,
      ].join('\n'),
    );
    expect(output.relabel.steps).toEqual([
      {
        type: 'merge_skills',
        into: 'rebooking_baggage',
        sources: ['rebooking', 'baggage'],
        loads: ['baggage'],
        loadTurns: [1],
        loader: { tool: 'load_skill', argument: 'skill_id' },
      },
    ]);
    const { moved, certificate } = certified(harness, output, trajectory);
    expect(loadsOf(moved)).toEqual(['{"skill_id":"rebooking_baggage"}']);
    expect(moved.messages[3]?.content).toBe(merged.body);
    expect(certificate.issues).toEqual([]);
  });

  it('records the source of each load in order, so loads of both sources in different turns invert exactly', async () => {
    const original = twoTurnTrajectory();
    const output = applied(
      await applyOperator(mergeSkills, harness, { rng: 'golden', trajectory: original }),
    );
    expect(output.relabel.steps[0]).toMatchObject({ loads: ['rebooking', 'baggage'] });
    const { moved, certificate } = certified(harness, output, original);
    expect(loadsOf(moved)).toEqual(['{"skill_id":"rebooking_baggage"}', '{"skill_id":"rebooking_baggage"}']);
    expect(certificate.certified).toBe(true);
  });

  it('demotes a body’s own headings and rewrites mentions of the sources in other skills', async () => {
    const input = travelHarnessInput();
    input.skills.items[0]!.body = '# Rebooking\n- Call `find_flights`.\n';
    input.skills.items[2]!.body = 'Apologise once, then load `baggage`.';
    const output = applied(await applyOperator(mergeSkills, parseHarness(input), { rng: 'a', trajectory }));
    expect(output.harness.skills.items[0]?.body).toBe(
      '## Rebooking\n- Call `find_flights`.\n\n## Answer baggage allowance questions\n\n' +
        `${harness.skills.items[1]!.body}\n`,
    );
    expect(output.harness.skills.items[1]?.body).toBe('Apologise once, then load `rebooking_baggage`.');
  });

  it('merges a share of the disjoint pairs, one merge_skills step each', async () => {
    const input = travelHarnessInput();
    const [rebooking, baggage] = input.skills.items;
    input.skills.items.push({ ...rebooking!, id: 'seat_change' }, { ...baggage!, id: 'pets' });
    const four = parseHarness(input);
    const original = rederiveTrajectory(trajectory, four).trajectory;
    const output = applied(
      await applyOperator(mergeSkills, four, { rng: 'many', severity: 1, trajectory: original }),
    );
    expect(output.relabel.steps).toHaveLength(2);
    expect(output.harness.skills.items).toHaveLength(3);
    expect(certified(four, output, original).certificate.issues).toEqual([]);
    const one = applied(
      await applyOperator(mergeSkills, four, { rng: 'many', severity: 0.3, trajectory: original }),
    );
    expect(one.relabel.steps).toHaveLength(1);
  });

  it('skips without a trajectory, with fewer than two skills of a kind, or with sources loaded in one turn', async () => {
    expect(await applyOperator(mergeSkills, harness, { rng: 'x' })).toEqual({
      skip: 'merging needs the trajectory: the relabel records which source each load named',
    });
    const input = travelHarnessInput();
    input.skills.items = input.skills.items.slice(1);
    expect(await applyOperator(mergeSkills, parseHarness(input), { rng: 'x', trajectory })).toEqual({
      skip: 'fewer than two skills of one kind',
    });
    const together = structuredClone(trajectory);
    together.messages.splice(2, 0, call('load_skill', { skill_id: 'rebooking' }, 'r0'), result('r0', ''));
    expect(await applyOperator(mergeSkills, harness, { rng: 'x', trajectory: together })).toEqual({
      skip: 'the trajectory loads both skills of every same-kind pair in one turn',
    });
  });

  it('refuses a pair where one says it is not for what the other is for (docx: "Do NOT use for PDFs")', async () => {
    const input = travelHarnessInput();
    const rebooking = input.skills.items.find((skill) => skill.id === 'rebooking')!;
    rebooking.description = 'Rebook a disrupted trip. Do NOT use for baggage questions.';
    const refused = await applyOperator(mergeSkills, parseHarness(input), { rng: 'x', trajectory });
    expect(refused).toEqual({
      skip: expect.stringContaining('rebooking says it is not for "baggage", which baggage is for'),
    });
  });

  it('leaves out skills mentioned outside the skills part', async () => {
    const input = travelHarnessInput();
    input.prompt.sections[1]!.template += ' Prefer `rebooking` for disruptions.';
    expect(await applyOperator(mergeSkills, parseHarness(input), { rng: 'x', trajectory })).toEqual({
      skip: 'every same-kind pair has a skill that hooks, prompt or tools mention, or that a rule on which skills to use names',
    });
  });

  // An audit on obra/superpowers: brainstorming's "Do NOT invoke any implementation skill … until …" merged with
  // executing-plans made plans wait for an approved design, and "The ONLY skill you invoke after brainstorming
  // is writing-plans" came to name a merged skill that also debugs.
  it('refuses a skill whose text rules which skills are used', async () => {
    const input = travelHarnessInput();
    input.skills.items[0]!.body += '\nDo NOT invoke any other skill until the new flight is confirmed.';
    expect(await applyOperator(mergeSkills, parseHarness(input), { rng: 'x', trajectory })).toEqual({
      skip: expect.stringContaining('rebooking rules which skills are used ("Do NOT invoke any other skill'),
    });
  });

  it('leaves out a skill that a rule on which skills to use names, and merges one a plain sentence names', async () => {
    const gated = travelHarnessInput();
    gated.skills.items[2]!.body = 'Apologise once. The only skill you load after apologising is `baggage`.';
    expect(await applyOperator(mergeSkills, parseHarness(gated), { rng: 'x', trajectory })).toEqual({
      skip: 'every same-kind pair has a skill that hooks, prompt or tools mention, or that a rule on which skills to use names',
    });
    const plain = travelHarnessInput();
    plain.skills.items[2]!.body = 'Apologise once, then load `baggage`.';
    expect(
      applied(await applyOperator(mergeSkills, parseHarness(plain), { rng: 'x', trajectory })).relabel.steps,
    ).toHaveLength(1);
  });

  it('returns the input unchanged at severity 0', async () => {
    const output = applied(
      await applyOperator(mergeSkills, harness, { rng: 'zero', severity: 0, trajectory }),
    );
    expect(output.harness).toBe(harness);
  });
});
