import { describe, expect, it } from 'vitest';
import { dropUnused } from '../../../perturbations/tools/drop-unused.js';
import { certify } from '../../../src/augment/certificate.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import type { Harness } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { forwardTrajectory } from '../../../src/trajectory/relabel.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory, validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import { baggageTrajectory, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';
import { flightCase } from './flight-case.js';

const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const names = (result: AppliedOperator) => result.harness.tools.items.map((tool) => tool.name);
const extraTool = (name: string, description = 'Lists the airports we serve.') => ({
  name,
  description,
  parameters: { type: 'object', properties: { country: { type: 'string' } } },
});
/** The travel harness with extra tools that no text mentions; `find_flights` and `hold_seat` are named in a skill. */
function roomyHarness(): Harness {
  const input = travelHarnessInput();
  input.tools.items.push(
    extraTool('list_airports'),
    extraTool('get_lounge_access', 'Lounge rules.'),
    extraTool('get_meal_options', 'Meals.'),
  );
  return parseHarness(input);
}
const under = (harness: Harness, trajectory: Trajectory) =>
  validateTrajectory(rederiveTrajectory(trajectory, harness).trajectory, harness).trajectory as Trajectory;

describe('tools/drop-unused', () => {
  it('obeys the operator laws', async () => {
    const roomy = roomyHarness();
    const roomyCase = {
      name: 'travel-roomy',
      harness: roomy,
      trajectories: [under(roomy, baggageTrajectory())],
    };
    await checkOperatorLaws(dropUnused, { cases: [...(await lawCases()), flightCase(), roomyCase] });
  });

  it('drops unused, unmentioned tools, a share equal to the severity (golden)', async () => {
    const roomy = roomyHarness();
    const trajectory = under(roomy, baggageTrajectory());
    const run = async (severity: number) =>
      names(applied(await applyOperator(dropUnused, roomy, { rng: 'golden', severity, trajectory })));
    expect(await run(0.1)).toEqual([
      'find_flights',
      'hold_seat',
      'get_baggage_policy',
      'list_airports',
      'get_meal_options',
    ]);
    // list_airports stays: find_flights's description speaks of airports ("between two airports").
    expect(await run(1)).toEqual(['find_flights', 'hold_seat', 'get_baggage_policy', 'list_airports']);
    const result = applied(
      await applyOperator(dropUnused, roomy, { rng: 'golden', severity: 1, trajectory }),
    );
    const rewritten = forwardTrajectory(trajectory, result.relabel, result.harness).trajectory;
    expect(
      certify({
        base: roomy,
        variant: result.harness,
        original: trajectory,
        rewritten,
        relabel: result.relabel,
      }).issues,
    ).toEqual([]);
    expect(rewritten.tools?.map((tool) => tool.function.name)).toEqual([
      'load_skill',
      'find_flights',
      'hold_seat',
      'get_baggage_policy',
      'list_airports',
    ]);
  });

  it('keeps tools mentioned in a prompt template, a hook message or a reply', async () => {
    const input = travelHarnessInput();
    input.tools.items.push(
      extraTool('list_airports'),
      extraTool('get_lounge_access', 'Lounge rules.'),
      extraTool('get_meal_options', 'Meals.'),
    );
    input.prompt.sections.push({
      id: 'tips',
      title: 'Tips',
      template: 'Use list_airports for unknown codes.',
    });
    const hook = input.hooks.items.find((candidate) => candidate.id === 'tool_budget')!;
    hook.onFail = { action: 'fallback', reply: 'Too many calls; try get_lounge_access later.' };
    const mentioned = parseHarness(input);
    const trajectory = under(mentioned, baggageTrajectory());
    const result = applied(await applyOperator(dropUnused, mentioned, { rng: 'm', severity: 1, trajectory }));
    expect(names(result)).toEqual([
      'find_flights',
      'hold_seat',
      'get_baggage_policy',
      'list_airports',
      'get_lounge_access',
    ]);
  });

  it('keeps a tool that a text describes in prose, as τ-bench retail describes transfer_to_human_agents', async () => {
    const input = travelHarnessInput();
    input.tools.items.push(
      extraTool('transfer_to_human_agents', 'Transfer the conversation.'),
      extraTool('get_meal_options', 'Meals.'),
    );
    input.prompt.sections.push({
      id: 'policy',
      title: 'Policy',
      template: 'Transfer the passenger to a human agent if and only if the request is out of scope.',
    });
    const described = parseHarness(input);
    const trajectory = under(described, baggageTrajectory());
    const result = applied(await applyOperator(dropUnused, described, { rng: 'p', severity: 1, trajectory }));
    expect(names(result)).toContain('transfer_to_human_agents');
    expect(names(result)).not.toContain('get_meal_options');
  });

  it('reads a list item with the line that introduces it, as τ²-bench telecom lists its customer lookups', async () => {
    const input = travelHarnessInput();
    input.tools.items.push(
      extraTool('lookup_subscriber_by_phone', 'Finds a subscriber by phone number.'),
      extraTool('lookup_subscriber_by_name', 'Searches for subscribers by name and date of birth.'),
      extraTool('get_meal_options', 'Meals.'),
    );
    input.prompt.sections.push({
      id: 'lookup',
      title: 'Customer lookup',
      template:
        'You can look up subscriber information using:\n- Phone number\n- Full name with date of birth',
    });
    const described = parseHarness(input);
    const trajectory = under(described, baggageTrajectory());
    const result = applied(await applyOperator(dropUnused, described, { rng: 'p', severity: 1, trajectory }));
    expect(names(result)).toEqual(
      expect.arrayContaining(['lookup_subscriber_by_phone', 'lookup_subscriber_by_name']),
    );
    expect(names(result)).not.toContain('get_meal_options');
  });

  it('reads past a registry namespace, and a word of the name written as two (the MCP git server)', async () => {
    const input = travelHarnessInput();
    input.tools.items.push(
      ...['git_checkout', 'git_add', 'git_log', 'git_status', 'git_diff'].map((name) =>
        extraTool(name, 'A git command.'),
      ),
    );
    input.prompt.sections.push({
      id: 'git',
      title: 'Git',
      template: 'Do not check out another branch while there are unstaged changes.',
    });
    const described = parseHarness(input);
    const trajectory = under(described, baggageTrajectory());
    const result = applied(await applyOperator(dropUnused, described, { rng: 'g', severity: 1, trajectory }));
    expect(names(result)).toContain('git_checkout');
    expect(names(result)).not.toContain('git_log');
  });

  it('keeps at least one tool', async () => {
    const input = travelHarnessInput();
    input.tools.items = [extraTool('list_airports'), extraTool('get_meal_options', 'Meals.')];
    input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
    const lonely = parseHarness(input);
    const trajectory = validateTrajectory(
      rederiveTrajectory(
        {
          ...baggageTrajectory(),
          messages: [
            ...baggageTrajectory().messages.slice(0, 4),
            { role: 'assistant', content: 'You may bring one bag.' },
          ],
        },
        lonely,
      ).trajectory,
      lonely,
    );
    expect(trajectory.issues).toEqual([]);
    const result = applied(
      await applyOperator(dropUnused, lonely, { rng: 'k', severity: 1, trajectory: trajectory.trajectory! }),
    );
    expect(names(result)).toHaveLength(1);
  });

  it('skips without a trajectory, and when every tool is used or mentioned', async () => {
    const travel = travelHarness();
    expect(await applyOperator(dropUnused, travel, { rng: 'x' })).toEqual({
      skip: 'without a trajectory, every tool counts as used',
    });
    expect(await applyOperator(dropUnused, travel, { rng: 'x', trajectory: baggageTrajectory() })).toEqual({
      skip: 'every tool is called by the trajectory or mentioned or described in a text',
    });
    const zero = applied(await applyOperator(dropUnused, travel, { rng: 'x', severity: 0 }));
    expect(zero.harness).toBe(travel);
  });
});
