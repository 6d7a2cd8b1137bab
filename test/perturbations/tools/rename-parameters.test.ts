import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renameParameters } from '../../../perturbations/tools/rename-parameters.js';
import { certify } from '../../../src/augment/certificate.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { importMcpTools } from '../../../src/harness/importers/mcp-tools.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { parameterNamesInOtherTools, parameterNamesInProse } from '../../../src/kit/mentions.js';
import { forwardTrajectory, inverseTrajectory } from '../../../src/trajectory/relabel.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { lawCases } from '../../support/law-cases.js';
import { projectRoot } from '../../support/run-cli.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';
import { flightCase, rebookingTrajectory, retryTrajectory } from './flight-case.js';

const harness = travelHarness();
const styles = ['snake', 'camel', 'kebab', 'opaque', 'phrase', 'mixed'] as const;
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
/** `tool:path.to.old->new` for every rename of the relabel. */
const renames = (result: AppliedOperator) =>
  result.relabel.steps.flatMap((step) =>
    step.type === 'rename_arguments'
      ? step.renames.map((rename) => `${step.tool}:${[...rename.path, rename.from].join('.')}->${rename.to}`)
      : [],
  );
const moveAndCertify = (result: AppliedOperator, trajectory: Trajectory) => {
  const rewritten = forwardTrajectory(trajectory, result.relabel, result.harness).trajectory;
  const certificate = certify({
    base: harness,
    variant: result.harness,
    original: trajectory,
    rewritten,
    relabel: result.relabel,
  });
  return { rewritten, certificate };
};

describe('tools/rename-parameters', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(renameParameters, {
      cases: [...(await lawCases()), flightCase()],
      params: styles.map((style) => ({ style })),
    });
  });

  it('renames nested and array-item parameters in the style asked (golden)', async () => {
    const run = async (style: string) =>
      renames(
        applied(
          await applyOperator(renameParameters, harness, { rng: 'golden', severity: 1, params: { style } }),
        ),
      );
    expect(await run('camel')).toEqual([
      'hold_seat:passengers.[].name->nameValue',
      'hold_seat:flight->flightField',
      'hold_seat:passengers->passengersValue',
      'find_flights:filters.max_stops->maximumStops',
      'find_flights:filters.cabin->cabinParam',
      'find_flights:origin->originParam',
      'find_flights:destination->target',
      'find_flights:date->dateValue',
      'find_flights:filters->filtersValue',
      'get_baggage_policy:fare_class->fareClassField',
    ]);
    // "IATA code" ends on another word than `origin`: it names the value's format (destination's too). A
    // name is no label, an origin no source, a date no day, filters no constraints (`nameSynonyms`).
    expect(await run('phrase')).toContain('find_flights:origin->origin_field');
    const opaque = await run('opaque');
    expect(opaque).toHaveLength(10);
    for (const rename of opaque) expect(rename).toMatch(/->(arg|p|param|field)_[0-9a-f]*\d[0-9a-f]*$/);
  });

  it('updates `required`, the schema and the argument keys, with an exact inverse', async () => {
    const result = applied(
      await applyOperator(renameParameters, harness, {
        rng: 'golden',
        severity: 1,
        params: { style: 'camel' },
      }),
    );
    const [findFlights, holdSeat] = result.harness.tools.items;
    expect(findFlights?.parameters.required).toEqual(['originParam', 'target', 'dateValue']);
    expect(
      Object.keys(
        (findFlights!.parameters.properties as Record<string, { properties: object }>).filtersValue!
          .properties,
      ),
    ).toEqual(['maximumStops', 'cabinParam']);
    expect(holdSeat?.parameters.properties).toMatchObject({
      passengersValue: { items: { required: ['nameValue'] } },
    });
    expect(result.harness.tools.items[0]?.description).toBe(
      'Find flights between two airports on a date. Pass `originParam` and `target` as IATA codes.',
    );
    const trajectory = rebookingTrajectory();
    const { rewritten, certificate } = moveAndCertify(result, trajectory);
    expect(certificate.issues).toEqual([]);
    const calls = rewritten.messages.flatMap((message) =>
      message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.function.arguments) : [],
    );
    expect(calls.slice(1)).toEqual([
      '{"originParam":"OPO", "target":"LIS","dateValue":"2026-05-02","filtersValue":{"maximumStops":0,  "cabinParam":"economy"}}',
      '{ "flightField": "HA 310", "passengersValue": [ {"nameValue": "Ana Souza"} ] }',
    ]);
    expect(inverseTrajectory(rewritten, result.relabel, harness).trajectory).toEqual(trajectory);
  });

  it('keeps a rejected call rejected for the same hook', async () => {
    const trajectory = retryTrajectory();
    for (const seed of ['r1', 'r2', 'r3']) {
      const result = applied(
        await applyOperator(renameParameters, harness, { rng: seed, severity: 1, trajectory }),
      );
      expect(moveAndCertify(result, trajectory).certificate.issues).toEqual([]);
    }
  });

  it('renames a name shared by several tools the same way everywhere', async () => {
    const input = travelHarnessInput();
    input.tools.items.push({
      name: 'get_fare_rules',
      description: 'Fare rules of a fare class.',
      parameters: {
        type: 'object',
        properties: { fare_class: { type: 'string' } },
        required: ['fare_class'],
      },
    });
    input.skills.items[1]!.body = 'Pass `fare_class` to `get_baggage_policy` or `get_fare_rules`.';
    const shared = parseHarness(input);
    const result = applied(await applyOperator(renameParameters, shared, { rng: 'share', severity: 1 }));
    const fareRenames = renames(result).filter((rename) => rename.includes(':fare_class->'));
    const targets = new Set(fareRenames.map((rename) => rename.split('->')[1]));
    expect(fareRenames).toHaveLength(2);
    expect(targets.size).toBe(1);
    expect(result.harness.skills.items[1]?.body).toBe(
      `Pass \`${[...targets][0]}\` to \`get_baggage_policy\` or \`get_fare_rules\`.`,
    );
  });

  it('leaves names alone that a text writes as an unresolved path, or whose schema names properties elsewhere', async () => {
    const input = travelHarnessInput();
    input.skills.items[0]!.body = 'Set `filters.max_stops` to 0 for direct flights.';
    input.tools.items[1]!.parameters = {
      type: 'object',
      properties: { flight: { type: 'string' }, seat: { type: 'string' } },
      dependentRequired: { seat: ['flight'] },
    };
    const guarded = parseHarness(input);
    for (const seed of ['a', 'b', 'c', 'd']) {
      const result = applied(await applyOperator(renameParameters, guarded, { rng: seed, severity: 1 }));
      const renamed = renames(result).join(' ');
      expect(renamed).not.toContain(':filters->');
      expect(renamed).not.toContain('max_stops->');
      expect(renamed).not.toContain('hold_seat:');
    }
  });

  it('leaves names alone that prose names as parameters, where a rename could not follow them', async () => {
    // As real tool descriptions write them (the MCP filesystem server: "Use the 'head' parameter …"), and a
    // prompt naming a distinctive parameter bare: the symbol table takes a parameter only in code.
    const input = travelHarnessInput();
    input.tools.items[0]!.description += " Use the 'date' parameter for the day of travel.";
    input.tools.items[1]!.parameters = {
      type: 'object',
      properties: { flight: { type: 'string' }, seatCount: { type: 'integer' } },
    };
    input.prompt.sections.push({
      id: 'tips',
      title: 'Tips',
      template: 'Hold seats with seatCount set to the party size.',
    });
    const guarded = parseHarness(input);
    const named = parameterNamesInProse(guarded);
    expect([...named].sort()).toEqual(['date', 'seatCount']);
    // A reply of the trajectory counts too.
    expect(parameterNamesInProse(guarded, ['I searched by origin parameter.']).has('origin')).toBe(true);
    expect(parameterNamesInProse(guarded, ['I searched from your origin.']).has('origin')).toBe(false);
    for (const seed of ['a', 'b', 'c', 'd']) {
      const result = applied(await applyOperator(renameParameters, guarded, { rng: seed, severity: 1 }));
      const renamed = renames(result).join(' ');
      expect(renamed).not.toContain(':date->');
      expect(renamed).not.toContain(':seatCount->');
      expect(renamed).toContain(':origin->');
    }
  });

  it('renames a share of the names equal to the severity, at least one; identity at 0', async () => {
    const count = async (severity: number) =>
      new Set(
        renames(applied(await applyOperator(renameParameters, harness, { rng: 'share', severity }))).map(
          (rename) => rename.split(':')[1]?.split('->')[0]?.split('.').at(-1),
        ),
      ).size;
    expect(await count(0.01)).toBe(1);
    expect(await count(1)).toBe(10);
    const zero = applied(await applyOperator(renameParameters, harness, { rng: 'zero', severity: 0 }));
    expect(zero.harness).toBe(harness);
  });

  it('skips when no parameter can be renamed', async () => {
    const input = travelHarnessInput();
    input.tools.items = [
      { name: 'ping', description: 'Checks the service.', parameters: { type: 'object', properties: {} } },
    ];
    input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
    expect(await applyOperator(renameParameters, parseHarness(input), { rng: 'x' })).toEqual({
      skip: 'no tool parameter can be renamed safely',
    });
  });

  // FastMCP writes each property's pydantic title ("Max Count" for `max_count`): left as it was, a masked
  // `field_25` still said "Max Count".
  it("gives a renamed property the title its generator would write, and keeps an author's own title", async () => {
    const input = travelHarnessInput();
    const findFlights = input.tools.items[0]!;
    const properties = findFlights.parameters.properties as Record<string, Record<string, unknown>>;
    properties.origin!.title = 'Origin';
    properties.destination!.title = 'Where to';
    const titled = parseHarness(input);
    const result = applied(
      await applyOperator(renameParameters, titled, {
        rng: 'golden',
        severity: 1,
        params: { style: 'opaque' },
      }),
    );
    const renamed = new Map(
      renames(result).flatMap((rename) => {
        const [from, to] = rename.split(':')[1]!.split('->') as [string, string];
        return rename.startsWith('find_flights:') ? [[from, to]] : [];
      }),
    );
    const after = result.harness.tools.items[0]!.parameters.properties as Record<
      string,
      Record<string, unknown>
    >;
    const origin = renamed.get('origin') as string;
    expect(origin).toMatch(/^(arg|p|param|field)_/);
    expect(after[origin]!.title).toBe(
      origin
        .replaceAll('_', ' ')
        .replace(/\p{L}+/gu, (word) => `${word[0]!.toUpperCase()}${word.slice(1).toLowerCase()}`),
    );
    expect(after[renamed.get('destination') as string]!.title).toBe('Where to');
    expect(moveAndCertify(result, rebookingTrajectory()).certificate.issues).toEqual([]);
  });

  it('takes a phrase from a description only when it ends on the name and keeps its words, and only one all its tools share', async () => {
    const input = travelHarnessInput();
    const tool = (name: string, properties: Record<string, { type: string; description: string }>) => ({
      name,
      description: `${name.replaceAll('_', ' ')}.`,
      parameters: { type: 'object', properties },
    });
    input.tools.items.push(
      tool('list_alerts', {
        secret_type: { type: 'string', description: 'A comma-separated list of secret types to filter on' },
      }),
      tool('get_commit', { sha: { type: 'string', description: 'Commit SHA, branch name, or tag name' } }),
      tool('update_file', { sha: { type: 'string', description: 'Blob SHA of the file being replaced' } }),
      // τ²-bench telecom's wording: the phrase ends on the head word but drops "customer".
      tool('get_customer_by_id', {
        customer_id: { type: 'string', description: 'The unique identifier of the customer' },
      }),
      tool('get_bills_for_line', {
        line_id: { type: 'string', description: 'Line identifier of the subscriber' },
      }),
    );
    const shared = parseHarness(input);
    const drawn = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const result = await applyOperator(renameParameters, shared, {
        rng: `s${seed}`,
        severity: 1,
        params: { style: 'phrase' },
      });
      for (const rename of renames(applied(result))) drawn.add(rename);
    }
    const to = (from: string) =>
      [...drawn].flatMap((rename) =>
        rename.includes(`:${from}->`) ? [rename.split('->')[1] as string] : [],
      );
    expect(to('secret_type').length).toBeGreaterThan(0);
    for (const rename of to('secret_type')) expect(rename).not.toMatch(/comma|separated/);
    expect(to('sha').length).toBeGreaterThan(0);
    for (const rename of to('sha')) expect(rename).not.toMatch(/blob|commit/);
    expect(to('customer_id').length).toBeGreaterThan(0);
    for (const rename of to('customer_id')) expect(rename).not.toMatch(/unique/);
    // A phrase that keeps every word of the name is still drawn.
    expect(to('line_id')).toContain('line_identifier');
  });

  // AgentDojo (test/perturbations/fixtures/agentdojo-email-calendar-tools.json): send_email's `attachments`
  // lists a calendar event's keys in code, and they are create_calendar_event's parameters too. Renaming them
  // rewrote the keys the email backend parses (`arg_88`, `start_time_input`): another, broken payload.
  it("leaves a name that another tool's text writes in code, where it is an object's key (AgentDojo)", async () => {
    const listed = JSON.parse(
      await readFile(
        join(projectRoot, 'test/perturbations/fixtures/agentdojo-email-calendar-tools.json'),
        'utf8',
      ),
    );
    const input = travelHarnessInput();
    input.tools.items = importMcpTools(listed);
    input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
    const agentdojo = parseHarness(input);
    const keys = ['title', 'description', 'start_time', 'end_time', 'location'];
    for (const key of keys) expect(parameterNamesInOtherTools(agentdojo).has(key), key).toBe(true);
    expect(parameterNamesInOtherTools(agentdojo).has('body')).toBe(false);
    // The line that lists the keys, as JSON text inside the schema.
    const keysLine = JSON.stringify(
      'A calendar event has the following fields: `title`, `description`, `start_time` (in ISO format), `end_time`',
    ).slice(1, -1);
    const renamed = new Set<string>();
    for (let index = 0; index < 30; index++) {
      const result = applied(
        await applyOperator(renameParameters, agentdojo, { rng: `agentdojo-${index}`, severity: 1 }),
      );
      for (const rename of renames(result)) renamed.add(rename.replace(/->.*$/u, ''));
      const email = result.harness.tools.items.find((tool) => tool.name === 'send_email');
      expect(JSON.stringify(email?.parameters)).toContain(keysLine);
    }
    for (const key of keys) expect([...renamed].filter((rename) => rename.endsWith(`:${key}`))).toEqual([]);
    expect(renamed).toContain('send_email:body');
  });
  // Audit 15 (BFCL v4 multi-turn, ShishirPatil/gorilla @6ea57973 (Apache-2.0),
  // bfcl_eval/data/multi_turn_func_doc/travel_booking.json, contact_customer_support): `message` became
  // `note`; a note annotates a record, a message is sent.
  it('draws no synonym that names another thing: a message is not a note', async () => {
    const input = travelHarnessInput();
    input.tools.items.push({
      name: 'contact_customer_support',
      description:
        'This tool belongs to the travel system, which allows users to book flights, manage credit cards, and view budget information. Tool description: Contact travel booking customer support, get immediate support on an issue with an online call.',
      parameters: {
        type: 'object',
        properties: {
          booking_id: { type: 'string', description: 'The ID of the booking' },
          message: { type: 'string', description: 'The message to send to customer support' },
        },
        required: ['booking_id', 'message'],
      },
    });
    const support = parseHarness(input);
    const drawn: string[] = [];
    for (const style of ['snake', 'camel', 'kebab', 'mixed'] as const)
      for (let seed = 0; seed < 20; seed++) {
        const result = applied(
          await applyOperator(renameParameters, support, {
            rng: `message${seed}`,
            severity: 1,
            params: { style },
          }),
        );
        drawn.push(
          ...renames(result).filter((rename) => rename.startsWith('contact_customer_support:message')),
        );
      }
    expect(drawn.length).toBeGreaterThan(0);
    for (const rename of drawn) expect(rename).not.toMatch(/->.*note/iu);
  });
});
