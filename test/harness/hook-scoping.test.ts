// Tool-scoped hooks, skill_loaded with a named skill at pre_tool, registered custom checks and linear-time
// patterns: what the harness check accepts and refuses, and what the hook engine decides.
import { describe, expect, it } from 'vitest';
import { harnessJsonSchema } from '../../src/harness/harness-json-schema.js';
import { createHookCheckRegistry, defineHookCheck } from '../../src/harness/hook-checks.js';
import { evaluateHook, hookRunsOn } from '../../src/harness/hook-engine.js';
import { safeParseHarness } from '../../src/harness/parse-harness.js';
import type { HarnessInput, Hook } from '../../src/harness/schema.js';
import {
  notSameAccount,
  scopedHarness,
  scopedHarnessInput,
  scopedHookChecks,
} from '../support/scoped-hook-harness.js';
import { travelHarness, travelHarnessInput } from '../support/travel-harness.js';

const withHook = (hook: Record<string, unknown>): HarnessInput => {
  const input = scopedHarnessInput();
  (input.hooks.items as unknown[]).push(hook);
  return input;
};
const issuesOf = (input: HarnessInput) => {
  const result = safeParseHarness(input, { hookChecks: scopedHookChecks });
  return result.success
    ? []
    : result.issues.map((issue) => ({ code: issue.code, path: issue.path.join('.') }));
};

describe('tool-scoped hooks', () => {
  it('accepts the scoped harness and runs a scoped hook only for its tools', () => {
    const harness = scopedHarness();
    const hook = harness.hooks.items[0] as Hook;
    expect(hook.tools).toEqual(['reset_password']);
    expect(hookRunsOn(hook, { stage: 'pre_tool', call: { name: 'reset_password', arguments: '{}' } })).toBe(
      true,
    );
    expect(hookRunsOn(hook, { stage: 'pre_tool', call: { name: 'list_devices', arguments: '{}' } })).toBe(
      false,
    );
    expect(hookRunsOn(hook, { stage: 'post_tool', call: { name: 'reset_password', arguments: '' } })).toBe(
      false,
    );
  });

  it('refuses tools that do not exist, duplicates, and scopes at stages without a call', () => {
    const hook = (extra: Record<string, unknown>) => ({
      id: 'scoped',
      check: { type: 'max_tool_calls', max: 3 },
      onFail: { action: 'block' },
      stage: 'pre_tool',
      ...extra,
    });
    expect(issuesOf(withHook(hook({ tools: ['reset_pasword'] })))).toEqual([
      { code: 'unknown_tool', path: 'hooks.items.3.tools.0' },
    ]);
    expect(issuesOf(withHook(hook({ tools: ['get_user', 'get_user'] })))).toEqual([
      { code: 'duplicate_id', path: 'hooks.items.3.tools.1' },
    ]);
    // The skill loader is a tool a hook may scope to, before it runs (a load has no post_tool stage).
    expect(issuesOf(withHook(hook({ tools: ['load_skill'] })))).toEqual([]);
    expect(
      issuesOf(
        withHook(hook({ stage: 'post_tool', check: { type: 'max_length', max: 9 }, tools: ['load_skill'] })),
      ),
    ).toEqual([{ code: 'tool_scope_stage', path: 'hooks.items.3.tools.0' }]);
    expect(
      issuesOf(
        withHook({
          id: 'scoped',
          stage: 'pre_reply',
          tools: ['get_user'],
          check: { type: 'max_length', max: 10 },
          onFail: { action: 'block' },
        }),
      ),
    ).toEqual([{ code: 'tool_scope_stage', path: 'hooks.items.3.tools' }]);
  });
});

describe('skill_loaded with a named skill', () => {
  const hook = (): Hook => scopedHarness().hooks.items[0] as Hook;
  const step = (conversation: string[]) => ({
    stage: 'pre_tool' as const,
    call: { name: 'reset_password', arguments: '{"email":"a@b.c"}' },
    loadedSkills: { turn: [], conversation },
  });

  it('fails until the named skill is loaded, and renders {{skill}} in the feedback', () => {
    const harness = scopedHarness();
    const failed = evaluateHook(hook(), step(['password_help']), harness);
    expect(failed).toMatchObject({
      pass: false,
      reason: 'skill "identity_verification" was not loaded yet',
      feedback: 'Load identity_verification before verify_before_reset lets reset_password run.',
    });
    expect(evaluateHook(hook(), step(['identity_verification']), harness).pass).toBe(true);
  });

  it('refuses a skill that does not exist', () => {
    expect(
      issuesOf(
        withHook({
          id: 'needs_missing',
          stage: 'pre_tool',
          check: { type: 'skill_loaded', skill: 'identity_check' },
          onFail: { action: 'block' },
        }),
      ),
    ).toEqual([{ code: 'unknown_skill', path: 'hooks.items.3.check.skill' }]);
  });
});

describe('custom hook checks', () => {
  it('rejects two registrations with one name', () => {
    expect(() => createHookCheckRegistry([notSameAccount, notSameAccount])).toThrow(/registered twice/);
  });

  it('is an issue at load when the check is not registered, with the path', () => {
    const result = safeParseHarness(scopedHarnessInput());
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues).toEqual([
      expect.objectContaining({ code: 'unknown_hook_check', path: ['hooks', 'items', 1, 'check', 'name'] }),
    ]);
    expect(result.issues[0]?.message).toMatch(/no custom hook check "argument_not_in" is registered/);
  });

  it('checks its stages, params, the tools it names and the variables its feedback reads', () => {
    const custom = (check: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      withHook({
        id: 'c',
        stage: 'pre_tool',
        check: { type: 'custom', name: 'argument_not_in', ...check },
        onFail: { action: 'block' },
        ...extra,
      });
    expect(
      issuesOf(custom({ params: { tool: 'get_user', argument: 'email' } }, { stage: 'pre_reply' })),
    ).toEqual([{ code: 'check_stage_mismatch', path: 'hooks.items.3.stage' }]);
    expect(issuesOf(custom({ params: { tool: 'get_user' } }))).toEqual([
      { code: 'invalid_hook_check_params', path: 'hooks.items.3.check.params.argument' },
    ]);
    expect(issuesOf(custom({ params: { tool: 'get_usr', argument: 'email' } }))).toEqual([
      { code: 'unknown_tool', path: 'hooks.items.3.check.params.tool' },
    ]);
    expect(
      issuesOf(
        custom(
          { params: { tool: 'get_user', argument: 'email' } },
          { onFail: { action: 'retry', maxRetries: 1, feedback: '{{value}} of {{argument}}: {{found}}' } },
        ),
      ),
    ).toEqual([{ code: 'unknown_template_variable', path: 'hooks.items.3.onFail.feedback' }]);
  });

  it('runs through the registry and renders its declared variables', () => {
    const harness = scopedHarness();
    const hook: Hook = {
      ...(harness.hooks.items[1] as Hook),
      onFail: { action: 'retry', maxRetries: 1, feedback: '{{argument}}={{value}}', exhausted: 'block' },
    };
    const step = {
      stage: 'pre_tool' as const,
      call: { name: 'reset_password', arguments: '{"email":"ceo@example.com"}' },
    };
    expect(evaluateHook(hook, step, harness, scopedHookChecks)).toMatchObject({
      pass: false,
      feedback: 'email=ceo@example.com',
    });
    expect(() => evaluateHook(hook, step, harness)).toThrow(/not registered/);
  });

  it('refuses a bad name and an empty stage list at definition', () => {
    const run = () => undefined;
    expect(() => defineHookCheck({ name: 'has space', stages: ['input'], variables: [], run })).toThrow(
      /must start/,
    );
    expect(() => defineHookCheck({ name: 'x', stages: [], variables: [], run })).toThrow(
      /at least one stage/,
    );
  });
});

describe('linear-time hook patterns', () => {
  const regexHook = (pattern: string, flags = ''): Hook => ({
    id: 'pattern',
    stage: 'pre_reply',
    enabled: true,
    check: { type: 'regex', pattern, flags, mode: 'must_not' },
    onFail: { action: 'block' },
  });

  it('runs (a+)+$ on a 41-character message to the end', () => {
    const harness = travelHarness();
    const text = `${'a'.repeat(40)}!`;
    expect(evaluateHook(regexHook('(a+)+$'), { stage: 'pre_reply', text }, harness).pass).toBe(true);
    expect(evaluateHook(regexHook('(a+)+!$'), { stage: 'pre_reply', text }, harness)).toMatchObject({
      pass: false,
      details: { match: text },
    });
  });

  it('keeps the meaning of the flags i, m, s and u', () => {
    const harness = travelHarness();
    const fails = (pattern: string, flags: string, text: string) =>
      !evaluateHook(regexHook(pattern, flags), { stage: 'pre_reply', text }, harness).pass;
    expect([fails('BEST', '', 'the best'), fails('BEST', 'i', 'the best')]).toEqual([false, true]);
    expect([fails('^b', '', 'a\nb'), fails('^b', 'm', 'a\nb')]).toEqual([false, true]);
    expect([fails('a.b', '', 'a\nb'), fails('a.b', 's', 'a\nb')]).toEqual([false, true]);
    expect(fails('^.$', 'u', '😀')).toBe(true);
  });

  it('refuses backreferences and lookaround at load, naming the hook path and the reason', () => {
    for (const pattern of ['(.)\\1{9,}', 'price(?= tomorrow)', '(?<!no )refund']) {
      const input = travelHarnessInput();
      (input.hooks.items as unknown[]).push(regexHook(pattern));
      const result = safeParseHarness(input);
      expect(result.success).toBe(false);
      if (result.success) continue;
      expect(result.issues).toHaveLength(1);
      expect(result.issues[0]).toMatchObject({
        code: 'invalid_regex',
        path: ['hooks', 'items', 7, 'check', 'pattern'],
      });
      expect(result.issues[0]?.message).toMatch(/linear time with re2js/);
    }
  });
});

describe('the JSON Schema export', () => {
  it('describes tool scopes, named skills and custom checks', () => {
    const text = JSON.stringify(harnessJsonSchema());
    expect(text).toContain('the hook runs only for calls to these tools');
    expect(text).toContain('A skill id that must have been loaded');
    expect(text).toContain('Name of a check registered with `createHookCheckRegistry`.');
  });
});
