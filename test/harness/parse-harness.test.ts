import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { loadHarnessFile, parseHarness, safeParseHarness } from '../../src/harness/parse-harness.js';
import type { HarnessInput } from '../../src/harness/schema.js';
import { projectRoot } from '../support/run-cli.js';
import { travelHarnessInput } from '../support/travel-harness.js';

function issuesOf(change: (input: HarnessInput) => void) {
  const input = travelHarnessInput();
  change(input);
  const result = safeParseHarness(input);
  if (result.success) throw new Error('expected issues');
  return result.issues.map(({ code, path }) => ({ code, path }));
}

describe('parseHarness', () => {
  it('applies defaults', () => {
    const harness = parseHarness(travelHarnessInput());
    expect(harness.skills.loader).toEqual({
      tool: 'load_skill',
      argument: 'skill_id',
      description: 'Load the full rules of a skill by its id before you use it.',
    });
    expect(harness.prompt.headingStyle).toBe('markdown');
    expect(harness.hooks.items.every((hook) => hook.enabled)).toBe(true);
  });

  it('throws a HarnessAugmentError that lists every issue', () => {
    const input = travelHarnessInput() as Record<string, unknown>;
    input.tools = { version: '1', items: [{ name: 'bad name', description: '', parameters: {} }] };
    try {
      parseHarness(input);
      expect.unreachable();
    } catch (error) {
      expect(HarnessAugmentError.isInstance(error)).toBe(true);
      const paths = (error as HarnessAugmentError).issues.map((issue) => issue.path.join('.'));
      expect(paths).toEqual(['tools.items.0.name', 'tools.items.0.description']);
    }
  });

  it('names unknown keys, so that a typo is not silently dropped', () => {
    expect(issuesOf((input) => Object.assign(input.hooks.items[0]!, { onfail: {} }))).toEqual([
      { code: 'unrecognized_keys', path: ['hooks', 'items', 0] },
    ]);
  });

  it('refuses duplicate ids of every kind', () => {
    expect(
      issuesOf((input) => {
        input.skills.items.push({ ...input.skills.items[0]! });
        input.tools.items.push({ ...input.tools.items[1]! });
        input.hooks.items.push({ ...input.hooks.items[2]! });
        input.prompt.sections.push({ ...input.prompt.sections[0]! });
      }),
    ).toEqual([
      { code: 'duplicate_id', path: ['skills', 'items', 3, 'id'] },
      { code: 'duplicate_id', path: ['tools', 'items', 3, 'name'] },
      { code: 'duplicate_id', path: ['hooks', 'items', 7, 'id'] },
      { code: 'duplicate_id', path: ['prompt', 'sections', 4, 'id'] },
    ]);
  });

  // BFCL's vehicle suite writes `"type": "float"` (and `"dict"`) in hand-written harnesses too: `hsa validate`
  // answered in Ajv's metaschema wording ("must be equal to one of the allowed values … must match a schema in
  // anyOf"), which never named the type.
  it('names a type JSON Schema does not know at its path, and the type meant', () => {
    const input = travelHarnessInput();
    input.tools.items[0]!.parameters = {
      type: 'object',
      properties: { fuelAmount: { type: 'float', description: 'The fuel to add in gallons.' } },
    };
    const result = safeParseHarness(input);
    if (result.success) throw new Error('a float type is no JSON Schema type');
    expect(result.issues).toEqual([
      {
        code: 'invalid_json_schema',
        path: ['tools', 'items', 0, 'parameters', 'properties', 'fuelAmount', 'type'],
        message: expect.stringContaining('"float" is Python\'s name for "number"'),
      },
    ]);
  });

  it('refuses a tool that shadows the skill loader', () => {
    expect(issuesOf((input) => (input.tools.items[0]!.name = 'load_skill'))).toEqual([
      { code: 'loader_shadowed', path: ['tools', 'items', 0, 'name'] },
    ]);
  });

  it('refuses tool parameters that are not an object schema or not a schema at all', () => {
    expect(
      issuesOf(
        (input) =>
          (input.tools.items[0]!.parameters = { type: 'object', properties: { a: { type: 'strin' } } }),
      ),
    ).toEqual([
      { code: 'invalid_json_schema', path: ['tools', 'items', 0, 'parameters', 'properties', 'a', 'type'] },
    ]);
    expect(
      issuesOf(
        (input) =>
          (input.tools.items[0]!.parameters = {
            type: 'object',
            properties: { a: { type: 'object', not: 1 } },
          }),
      ),
    ).toEqual([{ code: 'invalid_json_schema', path: ['tools', 'items', 0, 'parameters'] }]);
    expect(issuesOf((input) => (input.tools.items[0]!.parameters = { type: 'string' }))).toEqual([
      { code: 'invalid_tool_parameters', path: ['tools', 'items', 0, 'parameters', 'type'] },
    ]);
  });

  it('refuses checks at stages where they mean nothing, and input hooks that retry', () => {
    expect(issuesOf((input) => (input.hooks.items[3]!.stage = 'input'))).toEqual([
      { code: 'check_stage_mismatch', path: ['hooks', 'items', 3, 'stage'] },
      { code: 'input_hook_retry', path: ['hooks', 'items', 3, 'onFail', 'action'] },
    ]);
  });

  it('refuses bad regular expressions, templates and a missing fallback', () => {
    expect(
      issuesOf((input) => {
        input.hooks.items[0]!.check = { type: 'regex', pattern: '(unclosed', mode: 'must_not' };
        input.hooks.items[1]!.onFail = { action: 'retry', maxRetries: 1, feedback: '{{#if x}}never closed' };
        input.hooks.items[2]!.onFail = {
          action: 'retry',
          maxRetries: 1,
          feedback: 'ok',
          exhausted: 'fallback',
        };
        input.prompt.sections[1]!.template = '{{shout skills}}';
      }),
    ).toEqual([
      { code: 'invalid_regex', path: ['hooks', 'items', 0, 'check', 'pattern'] },
      { code: 'template_error', path: ['hooks', 'items', 1, 'onFail', 'feedback'] },
      { code: 'missing_fallback', path: ['hooks', 'items', 2, 'onFail', 'fallback'] },
      { code: 'template_error', path: ['prompt', 'sections', 1, 'template'] },
    ]);
  });

  it('refuses identifiers with line breaks or edge spaces but accepts phrases and other scripts', () => {
    expect(issuesOf((input) => (input.skills.items[0]!.id = ' rebooking'))).toEqual([
      { code: 'invalid_format', path: ['skills', 'items', 0, 'id'] },
    ]);
    const input = travelHarnessInput();
    input.skills.items[0]!.id = '改签 助手';
    expect(safeParseHarness(input).success).toBe(true);
  });
});

describe('feedback templates', () => {
  it('names a variable the check does not provide, with the path and what it does provide', () => {
    const input = travelHarnessInput();
    const valid = input.hooks.items.find((hook) => hook.id === 'valid_arguments')!;
    (valid.onFail as { feedback: string }).feedback =
      'Bad: {{join found ", "}} in {{tool}} ({{#each errors}}{{this}}{{/each}})';
    const result = safeParseHarness(input);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues).toEqual([
      expect.objectContaining({
        code: 'unknown_template_variable',
        path: ['hooks', 'items', 1, 'onFail', 'feedback'],
        message: expect.stringMatching(
          /reads "found", which a tool_arguments check does not provide; it provides hook, reason, attempt, maxRetries, tool, errors/,
        ),
      }),
    ]);
  });

  it('accepts the feedback of the live-stream and travel harnesses', async () => {
    expect(safeParseHarness(travelHarnessInput()).success).toBe(true);
    await expect(
      loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml')),
    ).resolves.toBeDefined();
  });
});
