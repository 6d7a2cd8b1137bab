// Tool operators on parameter schemas that nest their parameters under every subschema keyword: random law
// cases whose tool schemas are rewritten, keeping what validates, with `$defs`/`$ref` (one definition
// referenced from two places), `anyOf`, `oneOf`, `allOf`, `if`/`then`/`else`, `not`, `patternProperties`,
// `dependentRequired`, `prefixItems` and `additionalProperties` schemas. Every operator's variant validates
// the relabeled arguments (ajv, through validateTrajectory) and its inverse restores each trajectory exactly
// (the kit's laws), or the operator leaves that schema alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolOperators } from '../../../perturbations/tools/index.js';
import { toChatCompletionTools } from '../../../src/harness/offered-tools.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import type { Tool } from '../../../src/harness/schema.js';
import { walkSubschemas } from '../../../src/harness/schema-walk.js';
import { checkOperatorLaws, type LawCase, randomLawCase } from '../../../src/kit/laws.js';
import { validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';

/** Rewrites of a parameter schema that accept exactly the values it accepted, each with a keyword. */
const keywordRewrites = {
  anyOf: (schema: object) => ({ anyOf: [schema, { type: 'null' }] }),
  oneOf: (schema: object) => ({ oneOf: [schema, { type: 'null' }] }),
  allOf: (schema: object) => ({ allOf: [schema, {}] }),
  not: (schema: object) => ({ ...schema, not: { type: 'null' } }),
} as const;
type Rewrite = keyof typeof keywordRewrites;

/** Spelled apart so that no object literal holds a `then` (a thenable, to the linter). */
const thenKeyword = 'then';

interface SchemaPlan {
  tool: number;
  /** Which parameters move to a shared `$defs` entry (two of the same schema share one). */
  shared: boolean;
  rewrite: Rewrite | 'none';
  /** Root keywords that name properties. */
  conditional: boolean;
  pattern: boolean;
  dependent: boolean;
  /** A `prefixItems` / `additionalProperties` subschema with properties of its own, unused by the calls. */
  decoy: boolean;
  /** Extra keys must look like the first parameter: a `$ref` whose pointer spells a property name. */
  extraLikeFirst: boolean;
}

const schemaPlan = fc.record({
  tool: fc.nat({ max: 3 }),
  shared: fc.boolean(),
  rewrite: fc.constantFrom<Rewrite | 'none'>('anyOf', 'oneOf', 'allOf', 'not', 'none'),
  conditional: fc.boolean(),
  pattern: fc.boolean(),
  dependent: fc.boolean(),
  decoy: fc.boolean(),
  extraLikeFirst: fc.boolean(),
});

function rewriteSchema(parameters: Tool['parameters'], plan: SchemaPlan): Tool['parameters'] {
  const schema = structuredClone(parameters) as Record<string, unknown> & {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const names = Object.keys(schema.properties);
  const first = names[0] as string;
  const $defs: Record<string, unknown> = {};
  for (const [index, name] of names.entries()) {
    let property = schema.properties[name] as Record<string, unknown>;
    if (plan.shared) {
      const key = `Def${JSON.stringify(property).length}_${index % 2}`;
      $defs[key] ??= property;
      // Equal schemas share one definition, so a `$ref` may come from two properties.
      const same = Object.entries($defs).find(
        ([, value]) => JSON.stringify(value) === JSON.stringify(property),
      );
      property = { $ref: `#/$defs/${same?.[0] ?? key}` };
    }
    if (plan.rewrite !== 'none' && index === names.length - 1)
      property = keywordRewrites[plan.rewrite](property);
    schema.properties[name] = property;
  }
  if (plan.conditional)
    Object.assign(schema, {
      if: { required: [first] },
      [thenKeyword]: { required: [first] },
      else: { not: { required: [first] } },
    });
  if (plan.extraLikeFirst) schema.additionalProperties = { $ref: `#/properties/${first}` };
  if (plan.pattern) schema.patternProperties = { '^x_': { type: 'string' } };
  if (plan.dependent) schema.dependentRequired = { [first]: [first] };
  if (plan.decoy)
    $defs.Unused = {
      type: 'array',
      prefixItems: [{ type: 'object', properties: { [first]: { type: 'string' } } }],
      items: false,
    };
  if (Object.keys($defs).length > 0) schema.$defs = $defs;
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema } as Tool['parameters'];
}

/** A random law case with one tool's schema rewritten; its trajectories stay valid. */
function subschemaCase(seed: number, plan: SchemaPlan): LawCase {
  const base = randomLawCase(seed);
  const index = plan.tool % base.harness.tools.items.length;
  const items = base.harness.tools.items.map((tool, at) =>
    at === index ? { ...tool, parameters: rewriteSchema(tool.parameters, plan) } : tool,
  );
  const harness = parseHarness({ ...base.harness, tools: { ...base.harness.tools, items } });
  // The trajectories offer the harness's tools: the rewritten schema too.
  const trajectories = base.trajectories.map((trajectory) => ({
    ...trajectory,
    tools: toChatCompletionTools(harness),
  }));
  return { ...base, name: `subschemas/${seed}/${JSON.stringify(plan)}`, harness, trajectories };
}

const cases = fc
  .sample(fc.tuple(fc.nat({ max: 10_000 }), schemaPlan), { seed: 39, numRuns: 12 })
  .map(([seed, plan]) => subschemaCase(seed, plan));

describe('tool operators on schemas with every subschema keyword', () => {
  it('the generated cases are valid, and nest parameters under the keywords', () => {
    const keywords = new Set<string>();
    for (const lawCase of cases) {
      for (const trajectory of lawCase.trajectories)
        expect(validateTrajectory(trajectory, lawCase.harness).issues).toEqual([]);
      for (const tool of lawCase.harness.tools.items)
        walkSubschemas(tool.parameters, (_node, place) => {
          for (const key of place.pointer) if (typeof key === 'string') keywords.add(key);
        });
    }
    expect([...keywords]).toEqual(expect.arrayContaining(['$defs', 'anyOf', 'if', 'then', 'else', 'not']));
  });

  // tools/drop-unused and tools/reorder never read a schema; the others change or move parameters.
  const schemaOperators = toolOperators.filter(
    (operator) => operator.id !== 'tools/drop-unused' && operator.id !== 'tools/reorder',
  );
  it.each(schemaOperators.map((operator) => [operator.id, operator] as const))(
    '%s: variants validate the relabeled arguments and invert exactly',
    async (_id, operator) => {
      const report = await checkOperatorLaws(operator, { cases, randomCases: false, runs: 25 });
      expect(report.runs).toBe(25);
    },
    120_000,
  );
});
