// Names a rename could not follow, as audits of certified rows met them in public harnesses: MCP reference
// servers ("call fetch again", "set raw to true"), a coding agent's tools ("Use the Read tool" for `read`,
// "use the Bash tool with `grep` directly", `workdir="/foo"`, "offset/limit").
import { describe, expect, it } from 'vitest';
import { renameTools } from '../../perturbations/tools/rename.js';
import { renameParameters } from '../../perturbations/tools/rename-parameters.js';
import { applyOperator } from '../../src/augment/operator.js';
import { plainToolNamesWritten } from '../../src/augment/unfollowable-names.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { HarnessInput } from '../../src/harness/schema.js';
import { parameterNamesInProse, plainToolNamesInText } from '../../src/kit/mentions.js';
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
