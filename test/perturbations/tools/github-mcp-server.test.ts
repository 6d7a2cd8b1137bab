// GitHub's official MCP server as it ships (test/perturbations/fixtures/github-mcp-server-*: tool snapshots and
// the server's instructions, verbatim). An audit of `hat` rows on it found tools/rename breaking the families
// the instructions address by name pattern ("Use 'search_*' tools …"), tools/rename-parameters renaming
// parameters the descriptions name in quotes, in lists and with a type, and tools/add-optional-parameters
// adding a `timezone` to a write tool that never speaks of times and a second result shape beside `fields`.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addOptionalParameters } from '../../../perturbations/tools/add-optional-parameters.js';
import { renameTools } from '../../../perturbations/tools/rename.js';
import { renameParameters } from '../../../perturbations/tools/rename-parameters.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { importMcpTools } from '../../../src/harness/importers/mcp-tools.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import type { HarnessInput } from '../../../src/harness/schema.js';
import { parameterNamesInProse } from '../../../src/kit/mentions.js';
import { projectRoot } from '../../support/run-cli.js';
import { travelHarnessInput } from '../../support/travel-harness.js';

const fixture = (name: string) => join(projectRoot, 'test/perturbations/fixtures', name);
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};

/** The ten default-toolset tools, `issue_write` (the other fixture) and the server's instructions as the prompt. */
async function githubHarness(extra: HarnessInput['tools']['items'] = []) {
  const listed = JSON.parse(await readFile(fixture('github-mcp-server-default-tools.json'), 'utf8'));
  const older = JSON.parse(await readFile(fixture('github-mcp-server-tools-list.json'), 'utf8'));
  const issueWrite = importMcpTools(older).filter((tool) => tool.name === 'issue_write');
  const input = travelHarnessInput();
  input.tools.items = [...importMcpTools(listed), ...issueWrite, ...extra];
  input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
  input.prompt.sections = [
    {
      id: 'instructions',
      title: 'Instructions',
      template: await readFile(fixture('github-mcp-server-instructions.md'), 'utf8'),
    },
  ];
  input.hooks.items = [];
  return parseHarness(input);
}

/** `tool:path.to.old` for every parameter rename of the relabel. */
const renamedParameters = (result: AppliedOperator) =>
  result.relabel.steps.flatMap((step) =>
    step.type === 'rename_arguments'
      ? step.renames.map((rename) => `${step.tool}:${[...rename.path, rename.from].join('.')}`)
      : [],
  );

describe("tools/rename on GitHub's MCP server", () => {
  // "1. Use 'list_*' tools for broad, simple retrieval …", "2. Use 'search_*' tools for targeted queries …",
  // "For 'search_*' tools: Use separate 'sort' and 'order' parameters": a renamed `searchIssues` left the
  // family the rules speak of (48 of 49 rows with the operator).
  it("keeps every tool a name pattern of the instructions matches, and lets no new name join 'list_*' or 'search_*'", async () => {
    const github = await githubHarness();
    const family = /^(?:list|search)_/u;
    const renamedTools = new Set<string>();
    for (let index = 0; index < 24; index++) {
      const result = applied(
        await applyOperator(renameTools, github, { rng: `github-${index}`, severity: 1 }),
      );
      const map = Object.assign(
        {},
        ...result.relabel.steps.flatMap((step) => (step.type === 'rename_tools' ? [step.map] : [])),
      ) as Record<string, string>;
      for (const [from, to] of Object.entries(map)) {
        renamedTools.add(from);
        expect(from, `${from} → ${to}`).not.toMatch(family);
        expect(to, `${from} → ${to}`).not.toMatch(family);
      }
      const names = result.harness.tools.items.map((tool) => tool.name);
      for (const name of ['list_issues', 'list_commits', 'search_issues', 'search_code'])
        expect(names).toContain(name);
    }
    // The other tools are renamed as before.
    for (const name of ['get_me', 'add_issue_comment', 'pull_request_review_write', 'issue_write'])
      expect(renamedTools).toContain(name);
  });
});

describe("tools/rename-parameters on GitHub's MCP server", () => {
  // Each as the audit met it: the name, and the text the variant kept that names it.
  const kept = {
    direction: "list_issues.orderBy: If provided, the 'direction' also needs to be provided.",
    delete: "issue_write.issue_fields: exactly one of 'value', 'field_option_name', or 'delete: true'.",
    value:
      "issue_write.issue_fields[].delete: Cannot be true when 'value' or 'field_option_name' is provided.",
    body: 'pull_request_review_write: The "body" and "event" parameters are used when submitting the review.',
    sort: "instructions: Use separate 'sort' and 'order' parameters if available for sorting results",
    content: 'push_files.files: each object with path (string) and content (string)',
    path: 'push_files.files: each object with path (string) and content (string)',
    reaction: 'add_issue_comment: At least one of body or reaction is required.',
    ref: 'get_file_contents.sha: If specified, it will be used instead of ref',
    method: "instructions: Always use 'pull_request_review_write' with method 'create'",
  };

  it('reads each of these names as a parameter the text names', async () => {
    const named = parameterNamesInProse(await githubHarness());
    for (const [name, where] of Object.entries(kept)) expect(named.has(name), where).toBe(true);
    // `fields`' "e.g. just 'sha' and 'html_url'" quotes keys of the result, values of `fields` itself.
    expect(named.has('sha')).toBe(false);
  });

  it('renames none of them, and the other names still', async () => {
    const github = await githubHarness();
    const renamed = new Set<string>();
    for (let index = 0; index < 16; index++) {
      const result = applied(
        await applyOperator(renameParameters, github, { rng: `github-${index}`, severity: 1 }),
      );
      for (const rename of renamedParameters(result))
        renamed.add(
          rename
            .replace(/^[^:]*:/u, '')
            .split('.')
            .at(-1) as string,
        );
    }
    for (const [name, where] of Object.entries(kept)) expect(renamed.has(name), where).toBe(false);
    for (const name of ['sha', 'page', 'fields', 'author']) expect(renamed).toContain(name);
  });

  // issue_write's `issue_fields` is an array ("Issue field values to set or clear"): the phrase "issue field"
  // named it `issue_field` in 4 of 216 rows, one field where the tool takes several.
  it('names a plural parameter in the plural when it takes a phrase from the description', async () => {
    const github = await githubHarness();
    const newNames = new Map<string, Set<string>>();
    for (let index = 0; index < 24; index++) {
      const result = applied(
        await applyOperator(renameParameters, github, {
          rng: `github-phrase-${index}`,
          severity: 1,
          params: { style: 'phrase' },
        }),
      );
      for (const step of result.relabel.steps)
        if (step.type === 'rename_arguments')
          for (const rename of step.renames)
            newNames.set(rename.from, new Set([...(newNames.get(rename.from) ?? []), rename.to]));
    }
    const issueFields = [...(newNames.get('issue_fields') ?? [])];
    expect(issueFields.length).toBeGreaterThan(0);
    for (const name of issueFields) expect(name).toMatch(/s(?:_(?:value|field|input|param))?$/u);
    // A phrase in the name's own number is still drawn: "Commit message" for `message`… and the like.
    const phrased = [...newNames.values()]
      .flatMap((names) => [...names])
      .filter((name) => /^[a-z]+_[a-z]+$/u.test(name));
    expect(phrased.length).toBeGreaterThan(0);
  });
});

describe("tools/add-optional-parameters on GitHub's MCP server and OpenHands' think", () => {
  // OpenHands' CodeAct `think` (All-Hands-AI/OpenHands at 156d0686, MIT), verbatim: it "simply logs your
  // thought", and a second audit found a `timezone` for "timestamps in the result" on it.
  const think = {
    name: 'think',
    description:
      'Use the tool to think about something. It will not obtain new information or make any changes to the repository, but just log the thought. Use it when complex reasoning or brainstorming is needed.\n\nCommon use cases:\n1. When exploring a repository and discovering the source of a bug, call this tool to brainstorm several unique ways of fixing the bug, and assess which change(s) are likely to be simplest and most effective.\n2. After receiving test results, use this tool to brainstorm ways to fix failing tests.\n3. When planning a complex refactoring, use this tool to outline different approaches and their tradeoffs.\n4. When designing a new feature, use this tool to think through architecture decisions and implementation details.\n5. When debugging a complex issue, use this tool to organize your thoughts and hypotheses.\n\nThe tool simply logs your thought process for better transparency and does not execute any code or make changes.',
    parameters: {
      type: 'object' as const,
      properties: { thought: { type: 'string', description: 'The thought to log.' } },
      required: ['thought'],
    },
  };

  it('adds a timezone only to a tool whose texts speak of times, and no second result shape beside fields', async () => {
    const github = await githubHarness([think]);
    const added = new Map<string, Set<string>>();
    for (let index = 0; index < 60; index++) {
      const output = applied(
        await applyOperator(addOptionalParameters, github, { rng: `github-${index}`, severity: 1 }),
      );
      for (const tool of output.harness.tools.items) {
        const before = github.tools.items.find((other) => other.name === tool.name);
        const own = new Set(Object.keys(before?.parameters.properties ?? {}));
        for (const name of Object.keys(tool.parameters.properties ?? {}))
          if (!own.has(name)) added.set(tool.name, new Set([...(added.get(tool.name) ?? []), name]));
      }
    }
    // "If "event" is omitted, a pending review is created": a verb, no time. "just log the thought": no log.
    // issue_write's "date fields (date as YYYY-MM-DD)" describes an input object's field, not the result.
    for (const tool of [
      'pull_request_review_write',
      'think',
      'add_issue_comment',
      'push_files',
      'issue_write',
    ])
      expect(added.get(tool)?.has('timezone') ?? false, `timezone on ${tool}`).toBe(false);
    // `since` ("Only commits after this date"), `until`: list_commits speaks of times.
    expect(added.get('list_commits')?.has('timezone')).toBe(true);
    // list_commits' own `fields` ("Subset of fields to return for each commit. If omitted, all fields are
    // returned") shapes its result: no `verbose`, `include_details` (default false) or `response_format`.
    const shaping = ['fields', 'verbose', 'include_details', 'response_format'];
    const withFields = github.tools.items
      .filter((tool) => Object.hasOwn(tool.parameters.properties ?? {}, 'fields'))
      .map((tool) => tool.name);
    expect(withFields).toContain('list_commits');
    for (const tool of withFields)
      for (const name of shaping)
        expect(added.get(tool)?.has(name) ?? false, `${name} on ${tool}`).toBe(false);
    // A tool that reads and has no shape of its own still takes one.
    expect(shaping.some((name) => added.get('get_me')?.has(name))).toBe(true);
  });
});
