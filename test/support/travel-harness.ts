// A small harness from another domain (airline customer support), built in code so tests do not depend on
// the live-stream fixture and so every check type has a hook to exercise.

import { toChatCompletionTools } from '../../src/harness/offered-tools.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import type { HarnessInput } from '../../src/harness/schema.js';
import type { Message, Trajectory } from '../../src/trajectory/schema.js';

export const travelHarnessInput = (): HarnessInput => ({
  id: 'airline-support',
  description: 'Support agent of a small airline',
  skills: {
    version: '3',
    items: [
      {
        id: 'rebooking',
        kind: 'reply',
        description: 'Rebook a passenger onto another flight',
        body: '- Call `find_flights` before offering a flight.\n- Quote fares exactly as `find_flights` returns them.\n- Never promise a seat before `hold_seat` succeeds.',
        risk: 'medium',
      },
      {
        id: 'baggage',
        kind: 'reply',
        description: 'Answer baggage allowance questions',
        body: '- Use `get_baggage_policy` with the fare class.\n- State weights in kilograms.',
      },
      {
        id: 'apology_first',
        kind: 'strategy',
        description: 'Open with one short apology when a flight is disrupted',
        body: 'Apologise once, then move to the fix. Pair it with rebooking.',
      },
    ],
  },
  hooks: {
    version: '2',
    items: [
      {
        id: 'no_profanity',
        stage: 'input',
        check: { type: 'banned_terms', terms: ['damn'] },
        onFail: { action: 'fallback', reply: 'Let us keep it friendly. How can I help with your trip?' },
      },
      {
        id: 'valid_arguments',
        stage: 'pre_tool',
        check: { type: 'tool_arguments' },
        onFail: { action: 'retry', maxRetries: 1, feedback: 'Call {{tool}} again: {{join errors "; "}}' },
      },
      {
        id: 'tool_budget',
        stage: 'pre_tool',
        check: { type: 'max_tool_calls', max: 5 },
        onFail: { action: 'fallback', reply: 'Let me hand you to a colleague.' },
      },
      {
        id: 'reply_skill',
        stage: 'pre_reply',
        check: { type: 'skill_loaded', kind: 'reply', scope: 'turn' },
        onFail: {
          action: 'retry',
          maxRetries: 1,
          feedback: 'Load a {{kind}} skill with load_skill before replying.',
        },
      },
      {
        id: 'short_reply',
        stage: 'pre_reply',
        check: { type: 'max_length', max: 80 },
        onFail: {
          action: 'retry',
          maxRetries: 2,
          feedback: 'Too long ({{length}}/{{max}}). Attempt {{attempt}} of {{maxRetries}}.',
        },
      },
      {
        id: 'no_guarantees',
        stage: 'pre_reply',
        check: { type: 'banned_terms', terms: ['guaranteed', '100%'] },
        onFail: {
          action: 'retry',
          maxRetries: 1,
          feedback: 'Remove: {{join found ", "}}',
          exhausted: 'fallback',
          fallback: 'A colleague will confirm the details.',
        },
      },
      {
        id: 'grounded_numbers',
        stage: 'post_reply',
        check: { type: 'numbers_grounded', sources: ['tool_results', 'user'], ignore: ['1'] },
        onFail: {
          action: 'retry',
          maxRetries: 1,
          feedback: 'These numbers are not in any tool result: {{join numbers ", "}}',
        },
      },
    ],
  },
  prompt: {
    version: '5',
    sections: [
      { id: 'role', title: 'Role', template: 'You are the support agent of {{harness.id}}.', pinned: true },
      {
        id: 'skills',
        title: 'Skills',
        template:
          '{{#each skills}}- {{id}} ({{kind}}): {{description}}\n{{/each}}Call `{{loader.tool}}` before you use a skill.',
      },
      {
        id: 'tools',
        title: 'Tools',
        template: '{{#each tools}}- {{name}}: {{description}}\n{{/each}}',
      },
      {
        id: 'passenger',
        title: 'Passenger',
        template: 'Passenger: {{context.passenger.name}} on {{context.passenger.flight}}',
      },
    ],
  },
  tools: {
    version: '7',
    items: [
      {
        name: 'find_flights',
        description:
          'Find flights between two airports on a date. Pass `origin` and `destination` as IATA codes.',
        parameters: {
          type: 'object',
          properties: {
            origin: { type: 'string', pattern: '^[A-Z]{3}$', description: 'IATA code' },
            destination: { type: 'string', pattern: '^[A-Z]{3}$' },
            date: { type: 'string' },
            filters: {
              type: 'object',
              properties: {
                max_stops: { type: 'integer', minimum: 0 },
                cabin: { type: 'string', enum: ['economy', 'business'] },
              },
              additionalProperties: false,
            },
          },
          required: ['origin', 'destination', 'date'],
          additionalProperties: false,
        },
      },
      {
        name: 'hold_seat',
        description: 'Hold a seat on a flight for 20 minutes.',
        parameters: {
          type: 'object',
          properties: {
            flight: { type: 'string' },
            passengers: {
              type: 'array',
              items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            },
          },
          required: ['flight', 'passengers'],
          additionalProperties: false,
        },
      },
      {
        name: 'get_baggage_policy',
        description: 'Baggage allowance for a fare class.',
        parameters: {
          type: 'object',
          properties: { fare_class: { type: 'string', enum: ['basic', 'standard', 'flex'] } },
          required: ['fare_class'],
          additionalProperties: false,
        },
      },
    ],
  },
});

export const travelHarness = () => parseHarness(travelHarnessInput());

export const travelContext = { passenger: { name: 'Ana Souza', flight: 'HA 212' } };

let callCounter = 0;
export const call = (name: string, args: unknown, id = `call_${++callCounter}`) => ({
  role: 'assistant' as const,
  content: null,
  tool_calls: [
    {
      id,
      type: 'function' as const,
      function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
    },
  ],
});
export const result = (id: string, content: unknown): Message => ({
  role: 'tool',
  tool_call_id: id,
  content: typeof content === 'string' ? content : JSON.stringify(content),
});

/**
 * A valid baggage trajectory: load a reply skill, call a tool, reply with grounded numbers; under the travel
 * harness or a harness that extends it (its prompt and tools as offered).
 */
export function baggageTrajectory(harness = travelHarness()): Trajectory {
  const baggage = harness.skills.items.find((skill) => skill.id === 'baggage')!;
  return {
    id: 'bag-1',
    harness: { id: harness.id },
    context: travelContext,
    tools: toChatCompletionTools(harness),
    messages: [
      { role: 'system', content: renderSystemPrompt(harness, travelContext) },
      { role: 'user', content: 'How much luggage can I bring on a standard fare?' },
      call('load_skill', { skill_id: 'baggage' }, 'c1'),
      result('c1', baggage.body),
      call('get_baggage_policy', { fare_class: 'standard' }, 'c2'),
      result('c2', { cabin_kg: 8, checked_kg: 23, pieces: 1 }),
      { role: 'assistant', content: 'On a standard fare: 8 kg cabin bag and 23 kg checked.' },
    ],
  };
}
