import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addOptionalParameters } from '../../perturbations/tools/add-optional-parameters.js';
import { nestArguments } from '../../perturbations/tools/nest-arguments.js';
import { renameParameters } from '../../perturbations/tools/rename-parameters.js';
import { rewordDescriptions } from '../../perturbations/tools/reword-descriptions.js';
import {
  type ChangedPart,
  changedParts,
  partDimensions,
  relabelRenames,
} from '../../src/augment/changed-parts.js';
import { applyOperator } from '../../src/augment/operator.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { importMcpTools } from '../../src/harness/importers/mcp-tools.js';
import { skeletonHarness } from '../../src/harness/importers/skeleton.js';
import type { Harness } from '../../src/harness/schema.js';
import { judgedParts } from '../../src/pipeline/meaning-filter.js';
import { composeRelabels } from '../../src/trajectory/relabel.js';
import { projectRoot } from '../support/run-cli.js';
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

// A user audit on BFCL (finding 2): `tools/reword-descriptions` garbled a parameter's description ("The
// budget limit to set in USD" → "The budget narrow to set in USD") and neither the review page nor the
// meaning judge saw it, since changedParts paired no parameter description; rows of nest-arguments and
// add-optional-parameters read "No text changed". Parameters are paired through the relabel, by rule.
describe('changedParts: parameter descriptions', () => {
  const telecom = () =>
    skeletonHarness({
      id: 'telecom',
      tools: importMcpTools(
        (
          JSON.parse(
            readFileSync(join(projectRoot, 'test/perturbations/fixtures/tau2-telecom-tools.json'), 'utf8'),
          ) as { result: unknown }
        ).result,
      ),
    });
  const apply = async (operator: unknown, harness: Harness, rng: string) => {
    const result = await applyOperator(operator as typeof rewordDescriptions, harness, { rng, severity: 1 });
    if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
    return result;
  };
  const parameterParts = (parts: ChangedPart[]) =>
    parts.filter((part) => part.kind === 'parameter_description');

  it('pairs a parameter description reworded by tools/reword-descriptions, for the judge', async () => {
    const base = telecom();
    const { harness: variant, relabel } = await apply(rewordDescriptions, base, 'p1');
    const parts = parameterParts(changedParts(base, variant, relabel));
    expect(parts.length).toBeGreaterThan(0);
    for (const part of parts) {
      expect(part).toMatchObject({ renameOnly: false, inBaseNames: part.variant?.text });
      expect(part.base?.label).toBe(part.variant?.label);
      expect(part.base?.text).not.toBe(part.variant?.text);
      expect(partDimensions(part)).toEqual(['tools']);
    }
    expect(parts).toContainEqual({
      kind: 'parameter_description',
      base: {
        label: 'tool get_customer_by_id parameter customer_id description',
        path: ['tools', 'items', 1, 'parameters', 'properties', 'customer_id', 'description'],
        text: 'The unique identifier of the customer.',
      },
      variant: {
        label: 'tool get_customer_by_id parameter customer_id description',
        path: ['tools', 'items', 1, 'parameters', 'properties', 'customer_id', 'description'],
        text: 'The unique ID of the customer.',
      },
      inBaseNames: 'The unique ID of the customer.',
      renameOnly: false,
    });
    expect(judgedParts(changedParts(base, variant, relabel))).toEqual(
      expect.arrayContaining(parts.map((part) => expect.objectContaining({ base: part.base }))),
    );
  });

  it('keeps every pair through tools/nest-arguments: nesting alone changes no text', async () => {
    const base = telecom();
    const { harness: variant, relabel } = await apply(nestArguments, base, 'p1');
    expect(relabel.steps.filter((step) => step.type === 'nest_arguments').length).toBeGreaterThan(5);
    expect(changedParts(base, variant, relabel)).toEqual([]);
  });

  it('follows nest, parameter renames and rewording composed: each base description beside its variant', async () => {
    const base = telecom();
    let variant = base;
    const relabels = [];
    for (const operator of [nestArguments, renameParameters, rewordDescriptions]) {
      const applied = await apply(operator, variant, 'p2');
      variant = applied.harness;
      relabels.push(applied.relabel);
    }
    const relabel = composeRelabels(...relabels);
    const parts = parameterParts(changedParts(base, variant, relabel));
    // Nothing added or removed: every description found its pair below the wrapper, under its new name.
    expect(parts.every((part) => part.base && part.variant)).toBe(true);
    const customer = parts.find(
      (part) => part.base?.label === 'tool get_customer_by_id parameter customer_id description',
    );
    expect(customer?.variant?.label).toMatch(
      /^tool get_customer_by_id parameter [\w-]+\.[\w-]+ description$/,
    );
    expect(customer?.variant?.label).not.toBe(customer?.base?.label);
  });

  it('lists the parameters tools/add-optional-parameters added as added parts, nothing removed', async () => {
    const base = telecom();
    const { harness: variant, relabel } = await apply(addOptionalParameters, base, 'p1');
    const parts = parameterParts(changedParts(base, variant, relabel));
    expect(parts.length).toBeGreaterThan(10);
    expect(parts.every((part) => part.base === undefined && part.variant !== undefined)).toBe(true);
    expect(parts.map((part) => part.variant?.label)).toContain(
      'tool get_customer_by_phone parameter request_id description',
    );
    expect(judgedParts(parts)).toEqual([]);
  });

  it('lists a removed parameter as a removed part, and leaves an added tool to its description', async () => {
    const base = travelHarness();
    const [flights, ...rest] = base.tools.items;
    const { origin: _origin, ...properties } = (
      flights!.parameters as { properties: Record<string, unknown> }
    ).properties;
    const variant: Harness = {
      ...base,
      tools: {
        ...base.tools,
        items: [
          {
            ...flights!,
            parameters: { ...flights!.parameters, properties, required: ['destination', 'date'] },
          },
          ...rest,
        ],
      },
    };
    expect(parameterParts(changedParts(base, variant, { steps: [] }))).toEqual([
      {
        kind: 'parameter_description',
        base: {
          label: 'tool find_flights parameter origin description',
          path: ['tools', 'items', 0, 'parameters', 'properties', 'origin', 'description'],
          text: 'IATA code',
        },
        renameOnly: false,
      },
    ]);
  });
});
