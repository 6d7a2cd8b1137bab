import { describe, expect, it } from 'vitest';
import { renameSkillIds } from '../../../perturbations/skill-ids/rename.js';
import { certify } from '../../../src/augment/certificate.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { forwardTrajectory } from '../../../src/trajectory/relabel.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { lawCases } from '../../support/law-cases.js';
import { baggageTrajectory, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

const harness = travelHarness();
const trajectory = baggageTrajectory();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const ids = (result: AppliedOperator) => result.harness.skills.items.map((skill) => skill.id);
const styles = ['snake', 'camel', 'kebab', 'opaque', 'phrase', 'non-ascii', 'mixed'] as const;

describe('skill-ids/rename', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(renameSkillIds, {
      cases: await lawCases(),
      params: styles.map((style) => ({ style })),
    });
  });

  it('re-cases ids in the style asked, adding a word when the id already reads that way (golden)', async () => {
    const run = (style: string) =>
      applyOperator(renameSkillIds, harness, { rng: 'golden', severity: 1, params: { style } });
    expect(ids(applied(await run('camel')))).toEqual(['rebookingNotes', 'baggagePlaybook', 'apologyFirst']);
    expect(ids(applied(await run('kebab')))).toEqual([
      'rebooking-notes',
      'baggage-playbook',
      'apology-first',
    ]);
    expect(ids(applied(await run('snake')))).toEqual([
      'rebooking_notes',
      'baggage_playbook',
      'apology_first_rules',
    ]);
  });

  it('makes opaque codes, phrases (of the id, then of its description) and non-ASCII labels (golden)', async () => {
    const run = (style: string) =>
      applyOperator(renameSkillIds, harness, { rng: 'golden', severity: 1, params: { style } });
    expect(ids(applied(await run('opaque')))).toEqual(['S-39', 'S-49', 'S-87']);
    expect(ids(applied(await run('phrase')))).toEqual([
      'rebooking notes',
      'baggage notes',
      'apology first notes',
    ]);
    expect(ids(applied(await run('non-ascii')))).toEqual(['予約変更', '手荷物', '謝罪優先']);
  });

  it('moves the gold trajectory with an exact inverse, in every style', async () => {
    for (const style of styles) {
      const result = applied(
        await applyOperator(renameSkillIds, harness, { rng: `s-${style}`, params: { style }, trajectory }),
      );
      const moved = forwardTrajectory(trajectory, result.relabel, result.harness);
      const certificate = certify({
        base: harness,
        variant: result.harness,
        original: trajectory,
        rewritten: moved.trajectory,
        relabel: result.relabel,
      });
      expect(certificate.issues).toEqual([]);
      const load = moved.trajectory.messages[2];
      const renamed = result.harness.skills.items[1]?.id as string;
      expect(load?.role === 'assistant' && load.tool_calls?.[0]?.function.arguments).toBe(
        JSON.stringify({ skill_id: renamed }),
      );
    }
  });

  it('renames a share of the skills equal to the severity, at least one', async () => {
    const changed = async (severity: number) => {
      const result = applied(
        await applyOperator(renameSkillIds, harness, { rng: 'share', severity, params: { style: 'opaque' } }),
      );
      return ids(result).filter((id, index) => id !== harness.skills.items[index]?.id).length;
    };
    expect(await changed(0.01)).toBe(1);
    expect(await changed(0.67)).toBe(2);
    expect(await changed(1)).toBe(3);
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(renameSkillIds, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
    expect(result.relabel.steps).toEqual([]);
  });

  it('rewrites mentions of the renamed ids elsewhere in the harness', async () => {
    const input = travelHarnessInput();
    input.prompt.sections.push({
      id: 'tips',
      title: 'Tips',
      template: 'Load `apology_first` when a flight is late.',
    });
    const withMention = parseHarness(input);
    const result = applied(
      await applyOperator(renameSkillIds, withMention, { rng: 'mention', params: { style: 'camel' } }),
    );
    expect(result.harness.prompt.sections.at(-1)?.template).toBe(
      'Load `apologyFirst` when a flight is late.',
    );
  });

  it('renames a mention after a namespace qualifier, as plugins name skills (`superpowers:<id>`)', async () => {
    const input = travelHarnessInput();
    input.prompt.sections.push({
      id: 'tips',
      title: 'Tips',
      template: 'REQUIRED SUB-SKILL: Use superpowers:apology_first when a flight is late.',
    });
    const result = applied(
      await applyOperator(renameSkillIds, parseHarness(input), {
        rng: 'mention',
        params: { style: 'camel' },
      }),
    );
    expect(result.harness.prompt.sections.at(-1)?.template).toBe(
      'REQUIRED SUB-SKILL: Use superpowers:apologyFirst when a flight is late.',
    );
  });

  it('renames a plain id where the word "skill" follows it, in the harness and the trajectory alike', async () => {
    // As public skills write it ("Convert it with the docx skill"): the id is a plain word, named as a skill.
    const input = travelHarnessInput();
    const baggage = input.skills.items.find((skill) => skill.id === 'baggage')!;
    baggage.body += '\nFor a missed connection, switch to the rebooking skill.';
    input.prompt.sections.push({
      id: 'tips',
      title: 'Tips',
      template: 'Answer allowance questions with the baggage skill; good rebooking skills matter.',
    });
    const base = parseHarness(input);
    const original = baggageTrajectory(base);
    const result = applied(
      await applyOperator(renameSkillIds, base, {
        rng: 'kind-word',
        severity: 1,
        params: { style: 'camel' },
        trajectory: original,
      }),
    );
    const renamed = (id: string) =>
      result.harness.skills.items[base.skills.items.findIndex((s) => s.id === id)]!.id;
    expect(renamed('baggage')).not.toBe('baggage');
    expect(renamed('rebooking')).not.toBe('rebooking');
    // The plural is prose and stays.
    expect(result.harness.prompt.sections.at(-1)?.template).toBe(
      `Answer allowance questions with the ${renamed('baggage')} skill; good rebooking skills matter.`,
    );
    expect(result.harness.skills.items.map((skill) => skill.body).join('\n')).toContain(
      `switch to the ${renamed('rebooking')} skill.`,
    );
    const moved = forwardTrajectory(original, result.relabel, result.harness);
    const loaded = moved.trajectory.messages[3];
    expect(loaded?.role === 'tool' && loaded.content).toContain(
      `switch to the ${renamed('rebooking')} skill.`,
    );
    const certificate = certify({
      base,
      variant: result.harness,
      original,
      rewritten: moved.trajectory,
      relabel: result.relabel,
    });
    expect(certificate.issues).toEqual([]);
  });

  // K-Dense-AI/claude-scientific-skills (899a51bf, MIT), research-lookup: a phrase id made this line "Every
  // research lookup rules result MUST be saved …", where the id no longer reads as a name.
  it('gives no phrase to a skill that prose names bare, only where "skill" follows every mention', async () => {
    const input = travelHarnessInput();
    const [first, second] = input.skills.items;
    input.skills.items = [
      {
        ...first!,
        id: 'research-lookup',
        description:
          'Look up current research information using the Parallel Chat API (primary) or Perplexity sonar-pro-search (academic paper searches).',
        body: "**Every research-lookup result MUST be saved to the project's `sources/` folder.**",
      },
      { ...second!, id: 'peer-review', body: 'Before you write, load the peer-review skill.' },
    ];
    const scientific = parseHarness(input);
    for (let seed = 0; seed < 12; seed++) {
      const renamed = ids(
        applied(
          await applyOperator(renameSkillIds, scientific, {
            rng: `phrase-${seed}`,
            severity: 1,
            params: { style: 'phrase' },
          }),
        ),
      );
      expect(renamed[0]).toMatch(/^research-lookup-[a-z]+$|^research-lookup-\d+$/u);
      expect(renamed[1]).toContain(' ');
    }
  });

  it('keeps names fresh: no collision with another identifier or with text of the harness', async () => {
    const input = travelHarnessInput();
    // `rebooking_notes` is taken by a hook and `rebooking_guide` appears in prose: neither may be chosen.
    input.hooks.items[0] = { ...input.hooks.items[0]!, id: 'rebooking_notes' };
    input.tools.items[0]!.description += ' See rebooking_guide.';
    const crowded = parseHarness(input);
    const result = applied(
      await applyOperator(renameSkillIds, crowded, {
        rng: 'golden',
        severity: 1,
        params: { style: 'snake' },
      }),
    );
    expect(ids(result)[0]).not.toMatch(/^rebooking_(notes|guide)$/);
    expect(new Set(ids(result)).size).toBe(3);
  });

  it('leaves skills alone that the trajectory names in a reply, and skips when that is every skill', async () => {
    const mentioning: Trajectory = structuredClone(trajectory);
    mentioning.messages.push({
      role: 'assistant',
      content: 'I used `baggage` and `rebooking` and `apology_first`.',
    });
    expect(await applyOperator(renameSkillIds, harness, { rng: 'x', trajectory: mentioning })).toEqual({
      skip: 'the trajectory names every skill in its replies or tool results; renaming would change them',
    });
    mentioning.messages.at(-1)!.content = 'I used `baggage`.';
    const result = applied(
      await applyOperator(renameSkillIds, harness, { rng: 'x', trajectory: mentioning }),
    );
    expect(ids(result)[1]).toBe('baggage');
  });

  it('skips a harness without skills', async () => {
    const input = travelHarnessInput();
    input.skills.items = [];
    expect(await applyOperator(renameSkillIds, parseHarness(input), { rng: 'x' })).toEqual({
      skip: 'the harness has no skills',
    });
  });
});
