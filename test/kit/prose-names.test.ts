// Names a rename could not follow, as audits of certified rows met them in public harnesses: MCP reference
// servers ("call fetch again", "set raw to true"), a coding agent's tools ("Use the Read tool" for `read`,
// "use the Bash tool with `grep` directly", `workdir="/foo"`, "offset/limit").
import { describe, expect, it } from 'vitest';
import { renameTools } from '../../perturbations/tools/rename.js';
import { renameParameters } from '../../perturbations/tools/rename-parameters.js';
import { applyOperator } from '../../src/augment/operator.js';
import { namesMatchedByPatterns, plainToolNamesWritten } from '../../src/augment/unfollowable-names.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { HarnessInput } from '../../src/harness/schema.js';
import {
  parameterNamesInOtherTools,
  parameterNamesInProse,
  plainToolNamesInText,
  unresolvedCodeNames,
} from '../../src/kit/mentions.js';
import { travelHarnessInput } from '../support/travel-harness.js';

const tool = (name: string, description: string, properties: Record<string, object> = {}) => ({
  name,
  description,
  parameters: { type: 'object' as const, properties },
});

/** A harness of the given tools and one prompt section. */
function harnessOf(items: HarnessInput['tools']['items'], prompt: string) {
  const input = travelHarnessInput();
  input.tools.items = items;
  input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
  input.prompt.sections = [{ id: 'rules', title: 'Rules', template: prompt }];
  input.hooks.items = [];
  return parseHarness(input);
}

describe('plainToolNamesInText', () => {
  it('finds a plain tool name written bare, in code or in another case, never "the <name> tool"', () => {
    const harness = harnessOf(
      [
        tool('fetch', 'Fetches a URL.'),
        tool('read', 'Reads a file.'),
        tool('grep', 'Searches file contents.'),
        tool('sequentialthinking', 'Thinks in steps.'),
        tool('get_time', 'Tells the time.'),
        tool('glob', 'Finds files.'),
      ],
      [
        'Use the fetch tool to read a page; if it is cut off, call fetch again.',
        'Use the Read tool before you edit.',
        'For content search, use the Bash tool with `grep` directly.',
        'Work hard problems through with sequentialthinking.',
        'Call get_time first. The glob tool finds files; see src/glob/README.md.',
      ].join('\n'),
    );
    expect([...plainToolNamesInText(harness)].sort()).toEqual([
      'fetch',
      'grep',
      'read',
      'sequentialthinking',
    ]);
    // Only "the glob tool" names glob, and a path is another thing: it may be renamed.
    expect(plainToolNamesInText(harness).has('glob')).toBe(false);
    // "the glob tool" in Chinese is the tool's mention; a toolbox (工具箱) is not.
    expect(plainToolNamesWritten(['glob'], ['用 glob 工具查找文件。'])).toEqual(new Set());
    expect(plainToolNamesWritten(['glob'], ['打开 glob 工具箱。'])).toEqual(new Set(['glob']));
    // A reply counts too.
    expect(plainToolNamesInText(harness, ['I will glob for the tests.']).has('glob')).toBe(true);
  });

  it('keeps tools/rename from renaming those tools, and lets it rename the others', async () => {
    const harness = harnessOf(
      [
        tool('fetch', 'Fetches a URL.'),
        tool('get_time', 'Tells the time.'),
        tool('convert_time', 'Converts.'),
      ],
      'If the page is cut off, call fetch again. Call get_time first.',
    );
    for (const rng of ['a', 'b', 'c', 'd']) {
      const applied = await applyOperator(renameTools, harness, { rng, severity: 1 });
      if ('skip' in applied) throw new Error(applied.skip);
      const names = applied.harness.tools.items.map((item) => item.name);
      expect(names).toContain('fetch');
      expect(names).not.toContain('get_time');
    }
  });
});

describe('parameterNamesInProse', () => {
  const harness = harnessOf(
    [
      tool('fetch', 'Fetches a URL.', { url: { type: 'string' }, raw: { type: 'boolean' } }),
      tool(
        'bash',
        'Runs a command. Use workdir="/foo/bar" instead of cd. To page a file, Read with offset/limit.',
        { command: { type: 'string' }, workdir: { type: 'string' } },
      ),
      tool('read', 'Reads a file.', { offset: { type: 'number' }, limit: { type: 'number' } }),
      tool('think', 'Parameters explained:\n- thought: your current thinking step', {
        thought: { type: 'string' },
        depth: { type: 'integer' },
      }),
    ],
    'Only set raw to true when the user asks for HTML. Give the url as written.',
  );

  it('finds a plain parameter name written as a parameter: given a value, a line label, beside another', () => {
    expect([...parameterNamesInProse(harness)].sort()).toEqual([
      'limit',
      'offset',
      'raw',
      'thought',
      'workdir',
    ]);
    // "the url" and "a command" are the ordinary words.
    expect(parameterNamesInProse(harness).has('url')).toBe(false);
    expect(parameterNamesInProse(harness).has('command')).toBe(false);
    // In a reply, code counts: the relabel follows no parameter there.
    expect(parameterNamesInProse(harness, ["I'll pass `depth` as 2."]).has('depth')).toBe(true);
  });

  it('keeps tools/rename-parameters from renaming them', async () => {
    for (const rng of ['a', 'b', 'c', 'd']) {
      const applied = await applyOperator(renameParameters, harness, { rng, severity: 1 });
      if ('skip' in applied) throw new Error(applied.skip);
      const renamed = JSON.stringify(applied.relabel.steps);
      for (const name of ['raw', 'workdir', 'offset', 'limit', 'thought'])
        expect(renamed).not.toContain(`"from":"${name}"`);
      expect(renamed).toContain('"from":"url"');
    }
  });
});

// GitHub's MCP server (test/perturbations/fixtures/github-mcp-server-*): its instructions address tools by
// name pattern ("Use 'search_*' tools for targeted queries"), and its descriptions name parameters in quotes
// ("the 'direction' also needs to be provided"), in lists ("The "body" and "event" parameters"), with a type
// ("path (string)") and bare ("instead of ref"). An audit found renames these texts could not follow.
describe('namePatternsWritten', () => {
  const matched = (names: string[], text: string) => [...namesMatchedByPatterns(names, [text])].sort();

  it("reads a name with a `*` wildcard as a family of tools: 'list_*', search_*, get_*_by_id, *_write", () => {
    const names = ['list_issues', 'list_branches', 'search_code', 'get_issue_by_id', 'issue_write', 'get_me'];
    expect(matched(names, "Use 'list_*' tools for broad, simple retrieval.")).toEqual([
      'list_branches',
      'list_issues',
    ]);
    expect(matched(names, 'For search_* tools, sort with the `sort` parameter.')).toEqual(['search_code']);
    expect(matched(names, 'Prefer `get_*_by_id` when you know the id.')).toEqual(['get_issue_by_id']);
    expect(matched(names, 'The *_write tools change the repository.')).toEqual(['issue_write']);
    // At the end of a sentence the full stop is no part of the pattern.
    expect(matched(names, 'Then call the list_*.')).toEqual(['list_branches', 'list_issues']);
  });

  it('reads no pattern in emphasis, bullets, arithmetic or a bare wildcard', () => {
    const names = ['list_issues', 'get_me', 'Note', 'bold'];
    for (const text of [
      '*Note*: be brief.',
      '**bold** words',
      '* list_issues first',
      '5 * 3 = 15',
      'any *',
      '*_*',
    ])
      expect(matched(names, text), text).toEqual([]);
  });
});

describe('parameterNamesInProse on quotes, lists, types and bare own names', () => {
  const harness = harnessOf(
    [
      tool(
        'comment',
        'Adds a comment. At least one of body or reaction is required. The "body" and "event" parameters are used when submitting. Returns the body of the page.',
        {
          body: { type: 'string', description: 'Comment content. Required unless reaction is provided.' },
          reaction: { type: 'string', enum: ['+1', 'heart'] },
          event: { type: 'string' },
          state: { type: 'string', description: 'Sets the state.' },
        },
      ),
      tool('fetch_file', 'Gets a file.', {
        ref: { type: 'string', description: 'A git ref to read at.' },
        sha: { type: 'string', description: 'A commit SHA. If specified, it will be used instead of ref' },
        fields: {
          type: 'array',
          items: { type: 'string', enum: ['sha', 'path'] },
          description: "Fields to return, e.g. just 'sha' and 'path'.",
        },
      }),
      tool('push', 'Pushes files, each object with path (string) and content (string).', {
        files: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              path: { type: 'string' },
              content: { type: 'string' },
              value: { type: 'string', description: "Cannot be combined with 'delete: true'." },
              delete: { type: 'boolean' },
            },
          },
        },
        limit: { type: 'integer', description: "Defaults to 'state' order." },
        method: { type: 'string', enum: ['create', 'submit'] },
        owner: { type: 'string' },
        repo: { type: 'string' },
        pullNumber: { type: 'number' },
      }),
    ],
    "Use separate 'sort' and 'order' parameters. Use push with method 'create' first. The owner, repo, and pullNumber parameters are required. Pass a ref to the branch if unsure.",
  );
  const named = parameterNamesInProse(harness);

  it('takes a quoted name of the tool (the prompt: of any tool), every name of a list, a typed name, a value', () => {
    // The prompt quotes `sort` and `order`, which no tool here defines: nothing to keep.
    for (const name of ['body', 'event', 'delete', 'path', 'content', 'owner', 'repo', 'method'])
      expect(named.has(name), name).toBe(true);
  });

  it("takes a tool's own name written bare where it can only be the parameter", () => {
    for (const name of ['reaction', 'ref']) expect(named.has(name), name).toBe(true);
  });

  it('leaves the ordinary words, a value of the property the text describes, another tool quoting a name', () => {
    // "Returns the body of the page" is prose; 'sha' in `fields` is a key of the result, one of its values;
    // push's 'state' is comment's parameter, quoted in another tool's text; "a ref to the branch" in the
    // prompt is the ordinary word; `value` is only described ("Cannot be combined with …").
    for (const name of ['sha', 'state', 'limit', 'files', 'value', 'fields'])
      expect(named.has(name), name).toBe(false);
    const prose = harnessOf(
      [tool('comment', 'Returns the body of the page. Set the event up first.', { body: {}, event: {} })],
      'Write a clear body. Pass a ref to the branch.',
    );
    expect([...parameterNamesInProse(prose)]).toEqual([]);
  });

  it('reads a quoted name in a reply as a name of any tool', () => {
    expect(parameterNamesInProse(harness, ["I left 'limit' empty."]).has('limit')).toBe(true);
    expect(parameterNamesInProse(harness, ['I left the limit empty.']).has('limit')).toBe(false);
  });
});

describe('the readings kept per harness', () => {
  it('answer each call with its own set, the same as a fresh harness, and read each reply set anew', () => {
    const harness = harnessOf(
      [
        tool('fetch', "Fetches a URL. Use the 'raw' parameter for the page as is.", {
          raw: { type: 'boolean' },
          url: { type: 'string' },
        }),
      ],
      'Call fetch with `max_length` set when the page is long.',
    );
    const first = parameterNamesInProse(harness);
    expect(first).toEqual(new Set(['raw']));
    first.add('url');
    first.delete('raw');
    expect(parameterNamesInProse(harness)).toEqual(new Set(['raw']));
    expect(parameterNamesInProse(harness, ['set url to the page'])).toEqual(new Set(['raw', 'url']));
    expect(parameterNamesInProse(harness)).toEqual(parameterNamesInProse(structuredClone(harness)));
    const unresolved = unresolvedCodeNames(harness);
    unresolved.add('raw');
    expect(unresolvedCodeNames(harness)).toEqual(unresolvedCodeNames(structuredClone(harness)));
    const others = parameterNamesInOtherTools(harness);
    others.add('raw');
    expect(parameterNamesInOtherTools(harness)).toEqual(parameterNamesInOtherTools(structuredClone(harness)));
  });
});
