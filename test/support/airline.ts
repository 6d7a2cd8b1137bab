// A τ-bench-shaped airline domain the project did not design its defaults for: long turns (20+ tool steps
// before the agent can answer: look up the user, every reservation, flights on several dates, prices), a
// confirmation policy as a custom hook check (airline-checks.ts), and gold logs recorded by playing scripts
// through the runtime against the domain's tool functions. Written to files for the CLI tests.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness, HarnessInput } from '../../src/harness/schema.js';
import { runTurn } from '../../src/runtime/agent-loop.js';
import { Episode } from '../../src/runtime/episode.js';
import { toolsFromFunctions } from '../../src/runtime/tool-runtime.js';
import { ScriptedModel } from '../../src/scenarios/replay/index.js';
import type { AssistantMessage, Trajectory } from '../../src/trajectory/schema.js';
import { hookChecks } from './airline-checks.js';

const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
});
const text = { type: 'string' };

export const airlineHarnessInput = (): HarnessInput => ({
  id: 'airline',
  skills: {
    version: '1',
    items: [
      {
        id: 'flight_changes',
        kind: 'reply',
        description: 'Change the flights of a reservation',
        body: 'Look up the user and the reservation, search the new flights, state the price difference, and change the booking only after the user says yes.',
      },
    ],
  },
  hooks: {
    version: '1',
    items: [
      {
        id: 'confirm_writes',
        stage: 'pre_tool',
        tools: ['update_reservation_flights'],
        check: { type: 'custom', name: 'user_confirmed', params: { word: 'yes' } },
        onFail: {
          action: 'retry',
          maxRetries: 1,
          feedback: 'Ask the user to confirm with "{{word}}" first.',
        },
      },
    ],
  },
  prompt: {
    version: '1',
    sections: [
      {
        id: 'policy',
        title: 'Policy',
        template: 'You are an airline agent for {{harness.id}}.',
        pinned: true,
      },
      { id: 'tools', title: 'Tools', template: '{{#each tools}}- {{name}}: {{description}}\n{{/each}}' },
    ],
  },
  tools: {
    version: '1',
    items: [
      {
        name: 'get_user_details',
        description: 'Get a user',
        parameters: object({ user_id: text }, ['user_id']),
      },
      {
        name: 'get_reservation_details',
        description: 'Get a reservation',
        parameters: object({ reservation_id: text }, ['reservation_id']),
      },
      {
        name: 'search_direct_flight',
        description: 'Search direct flights on a date',
        parameters: object({ origin: text, destination: text, date: text }, [
          'origin',
          'destination',
          'date',
        ]),
      },
      {
        name: 'calculate',
        description: 'Evaluate an arithmetic expression',
        parameters: object({ expression: text }, ['expression']),
      },
      {
        name: 'update_reservation_flights',
        description: 'Change the flights of a reservation',
        parameters: object({ reservation_id: text, flight_number: text }, [
          'reservation_id',
          'flight_number',
        ]),
      },
    ],
  },
});

export const airlineHarness = (): Harness => parseHarness(airlineHarnessInput(), { hookChecks });

/** The domain's tools: a small, fixed database. */
export const airlineTools = () =>
  toolsFromFunctions({
    get_user_details: ({ user_id }) => ({
      user_id,
      name: 'Mia Li',
      reservations: ['R100', 'R101', 'R102', 'R103'],
    }),
    get_reservation_details: ({ reservation_id }) => ({
      reservation_id,
      origin: 'JFK',
      destination: 'SEA',
      flight_number: `HAT${String(reservation_id).slice(1)}`,
      price: 300 + Number(String(reservation_id).slice(1)) - 100,
    }),
    search_direct_flight: ({ date }) => [
      { flight_number: `HAT${String(date).slice(-2)}7`, date, price: 320 + Number(String(date).slice(-2)) },
    ],
    calculate: ({ expression }) => `${expression} = 42`,
    update_reservation_flights: ({ reservation_id, flight_number }) => ({
      reservation_id,
      flight_number,
      status: 'changed',
    }),
  });

let callNumber = 0;
const call = (name: string, args: Record<string, unknown>): AssistantMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [
    { id: `c${++callNumber}`, type: 'function', function: { name, arguments: JSON.stringify(args) } },
  ],
});
const reply = (content: string): AssistantMessage => ({ role: 'assistant', content });

/** One long conversation: `searches` flight searches in the first turn (steps = searches + 9). */
function script(
  id: string,
  searches: number,
): { id: string; turns: { user: string; script: AssistantMessage[] }[] } {
  const dates = Array.from(
    { length: searches },
    (_, index) => `2026-05-${String(10 + index).padStart(2, '0')}`,
  );
  return {
    id,
    turns: [
      {
        user: 'I need to move my Seattle trip to a later day. My user id is mia_li_3668.',
        script: [
          call('load_skill', { skill_id: 'flight_changes' }),
          call('get_user_details', { user_id: 'mia_li_3668' }),
          ...['R100', 'R101', 'R102', 'R103'].map((reservation) =>
            call('get_reservation_details', { reservation_id: reservation }),
          ),
          ...dates.map((date) => call('search_direct_flight', { origin: 'JFK', destination: 'SEA', date })),
          call('calculate', { expression: '330 - 300' }),
          call('calculate', { expression: '331 - 300' }),
          reply('R100 can move to HAT107 on 2026-05-10 for 330, that is 42 more. Shall I change it?'),
        ],
      },
      {
        user: 'yes, please change it',
        script: [
          call('update_reservation_flights', { reservation_id: 'R100', flight_number: 'HAT107' }),
          reply('Done: R100 is now on HAT107.'),
        ],
      },
    ],
  };
}

/** Gold logs recorded through the runtime (with a limit no turn reaches). */
export async function airlineGolds(harness: Harness = airlineHarness()): Promise<Trajectory[]> {
  const golds: Trajectory[] = [];
  for (const { id, turns } of [script('air-033', 14), script('air-034', 16)]) {
    const episode = new Episode({ harness, tools: airlineTools(), maxStepsPerTurn: 1000, hookChecks });
    const model = new ScriptedModel(turns.map((turn) => turn.script));
    for (const [index, turn] of turns.entries()) {
      await episode.user(turn.user);
      model.startTurn(index);
      await runTurn(episode, model);
    }
    episode.close();
    if (model.deviations.length > 0) throw new Error(`${id}: ${model.deviations.join('; ')}`);
    golds.push(episode.trajectory(id));
  }
  return golds;
}

/** Writes harness.json and trajectories.jsonl into `folder`; returns their paths. */
export async function writeAirline(folder: string) {
  const harness = airlineHarness();
  const golds = await airlineGolds(harness);
  const files = { harness: join(folder, 'airline.json'), trajectories: join(folder, 'airline.jsonl') };
  await writeFile(files.harness, JSON.stringify(airlineHarnessInput()));
  await writeFile(files.trajectories, golds.map((gold) => `${JSON.stringify(gold)}\n`).join(''));
  return { ...files, golds, harnessValue: harness };
}

export const airlineChecksModule = join(import.meta.dirname, 'airline-checks.ts');
