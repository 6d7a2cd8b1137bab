import { describe, expect, it } from 'vitest';
import { changedParts, partDimensions, relabelRenames } from '../../src/augment/changed-parts.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import type { Harness } from '../../src/harness/schema.js';
import { travelHarness } from '../support/travel-harness.js';

function withSkillBody(harness: Harness, id: string, body: string): Harness {
  return {
    ...harness,
    skills: {
      ...harness.skills,
      items: harness.skills.items.map((skill) => (skill.id === id ? { ...skill, body } : skill)),
    },
  };
}

describe('changedParts', () => {
  it('is empty for the base itself', () => {
    const base = travelHarness();
    expect(changedParts(base, base, { steps: [] })).toEqual([]);
  });

  it('pairs a renamed skill with its base and sees a rename-only change as one', () => {
    const base = travelHarness();
    const { harness: variant, relabel } = renameSymbols(base, {
      skills: { baggage: 'bag_rules' },
      tools: { find_flights: 'flight_search' },
    });
    expect(relabelRenames(relabel)).toMatchObject({
      skills: [{ from: 'baggage', to: 'bag_rules' }],
      tools: [{ from: 'find_flights', to: 'flight_search' }],
    });
    const parts = changedParts(base, variant, relabel);
    const rebooking = parts.find((part) => part.base?.label === 'skill rebooking body');
    expect(rebooking).toMatchObject({ kind: 'skill_body', renameOnly: true });
    expect(rebooking?.variant?.text).toContain('`flight_search`');
    expect(rebooking?.inBaseNames).toBe(rebooking?.base?.text);
    expect(partDimensions(rebooking!)).toEqual(['skill-ids', 'tools']);
    // Every changed part is a rename here: none is added or removed.
    expect(parts.every((part) => part.renameOnly && part.base && part.variant)).toBe(true);
  });

  it('keeps a reworded text apart from its renames, under the renamed id', () => {
    const base = travelHarness();
    const renamed = renameSymbols(base, {
      skills: { baggage: 'bag_rules' },
      tools: { get_baggage_policy: 'bag_policy' },
    });
    const body = renamed.harness.skills.items.find((skill) => skill.id === 'bag_rules')!.body;
    const variant = withSkillBody(
      renamed.harness,
      'bag_rules',
      body.replace('State weights', 'Give weights'),
    );
    const [part] = changedParts(base, variant, renamed.relabel).filter(
      (part) => part.kind === 'skill_body' && !part.renameOnly,
    );
    expect(part?.base?.label).toBe('skill baggage body');
    expect(part?.variant?.label).toBe('skill bag_rules body');
    expect(part?.inBaseNames).toBe(part?.base?.text.replace('State weights', 'Give weights'));
    expect(partDimensions(part!)).toEqual(['skill-content', 'skill-ids', 'tools']);
  });

  it('lists an added tool and a removed one', () => {
    const base = travelHarness();
    const [first, ...rest] = base.tools.items;
    const variant: Harness = {
      ...base,
      tools: {
        ...base.tools,
        items: [...rest, { ...first!, name: 'weather_lookup', description: 'Weather at an airport.' }],
      },
    };
    const parts = changedParts(base, variant, { steps: [] });
    expect(
      parts
        .filter((part) => part.kind === 'tool_description')
        .map((part) => [part.base?.label, part.variant?.label]),
    ).toEqual([
      [undefined, 'tool weather_lookup description'],
      [`tool ${first!.name} description`, undefined],
    ]);
  });

  it('compares the whole prompt when sections were merged or split', () => {
    const base = travelHarness();
    const [a, b, ...rest] = base.prompt.sections;
    const merged = { ...a!, template: `${a!.template}\n\n${b!.template}` };
    const variant: Harness = { ...base, prompt: { ...base.prompt, sections: [merged, ...rest] } };
    const parts = changedParts(base, variant, { steps: [] });
    expect(parts.map((part) => part.kind)).toEqual(['prompt']);
  });
});
