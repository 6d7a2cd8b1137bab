import { describe, expect, it } from 'vitest';
import { nestArguments } from '../../../perturbations/tools/nest-arguments.js';
import { certify } from '../../../src/augment/certificate.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import type { HarnessInput } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { forwardTrajectory, inverseTrajectory } from '../../../src/trajectory/relabel.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory, validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import {
  baggageTrajectory,
  call,
  result,
  travelHarness,
  travelHarnessInput,
} from '../../support/travel-harness.js';
import { flightCase, rebookingTrajectory, retryTrajectory } from './flight-case.js';

const harness = travelHarness();
const applied = (output: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in output) throw new Error(`skipped: ${output.skip}`);
  return output;
};
const withTools = (items: HarnessInput['tools']['items']) => {
  const input = travelHarnessInput();
  input.tools.items = items;
  input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
  return parseHarness(input);
};
const argumentsOf = (trajectory: Trajectory) =>
  trajectory.messages.flatMap((message) =>
    message.role === 'assistant'
      ? (message.tool_calls ?? []).map((toolCall) => toolCall.function.arguments)
      : [],
  );

describe('tools/nest-arguments', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(nestArguments, {
      cases: [...(await lawCases()), flightCase()],
      params: [{}, { wrapper: 'payload' }],
    });
  });

  it('wraps the schema and the arguments, with an exact inverse (golden)', async () => {
    const output = applied(await applyOperator(nestArguments, harness, { rng: 'golden', severity: 0.3 }));
    expect(output.relabel.steps).toEqual([{ type: 'nest_arguments', tool: 'hold_seat', under: 'query' }]);
    expect(output.harness.tools.items[1]?.parameters).toEqual({
      type: 'object',
      properties: { query: harness.tools.items[1]?.parameters },
      required: ['query'],
      additionalProperties: false,
    });
    const trajectory = rebookingTrajectory();
    const moved = forwardTrajectory(trajectory, output.relabel, output.harness).trajectory;
    expect(argumentsOf(moved)[2]).toBe(
      '{"query":{ "flight": "HA 310", "passengers": [ {"name": "Ana Souza"} ] }}',
    );
    expect(inverseTrajectory(moved, output.relabel, harness).trajectory).toEqual(trajectory);
    const all = applied(await applyOperator(nestArguments, harness, { rng: 'golden', severity: 1 }));
    // `call` is a word of the travel harness's prompt, so the draw is among the others; `options` never
    // wraps `find_flights`' required `origin`.
    expect(all.relabel.steps.map((step) => step.type === 'nest_arguments' && step.under)).toEqual([
      'arguments',
      'query',
      'query',
    ]);
  });

  it('keeps a rejected call rejected for the same hook', async () => {
    const trajectory = retryTrajectory();
    const output = applied(
      await applyOperator(nestArguments, harness, { rng: 'r', severity: 1, trajectory }),
    );
    const rewritten = forwardTrajectory(trajectory, output.relabel, output.harness).trajectory;
    expect(
      certify({
        base: harness,
        variant: output.harness,
        original: trajectory,
        rewritten,
        relabel: output.relabel,
      }).issues,
    ).toEqual([]);
  });

  it('avoids wrapper names that are identifiers, keeps $schema and $defs at the root', async () => {
    const defs = withTools([
      {
        name: 'search_items',
        description: 'Searches items.',
        parameters: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { query: { type: 'string' }, params: { $ref: '#/$defs/paging' } },
          $defs: { paging: { type: 'object', properties: { page: { type: 'integer' } } } },
        },
      },
    ]);
    for (const seed of ['a', 'b', 'c', 'd']) {
      const output = applied(await applyOperator(nestArguments, defs, { rng: seed }));
      const parameters = output.harness.tools.items[0]?.parameters as Record<string, unknown>;
      const wrapper = (parameters.required as string[])[0];
      expect(['query', 'params']).not.toContain(wrapper);
      expect(parameters.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(parameters.$defs).toBeDefined();
      expect(Object.keys((parameters.properties as Record<string, object>)[wrapper!]!)).toEqual([
        'type',
        'properties',
      ]);
    }
    expect(await applyOperator(nestArguments, defs, { rng: 'x', params: { wrapper: 'query' } })).toEqual({
      skip: 'the wrapper name(s) query are identifiers or words of the harness',
    });
  });

  it("takes no default wrapper that the harness's texts use as a word (τ-bench retail's item options)", async () => {
    const retail = withTools([
      {
        name: 'exchange_items',
        description:
          'Exchange items for other Options of the product: the query, params, input, request, args, arguments and data of the order.',
        parameters: {
          type: 'object',
          properties: { item_ids: { type: 'array', items: { type: 'string' } } },
        },
      },
    ]);
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const output = applied(await applyOperator(nestArguments, retail, { rng: seed, severity: 1 }));
      const wrapper = (output.harness.tools.items[0]!.parameters.required as string[])[0];
      expect(wrapper).toBe('payload');
    }
    // A wrapper the author asks for is theirs to choose.
    const asked = applied(
      await applyOperator(nestArguments, retail, { rng: 'x', params: { wrapper: 'options' } }),
    );
    expect(asked.harness.tools.items[0]?.parameters.required).toEqual(['options']);
  });

  it('leaves tools alone whose refs or calls could not move exactly', async () => {
    const risky = withTools([
      {
        name: 'get_rate',
        description: 'Rates.',
        parameters: { type: 'object', properties: { a: { type: 'string' }, b: { $ref: '#/properties/a' } } },
      },
      {
        name: 'get_fee',
        description: 'Fees.',
        parameters: { type: 'object', properties: { code: { type: 'string' } } },
      },
    ]);
    const first = risky.skills.items[1]!;
    const draft: Trajectory = {
      ...baggageTrajectory(),
      messages: [
        { role: 'system', content: '' },
        { role: 'user', content: 'Fee?' },
        call('load_skill', JSON.stringify({ skill_id: first.id }), 'f1'),
        result('f1', ''),
        call('get_fee', ' {"code":"X"}', 'f2'),
        result('f2', '{"fee": 3}'),
        { role: 'assistant', content: 'The fee is 3.' },
      ],
    };
    const trajectory = validateTrajectory(rederiveTrajectory(draft, risky).trajectory, risky);
    expect(trajectory.issues).toEqual([]);
    expect(
      await applyOperator(nestArguments, risky, { rng: 'x', trajectory: trajectory.trajectory! }),
    ).toEqual({
      skip: 'no tool can have its arguments nested exactly',
    });
    expect(applied(await applyOperator(nestArguments, risky, { rng: 'x' })).relabel.steps).toMatchObject([
      { type: 'nest_arguments', tool: 'get_fee' },
    ]);
    expect(applied(await applyOperator(nestArguments, risky, { rng: 'x', severity: 0 })).harness).toBe(risky);
  });

  it('leaves a tool that takes no arguments alone (MCP filesystem server)', async () => {
    // @modelcontextprotocol/server-filesystem (MIT), list_allowed_directories: its inputSchema is `{}`,
    // listed as {"type":"object","properties":{}}.
    const servers = withTools([
      {
        name: 'list_allowed_directories',
        description:
          'Returns the list of directories that this server is allowed to access. Subdirectories within these allowed directories are also accessible. Use this to understand which directories and their nested paths are available before trying to access files.',
        parameters: { type: 'object', properties: {} },
      },
      { name: 'get_time', description: 'The time now.', parameters: { type: 'object' } },
      {
        name: 'get_fee',
        description: 'Fees.',
        parameters: { type: 'object', properties: { code: { type: 'string' } } },
      },
    ]);
    const output = applied(await applyOperator(nestArguments, servers, { rng: 'x', severity: 1 }));
    expect(output.relabel.steps).toMatchObject([{ type: 'nest_arguments', tool: 'get_fee' }]);
    expect(output.harness.tools.items.slice(0, 2)).toEqual(servers.tools.items.slice(0, 2));
    expect(
      await applyOperator(nestArguments, withTools(servers.tools.items.slice(0, 2)), { rng: 'x' }),
    ).toEqual({
      skip: 'no tool can have its arguments nested exactly',
    });
  });
});
