import { describe, expect, it } from 'vitest';
import { renameSkillLoader } from '../../../perturbations/skill-ids/rename-loader.js';
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

describe('skill-ids/rename-loader', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(renameSkillLoader, {
      cases: await lawCases(),
      params: [
        {},
        { renameArgument: true },
        { renameArgument: false },
        { tool: 'skill_load', argument: 'skill' },
      ],
    });
  });

  it('renames the loader and its argument; loads and mentions follow (golden)', async () => {
    const result = applied(
      await applyOperator(renameSkillLoader, harness, { rng: 'golden', severity: 1, trajectory }),
    );
    // `load` is a domain term of the travel harness ("load the skill"): the drawn names keep it.
    expect(result.harness.skills.loader).toMatchObject({ tool: 'loadSkill', argument: 'id' });
    const moved = forwardTrajectory(trajectory, result.relabel, result.harness);
    const load = moved.trajectory.messages[2];
    expect(load?.role === 'assistant' && load.tool_calls?.[0]?.function).toEqual({
      name: 'loadSkill',
      arguments: '{"id":"baggage"}',
    });
    expect(moved.trajectory.tools?.[0]?.function.name).toBe('loadSkill');
    const feedback = result.harness.hooks.items.find((hook) => hook.id === 'reply_skill')?.onFail;
    expect(feedback?.action === 'retry' && feedback.feedback).toBe(
      'Load a {{kind}} skill with loadSkill before replying.',
    );
    const certificate = certify({
      base: harness,
      variant: result.harness,
      original: trajectory,
      rewritten: moved.trajectory,
      relabel: result.relabel,
    });
    expect(certificate.certified).toBe(true);
  });

  it('takes the names from the params, and keeps the argument when asked to', async () => {
    const named = applied(
      await applyOperator(renameSkillLoader, harness, {
        rng: 'x',
        params: { tool: 'get_skill', argument: 'name' },
      }),
    );
    expect(named.harness.skills.loader).toMatchObject({ tool: 'get_skill', argument: 'name' });
    const kept = applied(
      await applyOperator(renameSkillLoader, harness, { rng: 'x', params: { renameArgument: false } }),
    );
    expect(kept.harness.skills.loader.argument).toBe('skill_id');
    expect(kept.harness.skills.loader.tool).not.toBe('load_skill');
  });

  it('skips a loader name the harness already uses', async () => {
    expect(
      await applyOperator(renameSkillLoader, harness, { rng: 'x', params: { tool: 'find_flights' } }),
    ).toEqual({
      skip: '"find_flights" is already used by the harness',
    });
  });

  // An audit on τ-bench airline built from tools alone: the loader of no skills was renamed in most rows, and
  // in some it was the only change.
  it('skips a harness without skills: no loader is offered', async () => {
    const input = travelHarnessInput();
    input.skills.items = [];
    input.prompt.sections = input.prompt.sections.filter((section) => !section.template.includes('loader'));
    expect(await applyOperator(renameSkillLoader, parseHarness(input), { rng: 'x' })).toEqual({
      skip: 'the harness has no skills, so no loader is offered',
    });
  });

  it('skips when the trajectory names the loader in a reply', async () => {
    const mentioning: Trajectory = structuredClone(trajectory);
    mentioning.messages.push({ role: 'assistant', content: 'I called load_skill first.' });
    expect(await applyOperator(renameSkillLoader, harness, { rng: 'x', trajectory: mentioning })).toEqual({
      skip: 'the trajectory names "load_skill" in a reply or a tool result; renaming would change it',
    });
  });

  // A name pattern addresses a family of tools ("Use 'search_*' tools …", GitHub's MCP server): the loader
  // neither leaves one nor joins one.
  it('keeps a loader a name pattern matches, and draws no name a pattern matches', async () => {
    const withPattern = (text: string) => {
      const input = travelHarnessInput();
      input.prompt.sections.push({ id: 'families', title: 'Tool families', template: text });
      return parseHarness(input);
    };
    expect(
      await applyOperator(renameSkillLoader, withPattern("Call the 'load_*' tools first."), { rng: 'x' }),
    ).toEqual({ skip: 'a name pattern of a text matches "load_skill", which a rename could not follow' });
    const family = withPattern("Use 'get_*' and 'use_*' tools only when asked; `skill_*` tools load rules.");
    for (let index = 0; index < 16; index++) {
      const result = applied(await applyOperator(renameSkillLoader, family, { rng: `family-${index}` }));
      expect(result.harness.skills.loader.tool).not.toMatch(/^(?:get_|use_|skill_)/u);
    }
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(renameSkillLoader, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
  });
});
