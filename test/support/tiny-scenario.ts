// A small scenario over the airline test harness (test/support/travel-harness.ts): planned episodes of one
// to three passenger messages, answered by plain tool functions. For runtime tests that need any scenario
// but the live-stream shop.

import type { Scenario } from '../../src/runtime/scenario.js';
import { toolsFromFunctions } from '../../src/runtime/tool-runtime.js';
import { travelContext } from './travel-harness.js';

const messages = [
  'How much luggage can I bring on a basic fare?',
  'My flight HA 212 was cancelled, can you rebook me?',
  'Is there a flight from LIS to OPO tomorrow?',
  'Thanks, that is all.',
];

export function tinyScenario(): Scenario {
  return {
    name: 'tiny-airline',
    check: () => [],
    defaultEpisodes: () => 12,
    plan: ({ episodes }) =>
      Array.from({ length: episodes ?? 12 }, (_, index) => ({
        id: `tiny-${String(index).padStart(3, '0')}`,
        index,
      })),
    async episode(planned) {
      const turns = 1 + (planned.index % 3);
      return {
        id: planned.id,
        context: travelContext,
        task: {
          id: planned.id,
          turns: Array.from({ length: turns }, (_, turn) => ({
            user: messages[(planned.index + turn) % messages.length]!,
            intents: [],
            skills: [],
            tools: [],
            facts: [],
          })),
        },
      };
    },
    backend: () =>
      toolsFromFunctions({
        get_baggage_policy: ({ fare_class }) => ({
          fare_class,
          cabin_kg: 8,
          checked_kg: fare_class === 'basic' ? 0 : 23,
        }),
        find_flights: () => ({ flights: [{ flight: 'HA 300', fare: 89 }] }),
        hold_seat: ({ flight }) => ({ flight, held: true }),
      }),
  };
}
