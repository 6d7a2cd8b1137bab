// What a variant changed in argument schemas beyond renames and descriptions, for the review page: a user
// audit on BFCL found nest-arguments rows reading "No text changed" and add-optional-parameters rows showing
// none of the 30 parameters added.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addOptionalParameters } from '../../perturbations/tools/add-optional-parameters.js';
import { changeSchemaStyle } from '../../perturbations/tools/change-schema-style.js';
import { nestArguments } from '../../perturbations/tools/nest-arguments.js';
import { renameTools } from '../../perturbations/tools/rename.js';
import { renameParameters } from '../../perturbations/tools/rename-parameters.js';
import { reorderProperties } from '../../perturbations/tools/reorder-properties.js';
import { rewordDescriptions } from '../../perturbations/tools/reword-descriptions.js';
import { applyOperator } from '../../src/augment/operator.js';
import { importMcpTools } from '../../src/harness/importers/mcp-tools.js';
import { skeletonHarness } from '../../src/harness/importers/skeleton.js';
import type { Harness } from '../../src/harness/schema.js';
import { argumentChanges } from '../../src/review/argument-changes.js';
import { composeRelabels } from '../../src/trajectory/relabel.js';
import { projectRoot } from '../support/run-cli.js';
import { travelHarness } from '../support/travel-harness.js';

const apply = async (operator: unknown, harness: Harness, rng = 'a') => {
  const result = await applyOperator(operator as typeof nestArguments, harness, { rng, severity: 1 });
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};

describe('argumentChanges', () => {
  const base = travelHarness();

  it('is empty for the base, and for renames and rewordings alone', async () => {
    expect(argumentChanges(base, base, { steps: [] })).toEqual([]);
    const renamed = await apply(renameParameters, base);
    expect(renamed.relabel.steps.length).toBeGreaterThan(0);
    expect(argumentChanges(base, renamed.harness, renamed.relabel)).toEqual([]);
    const reworded = await apply(rewordDescriptions, base);
    expect(argumentChanges(base, reworded.harness, reworded.relabel)).toEqual([]);
  });

  it('reads a title made from a renamed name as part of the rename (pydantic titles of AgentDojo)', async () => {
    const tools = importMcpTools(
      (
        JSON.parse(
          readFileSync(
            join(projectRoot, 'test/perturbations/fixtures/agentdojo-email-calendar-tools.json'),
            'utf8',
          ),
        ) as { result: unknown }
      ).result,
    );
    const agentdojo = skeletonHarness({ id: 'agentdojo', tools });
    let variant = agentdojo;
    const relabels = [];
    for (const operator of [renameTools, renameParameters]) {
      const applied = await apply(operator, variant, 't');
      variant = applied.harness;
      relabels.push(applied.relabel);
    }
    const relabel = composeRelabels(...relabels);
    expect(relabel.steps.some((step) => step.type === 'rename_arguments')).toBe(true);
    expect(JSON.stringify(variant.tools)).not.toBe(JSON.stringify(agentdojo.tools));
    expect(argumentChanges(agentdojo, variant, relabel)).toEqual([]);
  });

  it('names the wrapper and the tools that tools/nest-arguments nested, and nothing else', async () => {
    const { harness, relabel } = await apply(nestArguments, base);
    const wrappers = new Map<string, string[]>();
    for (const step of relabel.steps)
      if (step.type === 'nest_arguments')
        wrappers.set(step.under, [...(wrappers.get(step.under) ?? []), step.tool]);
    expect(argumentChanges(base, harness, relabel)).toEqual(
      [...wrappers].map(
        ([under, tools]) =>
          `arguments nested under \`${under}\`: ${tools.length} tool${tools.length === 1 ? '' : 's'} (${tools.join(', ')})`,
      ),
    );
  });

  it('lists the optional parameters tools/add-optional-parameters added, with their tools', async () => {
    const { harness } = await apply(addOptionalParameters, base);
    const added = new Map<string, string[]>();
    for (const [index, tool] of harness.tools.items.entries()) {
      const before = Object.keys((base.tools.items[index]!.parameters as { properties: object }).properties);
      for (const name of Object.keys((tool.parameters as { properties: object }).properties))
        if (!before.includes(name)) added.set(name, [...(added.get(name) ?? []), tool.name]);
    }
    expect(added.size).toBeGreaterThan(0);
    const [line, ...rest] = argumentChanges(base, harness, { steps: [] });
    expect(rest).toEqual([]);
    expect(line).toBe(
      `optional parameters added: ${[...added].map(([name, tools]) => `\`${name}\` (${tools.join(', ')})`).join(', ')}`,
    );
  });

  it('reads nesting, renames and added parameters composed, in the variant names', async () => {
    let variant = base;
    const relabels = [];
    for (const operator of [nestArguments, renameParameters, addOptionalParameters]) {
      const applied = await apply(operator, variant, 'c');
      variant = applied.harness;
      relabels.push(applied.relabel);
    }
    const lines = argumentChanges(base, variant, composeRelabels(...relabels));
    expect(lines.some((line) => line.startsWith('arguments nested under'))).toBe(true);
    expect(lines.some((line) => line.startsWith('optional parameters added: '))).toBe(true);
    // No base parameter reads as removed, nor a renamed one as added.
    expect(lines.filter((line) => /removed|required|keywords/.test(line))).toEqual([]);
  });

  it('names reordered properties, keyword restyles, and a parameter removed or made required', async () => {
    const reordered = await apply(reorderProperties, base, 'r');
    expect(argumentChanges(base, reordered.harness, reordered.relabel)).toEqual([
      expect.stringMatching(/^properties reordered: /),
    ]);
    const styled = await apply(changeSchemaStyle, base, 's');
    expect(argumentChanges(base, styled.harness, styled.relabel)).toEqual([
      expect.stringMatching(/^schema keywords changed: `(title|oneOf|enum)`/),
    ]);
    const variant = structuredClone(base);
    const parameters = variant.tools.items[0]?.parameters as {
      properties: Record<string, unknown>;
      required: string[];
    };
    delete parameters.properties.origin;
    parameters.required = ['destination', 'date', 'filters'];
    expect(argumentChanges(base, variant, { steps: [] })).toEqual([
      'parameters removed (base names): `origin` (find_flights)',
      'made required: `filters` (find_flights)',
    ]);
  });
});
