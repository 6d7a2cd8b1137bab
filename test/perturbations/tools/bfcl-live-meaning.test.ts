// Text-level tool operators on BFCL's live function docs, each tool alone and a line's tools together
// (test/perturbations/fixtures/README.md: unedited function objects of BFCL v4's live and single-turn sets).
// A variant is certified as the same task, so none may change what a tool does: `multiply` "returns the
// product", never "the item"; `solve_quadratic` finds the roots, never searches for them; a velocity is in
// "meters per second"; a hotel's rooms are reserved, not held; an order's status is checked, not verified;
// `fetchPerson` takes no two parameters that shape its result one against the other, and `get_time_headway`
// (which calculates a time) and `getDetails` (which asks the user) none; no calculator beside `multiply` and
// `sub`, no reminder beside `set_alarm`; no `options` wrapper around the id of the configuration
// `delete_apdex_configuration` deletes.
import { describe, expect, it } from 'vitest';
import { addDistractors } from '../../../perturbations/tools/add-distractors.js';
import { addOptionalParameters } from '../../../perturbations/tools/add-optional-parameters.js';
import { nestArguments } from '../../../perturbations/tools/nest-arguments.js';
import { rewordDescriptions } from '../../../perturbations/tools/reword-descriptions.js';
import { applyOperator } from '../../../src/augment/operator.js';
import type { Harness, Tool } from '../../../src/harness/schema.js';
import { bfclTools, toolsHarness as helpedHarness } from '../../support/bfcl-tools.js';

const toolsHarness = (tools: Tool[]) => helpedHarness(tools, 'You help.');

/** Each tool alone, then the named tools together (as one BFCL line offers them). */
const harnesses = (tools: Tool[], together: readonly string[]) => [
  ...tools.map((tool) => toolsHarness([tool])),
  toolsHarness(tools.filter((tool) => together.includes(tool.name))),
];

/** Every variant an operator makes of each harness over seeds, at full severity. */
async function variants(
  operator: Parameters<typeof applyOperator>[0],
  list: Harness[],
  seeds = 16,
): Promise<Harness[]> {
  const out: Harness[] = [];
  for (const harness of list)
    for (let seed = 0; seed < seeds; seed++) {
      const result = await applyOperator(operator, harness, {
        rng: `bfcl${seed}`,
        severity: 1,
      });
      if (!('skip' in result)) out.push(result.harness);
    }
  return out;
}

/** Every description of a tool: its own and its parameters'. */
function descriptions(tool: Tool): string[] {
  const properties = (tool.parameters.properties ?? {}) as Record<string, { description?: string }>;
  return [
    tool.description,
    ...Object.values(properties).flatMap((p) => (p.description ? [p.description] : [])),
  ];
}

const find = (harness: Harness, name: string) => harness.tools.items.find((tool) => tool.name === name);

describe('text-level tool operators on BFCL live function docs', () => {
  /** Every reworded harness of the three fixtures, each tool alone and the arithmetic line's tools together. */
  async function reworded(): Promise<Harness[]> {
    const arithmetic = await bfclTools('bfcl-live-arithmetic.jsonl');
    return [
      ...(await variants(rewordDescriptions, harnesses(arithmetic, ['multiply', 'add', 'sub']))),
      ...(await variants(
        rewordDescriptions,
        harnesses(await bfclTools('bfcl-live-vehicles-records.jsonl'), []),
      )),
      ...(await variants(
        rewordDescriptions,
        harnesses(await bfclTools('bfcl-live-bookings-alarms.jsonl'), []),
      )),
    ];
  }
  const reworded_ = (name: string, all: Harness[]) =>
    all.flatMap((harness) => harness.tools.items.filter((tool) => tool.name === name));

  it('tools/reword-descriptions keeps the product of a multiplication', async () => {
    const all = await reworded();
    for (const tool of [...reworded_('multiply', all), ...reworded_('CalcProduct', all)])
      expect(descriptions(tool).join('\n')).not.toMatch(/\bitem\b/);
    // The operator still rewords these tools where the meaning stays ("Calculates" → "Computes").
    expect(reworded_('CalcProduct', all).map((tool) => tool.description)).toContain(
      'Computes the product of two numeric values.',
    );
  });

  it('tools/reword-descriptions keeps "Find the roots", which computes them', async () => {
    const all = await reworded();
    const solve = reworded_('solve_quadratic', all);
    expect(solve.length).toBeGreaterThan(0);
    for (const tool of solve) expect(tool.description).toMatch(/^Find the roots/);
  });

  it('tools/reword-descriptions keeps "per" in a unit ("meters per second")', async () => {
    const all = await reworded();
    const vehicles = [...reworded_('get_time_to_collision', all), ...reworded_('get_time_headway', all)];
    expect(vehicles.length).toBeGreaterThan(0);
    for (const tool of vehicles) expect(descriptions(tool).join('\n')).not.toMatch(/for each second/);
  });

  it('tools/reword-descriptions never makes a reservation a hold', async () => {
    const all = await reworded();
    // Its description has nothing else to reword: the tool is left as it is, or reworded elsewhere.
    const hotels = reworded_('Hotels_4_ReserveHotel', all);
    for (const tool of hotels) expect(tool.description).not.toMatch(/^Hold/);
  });

  const shaping = ['fields', 'response_format', 'include_details', 'verbose'];
  async function withOptional(): Promise<Tool[]> {
    const tools = await bfclTools('bfcl-live-vehicles-records.jsonl');
    const list = harnesses(tools, ['get_time_headway', 'get_time_to_collision']);
    return (await variants(addOptionalParameters, list)).flatMap((harness) => harness.tools.items);
  }
  const shapingOf = (tool: Tool) =>
    Object.keys(tool.parameters.properties ?? {}).filter((key) => shaping.includes(key));

  it('tools/reword-descriptions keeps "Check the current status", which looks it up', async () => {
    const all = await reworded();
    for (const tool of reworded_('order_status_check', all))
      expect(tool.description).toMatch(/^Check the current status/);
  });

  it('tools/add-optional-parameters adds one result-shaping parameter at most', async () => {
    const fetched = (await withOptional()).filter((tool) => tool.name === 'fetchPerson');
    for (const tool of fetched)
      expect(shapingOf(tool).length, shapingOf(tool).join(', ')).toBeLessThanOrEqual(1);
    // `fetchPerson` ("Retrieves the details of a person") still takes one.
    expect(fetched.filter((tool) => shapingOf(tool).length === 1).length).toBeGreaterThan(0);
  });

  it('tools/add-optional-parameters shapes no result of a tool that computes a value', async () => {
    for (const tool of await withOptional())
      if (tool.name.startsWith('get_time')) expect(shapingOf(tool), tool.name).toEqual([]);
  });

  it('tools/add-optional-parameters shapes no result of a tool that asks the user', async () => {
    const asked = (await withOptional()).filter((tool) => tool.name === 'getDetails');
    expect(asked.length).toBeGreaterThan(0);
    for (const tool of asked) {
      expect(shapingOf(tool)).toEqual([]);
      expect(Object.keys(tool.parameters.properties ?? {})).not.toContain('locale');
    }
  });

  it('tools/add-distractors draws no calculator beside arithmetic tools and no reminder beside an alarm', async () => {
    const arithmetic = await bfclTools('bfcl-live-arithmetic.jsonl');
    const bookings = await bfclTools('bfcl-live-bookings-alarms.jsonl');
    const added = new Set<string>();
    for (const harness of await variants(
      addDistractors,
      harnesses(arithmetic.slice(0, 3), ['multiply', 'add', 'sub']),
    ))
      for (const tool of harness.tools.items) {
        expect(tool.name).not.toBe('calculate_expression');
        added.add(tool.name);
      }
    for (const harness of await variants(addDistractors, [
      toolsHarness(bookings.filter((tool) => tool.name === 'set_alarm')),
    ]))
      for (const tool of harness.tools.items) {
        expect(tool.name).not.toBe('set_reminder');
        added.add(tool.name);
      }
    expect(added.size).toBeGreaterThan(4);
  });

  it('tools/nest-arguments never wraps a required argument in `options`', async () => {
    const tools = await bfclTools('bfcl-live-vehicles-records.jsonl');
    const wrappers = new Set<string>();
    for (const harness of await variants(nestArguments, harnesses(tools, []), 24)) {
      const tool = find(harness, 'delete_apdex_configuration');
      if (!tool) continue;
      const [wrapper] = Object.keys(tool.parameters.properties ?? {});
      if (wrapper !== 'id') wrappers.add(wrapper as string);
    }
    expect(wrappers.size).toBeGreaterThan(2);
    expect([...wrappers]).not.toContain('options');
  });
});
