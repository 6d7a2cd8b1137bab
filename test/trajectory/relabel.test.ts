import { describe, expect, it } from 'vitest';
import { certify } from '../../src/augment/certificate.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import {
  composeRelabels,
  forwardTrajectory,
  inverseTrajectory,
  invertOutput,
  relabelMessages,
} from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { rederiveTrajectory, validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { baggageTrajectory, call, result, travelHarness } from '../support/travel-harness.js';

const base = travelHarness();
const original = validateTrajectory(baggageTrajectory(), base).trajectory as Trajectory;

describe('relabel', () => {
  it('renames a tool, its parameter and a skill everywhere, re-derives the prompt, and inverts exactly', () => {
    const { harness: variant, relabel } = renameSymbols(base, {
      tools: { get_baggage_policy: 'bag_rules', load_skill: 'use_skill' },
      skills: { baggage: 'luggage_help' },
      loaderArgument: 'skill',
      parameters: [{ tool: 'get_baggage_policy', path: ['fare_class'], to: 'fare' }],
    });
    const moved = forwardTrajectory(original, relabel, variant);
    expect(moved.issues).toEqual([]);
    const messages = moved.trajectory.messages;
    expect(messages[2]).toMatchObject({
      tool_calls: [{ function: { name: 'use_skill', arguments: '{"skill":"luggage_help"}' } }],
    });
    expect(messages[4]).toMatchObject({
      tool_calls: [{ function: { name: 'bag_rules', arguments: '{"fare":"standard"}' } }],
    });
    expect(messages[0]?.content).toContain('- luggage_help (reply): Answer baggage allowance questions');
    expect(messages[0]?.content).toContain('Call `use_skill` before you use a skill.');
    // The body mentions the tool in code form, so the loaded body names the new tool.
    expect(messages[3]?.content).toBe(
      '- Use `bag_rules` with the fare class.\n- State weights in kilograms.',
    );
    expect(moved.trajectory.tools?.map((tool) => tool.function.name)).toEqual([
      'use_skill',
      'find_flights',
      'hold_seat',
      'bag_rules',
    ]);

    const back = inverseTrajectory(moved.trajectory, relabel, base);
    expect(JSON.stringify(back.trajectory)).toBe(JSON.stringify(original));
    const certificate = certify({ base, variant, original, rewritten: moved.trajectory, relabel });
    // The relabel is exact; the names chosen here by hand swap the harness's own terms ("baggage" for
    // "luggage", "load" for "use"), which the certificate's name check refuses.
    expect(certificate).toMatchObject({
      certified: false,
      checks: {
        validUnderVariant: true,
        hooksAgree: true,
        inverseExact: true,
        contentKept: true,
        meaningKept: false,
      },
    });
    expect(new Set(certificate.issues.map((issue) => issue.code))).toEqual(new Set(['misleading_name']));
  });

  it('maps a model output under the variant back to the base vocabulary', () => {
    const { relabel } = renameSymbols(base, {
      tools: { find_flights: 'flight_search' },
      parameters: [{ tool: 'find_flights', path: ['filters', 'max_stops'], to: 'stops' }],
    });
    const output = call(
      'flight_search',
      '{"origin":"LIS","destination":"OPO","date":"2026-12-01","filters":{"stops":0}}',
      'x1',
    );
    expect(invertOutput(output, relabel)).toEqual(
      call(
        'find_flights',
        '{"origin":"LIS","destination":"OPO","date":"2026-12-01","filters":{"max_stops":0}}',
        'x1',
      ),
    );
  });

  it('renames a parent parameter and its child in one step, and inverts exactly', () => {
    const { harness: variant, relabel } = renameSymbols(base, {
      parameters: [
        { tool: 'find_flights', path: ['filters'], to: 'constraints' },
        { tool: 'find_flights', path: ['filters', 'max_stops'], to: 'stops' },
      ],
    });
    expect(variant.tools.items[0]?.parameters.properties).toHaveProperty('constraints.properties.stops');
    const messages = [
      call('find_flights', '{"origin":"LIS","destination":"OPO","date":"d","filters":{"max_stops":0}}', 'n1'),
    ];
    const forward = relabelMessages(messages, relabel, 'forward');
    expect(forward[0]).toMatchObject({
      tool_calls: [
        {
          function: {
            arguments: '{"origin":"LIS","destination":"OPO","date":"d","constraints":{"stops":0}}',
          },
        },
      ],
    });
    expect(relabelMessages(forward, relabel, 'inverse')).toEqual(messages);
  });

  it('nests arguments and restores the exact bytes', () => {
    const relabel = {
      steps: [{ type: 'nest_arguments' as const, tool: 'get_baggage_policy', under: 'query' }],
    };
    const messages = relabelMessages(original.messages, relabel, 'forward');
    expect(messages[4]).toMatchObject({
      tool_calls: [{ function: { arguments: '{"query":{"fare_class":"standard"}}' } }],
    });
    expect(relabelMessages(messages, relabel, 'inverse')).toEqual(original.messages);
  });

  it('inserts and removes an episode, and composes with renames', () => {
    const rename = renameSymbols(base, { tools: { get_baggage_policy: 'bag_rules' } }).relabel;
    const insert = {
      steps: [
        { type: 'insert_messages' as const, at: 6, messages: [{ role: 'user' as const, content: 'extra' }] },
      ],
    };
    const composed = composeRelabels(rename, insert);
    const forward = relabelMessages(original.messages, composed, 'forward');
    expect(forward).toHaveLength(original.messages.length + 1);
    expect(relabelMessages(forward, composed, 'inverse')).toEqual(original.messages);
    // A model output never holds the inserted episode, so its inverse only renames.
    expect(invertOutput([result('c2', '{}')], composed)).toEqual([result('c2', '{}')]);
  });

  it('merges skill loads and restores each original skill', () => {
    const trajectory: Trajectory = {
      ...original,
      messages: [
        ...original.messages.slice(0, 4),
        call('load_skill', { skill_id: 'rebooking' }, 'c7'),
        result('c7', ''),
        ...original.messages.slice(4),
      ],
    };
    const relabel = {
      steps: [
        {
          type: 'merge_skills' as const,
          into: 'merged',
          sources: ['baggage', 'rebooking'],
          loads: ['baggage', 'rebooking'],
          loader: { tool: 'load_skill', argument: 'skill_id' },
        },
      ],
    };
    const forward = relabelMessages(trajectory.messages, relabel, 'forward');
    expect(
      forward.filter(
        (message) =>
          message.role === 'assistant' &&
          message.tool_calls?.[0]?.function.arguments === '{"skill_id":"merged"}',
      ),
    ).toHaveLength(2);
    expect(relabelMessages(forward, relabel, 'inverse')).toEqual(trajectory.messages);
  });

  it('refuses a relabel that maps two names to one', () => {
    const relabel = { steps: [{ type: 'rename_tools' as const, map: { a: 'x', b: 'x' } }] };
    expect(() => relabelMessages(original.messages, relabel, 'inverse')).toThrow(/not invertible/);
  });

  it('rederives derived content from a changed harness', () => {
    const variant = structuredClone(base);
    variant.skills.items[1]!.body = 'New rules.';
    const { trajectory, issues } = rederiveTrajectory(original, variant);
    expect(issues).toEqual([]);
    expect(trajectory.messages[3]?.content).toBe('New rules.');
    expect(original.messages[3]?.content).not.toBe('New rules.');
  });
});
