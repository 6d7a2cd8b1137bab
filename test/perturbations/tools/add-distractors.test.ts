import { describe, expect, it } from 'vitest';
import {
  addDistractors,
  capabilityWords,
  distractorPool,
} from '../../../perturbations/tools/add-distractors.js';
import { certify } from '../../../src/augment/certificate.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { loadHarnessFile, parseHarness } from '../../../src/harness/parse-harness.js';
import type { Harness } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { forwardTrajectory } from '../../../src/trajectory/relabel.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory, validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import { baggageTrajectory, call, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';
import { flightCase } from './flight-case.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const names = (result: AppliedOperator) => result.harness.tools.items.map((tool) => tool.name);

/** The baggage example with a first attempt that calls `translate_text`, a tool the harness lacks. */
function strayCallTrajectory(under: Harness): Trajectory {
  const base = baggageTrajectory();
  const stray = call('translate_text', '{"text":"bagagem","target_language":"en"}', 's1');
  const messages = [
    ...base.messages.slice(0, 4),
    { ...stray, hsa: { event: 'hook_rejected' as const, hook: 'valid_arguments' } },
    {
      role: 'tool' as const,
      tool_call_id: 's1',
      content: '',
      hsa: { event: 'hook_feedback' as const, hook: 'valid_arguments' },
    },
    ...base.messages.slice(4),
  ];
  const { trajectory } = rederiveTrajectory({ ...base, messages }, under);
  return validateTrajectory(trajectory, under).trajectory as Trajectory;
}

describe('tools/add-distractors', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(addDistractors, {
      cases: [...(await lawCases()), flightCase()],
      params: [{}, { count: 6 }],
    });
  });

  it('adds 1 to 4 pool tools as severity grows, at random positions (golden)', async () => {
    const run = async (severity: number) =>
      names(applied(await applyOperator(addDistractors, harness, { rng: 'golden', severity })));
    expect(await run(0.1)).toEqual(['find_flights', 'hold_seat', 'shorten_url', 'get_baggage_policy']);
    expect(await run(0.3)).toEqual([
      'define_word',
      'find_flights',
      'hold_seat',
      'shorten_url',
      'get_baggage_policy',
    ]);
    expect((await run(0.6)).length).toBe(6);
    expect((await run(1)).length).toBe(7);
    const zero = applied(await applyOperator(addDistractors, harness, { rng: 'zero', severity: 0 }));
    expect(zero.harness).toBe(harness);
  });

  // An audit on τ-bench airline: `get_directions(origin, destination)` beside `search_direct_flight(origin,
  // destination, date)`, and `lookup_timezone` ("current local time") under "The current time is 2024-05-15
  // 15:00:00 EST", on which the 24-hour cancellation rule depends.
  it('adds no tool called like a registry tool, and no clock where a text fixes the time', async () => {
    const input = travelHarnessInput();
    input.prompt.sections.push({
      id: 'now',
      title: 'Now',
      template: 'The current time is 2024-05-15 15:00:00 EST.',
    });
    const fixed = parseHarness(input);
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const added = names(
        applied(await applyOperator(addDistractors, fixed, { rng: seed, params: { count: 8 } })),
      );
      expect(added).not.toContain('get_directions');
      expect(added).not.toContain('lookup_timezone');
    }
    const anyTime = names(
      applied(await applyOperator(addDistractors, harness, { rng: 'a', params: { count: 8 } })),
    );
    expect(anyTime).not.toContain('get_directions');
  });

  // AgentDojo's default system message (sequrity-ai/agentdojo at 357c80de, src/agentdojo/data/system_messages.yaml,
  // MIT): the agent learns the year from its tools, so a clock of the distractor's own would be the one to ask.
  it('adds no clock where a text says how the agent learns the date (AgentDojo)', async () => {
    const input = travelHarnessInput();
    input.prompt.sections.push({
      id: 'dates',
      title: 'Dates',
      template: '- Do not assume the current year, but use the provided tools to see what year it is.',
    });
    const dated = parseHarness(input);
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f'])
      expect(
        names(applied(await applyOperator(addDistractors, dated, { rng: seed, params: { count: 8 } }))),
      ).not.toContain('lookup_timezone');
  });

  // AgentDojo's travel suite (sequrity-ai/agentdojo at 357c80de, MIT): `get_directions(origin, destination)`
  // beside a flight search that names the same roles otherwise.
  it('compares arguments by role: no get_directions beside get_flight_information(departure_city, arrival_city)', async () => {
    const input = travelHarnessInput();
    input.tools.items = [
      {
        name: 'get_flight_information',
        description: 'Get the flight information from the departure city to the arrival city.',
        parameters: {
          type: 'object',
          properties: {
            departure_city: {
              description: 'The city to depart from.',
              title: 'Departure City',
              type: 'string',
            },
            arrival_city: { description: 'The city to arrive at.', title: 'Arrival City', type: 'string' },
          },
          required: ['departure_city', 'arrival_city'],
          title: 'Input schema for `get_flight_information`',
        },
      },
    ];
    input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
    const flights = parseHarness(input);
    const offered = new Set<string>();
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])
      for (const name of names(
        applied(await applyOperator(addDistractors, flights, { rng: seed, params: { count: 8 } })),
      ))
        offered.add(name);
    expect(offered).not.toContain('get_directions');
    // `from_currency` and `to_currency` are no places: the currency converter is still offered.
    expect(offered).toContain('convert_currency');
  });

  it('offers pool tools with valid, compiling schemas', () => {
    expect(distractorPool.length).toBeGreaterThanOrEqual(12);
    const input = travelHarnessInput();
    input.tools.items.push(...structuredClone(distractorPool));
    expect(() => parseHarness(input)).not.toThrow();
  });

  it('never adds a tool the harness names, the trajectory calls, or one that competes with a registry tool', async () => {
    const input = travelHarnessInput();
    input.tools.items.push({
      name: 'weather_forecast',
      description: 'Forecast at the destination airport.',
      parameters: { type: 'object', properties: { airport: { type: 'string' } } },
    });
    input.skills.items[0]!.body += '\n- Never call `send_email` or `set_reminder`.';
    const crowded = parseHarness(input);
    const trajectory = strayCallTrajectory(crowded);
    expect(validateTrajectory(trajectory, crowded).issues).toEqual([]);
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const result = applied(
        await applyOperator(addDistractors, crowded, { rng: seed, params: { count: 8 }, trajectory }),
      );
      const added = names(result).filter((name) => !crowded.tools.items.some((tool) => tool.name === name));
      expect(added).toHaveLength(8);
      for (const name of ['get_weather', 'translate_text', 'send_email', 'set_reminder'])
        expect(added).not.toContain(name);
      const rewritten = forwardTrajectory(trajectory, result.relabel, result.harness).trajectory;
      const certificate = certify({
        base: crowded,
        variant: result.harness,
        original: trajectory,
        rewritten,
        relabel: result.relabel,
      });
      expect(certificate.issues).toEqual([]);
    }
  });

  it('never adds a tool that could do the job of a verb-only registry tool (`translate`, `search`)', async () => {
    const input = travelHarnessInput();
    input.tools.items.push(
      {
        name: 'translate',
        description: 'Translate a passenger message into the language of the airline.',
        parameters: { type: 'object', properties: { message: { type: 'string' } } },
      },
      {
        name: 'search',
        description: 'Search the public web for pages about an airport.',
        parameters: { type: 'object', properties: { query: { type: 'string' } } },
      },
    );
    const withVerbs = parseHarness(input);
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const result = applied(
        await applyOperator(addDistractors, withVerbs, { rng: seed, params: { count: 8 } }),
      );
      const added = names(result).filter((name) => !withVerbs.tools.items.some((tool) => tool.name === name));
      expect(added).toHaveLength(8);
      expect(added).not.toContain('translate_text');
      expect(added).not.toContain('search_web');
    }
  });

  // τ-bench retail (test/demo/fixtures/tau-bench-retail): `calculate` evaluates arithmetic expressions; a
  // `calculate_expression` beside it made the gold call one of two right ones (audit: 8 of 30 seeds).
  it('adds no distractor that duplicates a τ-bench retail tool, over many seeds, and still adds some', async () => {
    const retail = await loadHarnessFile('test/demo/fixtures/tau-bench-retail/harness.yaml');
    const real = retail.tools.items;
    const generic = new Set(['get', 'set', 'find', 'search', 'lookup', 'create', 'generate', 'send', 'list']);
    const realWords = new Set(real.flatMap((tool) => tool.name.split('_')));
    const offered = new Set<string>();
    const runs = [
      ...Array.from({ length: 40 }, (_, index) => ({ rng: `seed-${index}`, severity: 1 })),
      ...Array.from({ length: 20 }, (_, index) => ({ rng: `many-${index}`, params: { count: 8 } })),
    ];
    for (const options of runs) {
      const result = applied(await applyOperator(addDistractors, retail, options));
      const added = result.harness.tools.items.filter(
        (tool) => !real.some((other) => other.name === tool.name),
      );
      expect(added.length).toBeGreaterThanOrEqual(1);
      for (const tool of added) {
        offered.add(tool.name);
        expect(`${tool.name} ${tool.description}`).not.toMatch(
          /calculat|evaluat|express|arithmet|math|comput/iu,
        );
        const shared = tool.name.split('_').filter((word) => realWords.has(word) && !generic.has(word));
        expect(shared, tool.name).toEqual([]);
      }
    }
    expect(offered).not.toContain('calculate_expression');
    expect(offered.size).toBeGreaterThanOrEqual(8);
  });

  // The MCP reference servers' research assistant ("look things up on the web", "coordinate meetings across
  // time zones"): `search_web` and `create_calendar_event` were plausible ways to its tasks, not distractors.
  it("adds no tool whose capability the harness's texts or the example's conversation speak of", async () => {
    const input = travelHarnessInput();
    input.prompt.sections.push({
      id: 'duties',
      title: 'Duties',
      template:
        'You help staff look things up on the web, keep track of people, and coordinate meetings across offices.',
    });
    const researcher = parseHarness(input);
    const base = baggageTrajectory();
    const { trajectory: weather } = rederiveTrajectory(
      {
        ...base,
        messages: base.messages.map((message, index) =>
          index === 1 && message.role === 'user'
            ? { ...message, content: `${message.content} Also, will the weather in Lisbon be fine?` }
            : message,
        ),
      },
      researcher,
    );
    expect(validateTrajectory(weather, researcher).issues).toEqual([]);
    const offered = new Set<string>();
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const added = names(
        applied(
          await applyOperator(addDistractors, researcher, {
            rng: seed,
            params: { count: 8 },
            trajectory: weather,
          }),
        ),
      );
      for (const name of added) offered.add(name);
      for (const name of ['search_web', 'create_calendar_event', 'get_weather'])
        expect(added).not.toContain(name);
    }
    expect(offered.size).toBeGreaterThanOrEqual(8);
    // Without those words, the same tools are drawn.
    const plain = new Set<string>();
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])
      for (const name of names(
        applied(await applyOperator(addDistractors, harness, { rng: seed, params: { count: 8 } })),
      ))
        plain.add(name);
    expect([...plain]).toEqual(
      expect.arrayContaining(['search_web', 'create_calendar_event', 'get_weather']),
    );
  });

  it('names the capability of every pool tool', () => {
    for (const tool of distractorPool) {
      const words = capabilityWords[tool.name];
      expect(words, tool.name).toBeDefined();
      expect(words?.length, tool.name).toBeGreaterThan(0);
    }
  });

  it('skips when every pool tool collides', async () => {
    const input = travelHarnessInput();
    input.tools.items.push(...structuredClone(distractorPool));
    expect(await applyOperator(addDistractors, parseHarness(input), { rng: 'x' })).toEqual({
      skip: 'every pool tool collides with the harness or the trajectory',
    });
  });
});
