// Tool operators on real MCP schemas: GitHub's MCP server (`anyOf` with null, array items that are a `oneOf`
// of a string and an object with properties; test/perturbations/fixtures/README.md) and the 2020-12
// `tools/list` fixture (`$defs`/`$ref`, `prefixItems`, `dependentRequired`, `unevaluatedProperties`). Every
// operator that reads schemas keeps the laws on a case that calls those tools: the relabeled arguments
// validate under the variant (ajv) and the inverse restores the trajectory exactly, or the operator leaves
// the schema alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolOperators } from '../../../perturbations/tools/index.js';
import { importMcpTools } from '../../../src/harness/importers/mcp-tools.js';
import { toChatCompletionTools } from '../../../src/harness/offered-tools.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../../src/harness/render-prompt.js';
import { hasPlainProperties, walkSubschemas } from '../../../src/harness/schema-walk.js';
import { checkOperatorLaws, type LawCase, randomLawCase } from '../../../src/kit/laws.js';
import type { Message } from '../../../src/trajectory/schema.js';
import { validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { projectRoot } from '../../support/run-cli.js';

const listed = (file: string) =>
  importMcpTools((JSON.parse(readFileSync(join(projectRoot, file), 'utf8')) as { result: unknown }).result);
const realTools = [
  ...listed('test/perturbations/fixtures/github-mcp-server-tools-list.json'),
  ...listed('fixtures/importers/mcp-tools-list-2020-12.json'),
];

/** One valid call per real tool, written for this test. */
const calls: Record<string, unknown> = {
  projects_write: {
    method: 'update_project_item',
    owner: 'octo-org',
    project_number: 3,
    item_id: 42,
    filter: null,
  },
  update_issue_labels: {
    owner: 'octo-org',
    repo: 'hello-world',
    issue_number: 7,
    labels: ['bug', { name: 'p1', confidence: 'HIGH' }],
  },
  issue_write: { method: 'update', owner: 'octo-org', repo: 'hello-world', issue_number: 7, type: null },
  create_issue: {
    owner: 'octo-org',
    repo: 'hello-world',
    title: 'Crash on save',
    priority: 'high',
    range: [3, 9],
    path: 'src/save.ts',
  },
  list_events: { calendar_id: 'primary', max_results: 10 },
};

/** A random law case whose harness also has the real tools, and whose first trajectory calls each once. */
function realCase(seed: number): LawCase {
  const base = randomLawCase(seed);
  const harness = parseHarness({
    ...base.harness,
    tools: { ...base.harness.tools, items: [...base.harness.tools.items, ...realTools] },
  });
  const [first, ...rest] = base.trajectories;
  const messages = first?.messages ?? [];
  const user = messages.findIndex((message) => message.role === 'user');
  const names = Object.keys(calls);
  const inserted: Message[] = [
    {
      role: 'assistant',
      content: null,
      tool_calls: names.map((name, index) => ({
        id: `call_real_${index}`,
        type: 'function' as const,
        function: { name, arguments: JSON.stringify(calls[name]) },
      })),
    },
    ...names.map(
      (_, index): Message => ({ role: 'tool', tool_call_id: `call_real_${index}`, content: '{"ok":true}' }),
    ),
  ];
  const trajectories = [
    { ...first!, messages: [...messages.slice(0, user + 1), ...inserted, ...messages.slice(user + 1)] },
    ...rest,
  ].map((trajectory) => ({
    ...trajectory,
    tools: toChatCompletionTools(harness),
    // The prompt lists the tools: rendered again from the harness with the real tools.
    messages: [
      { role: 'system' as const, content: renderSystemPrompt(harness, trajectory.context) },
      ...trajectory.messages.slice(1),
    ],
  }));
  return { ...base, name: `real-schemas/${seed}`, harness, trajectories };
}

const cases = [1, 2, 3, 4].map(realCase);

describe('tool operators on real MCP schemas', () => {
  it('the cases are valid, and the walk reaches the parameters nested under anyOf, oneOf and $defs', () => {
    for (const lawCase of cases)
      for (const trajectory of lawCase.trajectories)
        expect(validateTrajectory(trajectory, lawCase.harness).issues).toEqual([]);
    const pointers = new Map<string, string[]>();
    for (const tool of realTools) {
      const found: string[] = [];
      walkSubschemas(tool.parameters, (_node, place) => found.push(place.pointer.join('/')));
      pointers.set(tool.name, found);
    }
    expect(pointers.get('projects_write')).toContain('properties/filter/anyOf/1');
    expect(pointers.get('update_issue_labels')).toContain(
      'properties/labels/items/oneOf/1/properties/confidence',
    );
    expect(pointers.get('create_issue')).toEqual(
      expect.arrayContaining(['$defs/Assignee', 'properties/range/prefixItems/1']),
    );
    // Object keys under a oneOf branch, a shared $defs entry: a rename would have to relabel what has no
    // parameter path, so the renaming operators leave these schemas alone. A leaf `anyOf` of a string and
    // null (issue_write's `type`) names no key: its tool may be renamed.
    expect(realTools.filter((tool) => !hasPlainProperties(tool.parameters)).map((tool) => tool.name)).toEqual(
      ['projects_write', 'update_issue_labels', 'create_issue'],
    );
  });

  const schemaOperators = toolOperators.filter(
    (operator) => operator.id !== 'tools/drop-unused' && operator.id !== 'tools/reorder',
  );
  it.each(schemaOperators.map((operator) => [operator.id, operator] as const))(
    '%s: variants validate the relabeled arguments and invert exactly',
    async (_id, operator) => {
      const report = await checkOperatorLaws(operator, { cases, randomCases: false, runs: 20 });
      expect(report.runs).toBe(20);
    },
    120_000,
  );
});
