// Acceptance for policy hooks (issue 13 item 7): a harness with a tool-scoped pre_tool hook requiring a
// named skill, and a registered custom check, validates, runs in the Episode, augments with `hat`, and
// renames reach inside the hooks.
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { mergeSkills } from '../../perturbations/skill-content/merge.js';
import { renameSkillIds } from '../../perturbations/skill-ids/rename.js';
import { dropUnused } from '../../perturbations/tools/drop-unused.js';
import { renameTools } from '../../perturbations/tools/rename.js';
import { type AugmentReject, type AugmentRow, augment } from '../../src/augment/augment.js';
import { applyOperator } from '../../src/augment/operator.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { checkHarness } from '../../src/harness/check-harness.js';
import type { Hook } from '../../src/harness/schema.js';
import { Episode } from '../../src/runtime/episode.js';
import { toolsFromFunctions } from '../../src/runtime/tool-runtime.js';
import { forwardTrajectory, inverseTrajectory } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { rederiveTrajectory, validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { resetTrajectory, scopedHarness, scopedHookChecks } from '../support/scoped-hook-harness.js';

const hookChecks = scopedHookChecks;
const harness = scopedHarness();

describe('a tool-scoped pre_tool hook requiring a named skill', () => {
  it('validates a trajectory that retries the scoped call, loads the skill and succeeds', () => {
    const validation = validateTrajectory(resetTrajectory(), harness, { hookChecks });
    expect(validation.issues).toEqual([]);
    expect(validation.stats.hookRejections).toBe(1);
    expect(validation.decisions.filter((decision) => decision.failed)).toEqual([
      { path: ['messages', 4, 'tool_calls', 0], stage: 'pre_tool', failed: 'verify_before_reset' },
    ]);
  });

  it('is an issue, not a crash, when the custom check is not registered at validation', () => {
    const validation = validateTrajectory(resetTrajectory(), harness);
    expect(validation.valid).toBe(false);
    expect(validation.issues.map((issue) => issue.code)).toContain('unknown_hook_check');
  });

  it('refuses an unmarked call that the scoped hook rejects', () => {
    const trajectory = resetTrajectory();
    const { hsa: _marker, ...unmarked } = trajectory.messages[4] as { hsa?: unknown };
    trajectory.messages[4] = unmarked as Trajectory['messages'][number];
    const validation = validateTrajectory(trajectory, harness, { hookChecks });
    expect(validation.issues.map((issue) => issue.code)).toContain('hook_failed_unmarked');
  });

  it('runs in the Episode: retry before the skill is loaded, pass after; other tools are not affected', async () => {
    const calls: string[] = [];
    const tools = toolsFromFunctions({
      list_devices: () => {
        calls.push('list_devices');
        return { devices: ['laptop-17'] };
      },
      reset_password: () => {
        calls.push('reset_password');
        return { ok: true };
      },
      get_user: () => ({ name: 'Ana' }),
    });
    const episode = new Episode({ harness, tools, hookChecks });
    await episode.user('Please reset the password of ana@example.com');
    const call = (id: string, name: string, args: unknown) => ({
      role: 'assistant' as const,
      content: null,
      tool_calls: [{ id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } }],
    });
    const devices = await episode.assistant(call('c1', 'list_devices', { email: 'ana@example.com' }));
    expect(devices.hookEvents).toEqual([]);
    const early = await episode.assistant(call('c2', 'reset_password', { email: 'ana@example.com' }));
    expect(early.hookEvents).toEqual([
      expect.objectContaining({ hook: 'verify_before_reset', stage: 'pre_tool', outcome: 'retry' }),
    ]);
    expect(early.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c2',
      content: 'Load identity_verification before verify_before_reset lets reset_password run.',
      hsa: { event: 'hook_feedback', hook: 'verify_before_reset' },
    });
    expect(calls).toEqual(['list_devices']);
    await episode.assistant(call('c3', 'load_skill', { skill_id: 'identity_verification' }));
    const late = await episode.assistant(call('c4', 'reset_password', { email: 'ana@example.com' }));
    expect(late.hookEvents).toEqual([]);
    expect(calls).toEqual(['list_devices', 'reset_password']);
    await episode.assistant(call('c5', 'load_skill', { skill_id: 'password_help' }));
    const reply = await episode.assistant({ content: 'Done: a temporary password is on its way by SMS.' });
    expect(reply.end).toBe('reply');
    // What the Episode recorded is what the validator replays.
    const recorded = episode.trajectory('reset-1');
    expect(validateTrajectory(recorded, harness, { hookChecks }).issues).toEqual([]);
    expect(recorded.messages).toEqual(resetTrajectory().messages);
  });

  it('blocks through the custom check in the Episode, and the validator agrees', async () => {
    const episode = new Episode({
      harness,
      tools: toolsFromFunctions({ reset_password: () => ({ ok: true }) }),
      hookChecks,
    });
    await episode.user('Reset the CEO please');
    await episode.assistant({
      content: null,
      tool_calls: [
        {
          id: 'l',
          type: 'function',
          function: { name: 'load_skill', arguments: '{"skill_id":"identity_verification"}' },
        },
      ],
    });
    const blocked = await episode.assistant({
      content: null,
      tool_calls: [
        {
          id: 'r',
          type: 'function',
          function: { name: 'reset_password', arguments: '{"email":"ceo@example.com"}' },
        },
      ],
    });
    expect(blocked.end).toBe('hook_blocked');
    expect(blocked.messages.at(-1)).toEqual({
      role: 'assistant',
      content: 'This account is reset by the security team only.',
      hsa: { event: 'hook_blocked', hook: 'protected_accounts' },
    });
    expect(blocked.messages[1]).toMatchObject({
      content: 'blocked by hook "protected_accounts": email "ceo@example.com" is protected',
    });
    expect(validateTrajectory(episode.trajectory('ceo'), harness, { hookChecks }).issues).toEqual([]);
  });
});

describe('renames reach inside the hooks', () => {
  it('renames a scoped tool and a named skill in the hook, and the inverse restores the trajectory', () => {
    const { harness: variant, relabel } = renameSymbols(
      harness,
      { tools: { reset_password: 'password_reset' }, skills: { identity_verification: 'verify_identity' } },
      { hookChecks },
    );
    const [scoped, custom] = variant.hooks.items as [Hook, Hook];
    expect(scoped.tools).toEqual(['password_reset']);
    expect(scoped.check).toMatchObject({ type: 'skill_loaded', skill: 'verify_identity' });
    expect(custom.check).toMatchObject({ type: 'custom', params: { tool: 'password_reset' } });
    expect(checkHarness(variant, { hookChecks })).toEqual([]);
    const original = resetTrajectory();
    const moved = forwardTrajectory(original, relabel, variant, { hookChecks });
    expect(moved.issues).toEqual([]);
    expect(validateTrajectory(moved.trajectory, variant, { hookChecks }).issues).toEqual([]);
    expect(JSON.stringify(moved.trajectory)).not.toContain('reset_password');
    expect(inverseTrajectory(moved.trajectory, relabel, harness, { hookChecks }).trajectory).toEqual(
      original,
    );
  });

  it('tools/rename and skill-ids/rename name the new names inside the hook', async () => {
    const trajectory = resetTrajectory();
    const tools = await applyOperator(renameTools, harness, {
      rng: 'r',
      severity: 1,
      trajectory,
      hookChecks,
    });
    if ('skip' in tools) throw new Error(tools.skip);
    const renamedTool = tools.harness.tools.items.map((tool) => tool.name)[1];
    expect((tools.harness.hooks.items[0] as Hook).tools).toEqual([renamedTool]);
    expect(renamedTool).not.toBe('reset_password');
    const skills = await applyOperator(renameSkillIds, harness, {
      rng: 's',
      severity: 1,
      trajectory,
      hookChecks,
    });
    if ('skip' in skills) throw new Error(skills.skip);
    const renamedSkill = skills.harness.skills.items[0]?.id;
    expect((skills.harness.hooks.items[0] as Hook).check).toMatchObject({ skill: renamedSkill });
    expect(renamedSkill).not.toBe('identity_verification');
  });

  it('tools/drop-unused keeps a tool that a hook scopes to', async () => {
    // reset_password is neither called by the trajectory nor named in any text: only the hook keeps it.
    const input = structuredClone(harness);
    input.hooks.items = input.hooks.items.filter((hook) => hook.id === 'verify_before_reset');
    const [scoped] = input.hooks.items as [Hook];
    scoped.onFail = { action: 'block', message: 'Verify the caller first.' };
    input.tools.items.push({
      name: 'purge_cdn_cache',
      description: 'Purge the edge cache.',
      parameters: { type: 'object', properties: {} },
    });
    const logged = resetTrajectory();
    logged.messages = logged.messages.slice(0, 4);
    logged.messages.push({ role: 'assistant', content: 'You have one device.' });
    const trajectory = rederiveTrajectory(logged, input).trajectory;
    expect(validateTrajectory(trajectory, input).issues).toEqual([]);
    const dropped = await applyOperator(dropUnused, input, { rng: 'd', severity: 1, trajectory });
    if ('skip' in dropped) throw new Error(dropped.skip);
    expect(dropped.harness.tools.items.map((tool) => tool.name)).toEqual([
      'get_user',
      'reset_password',
      'list_devices',
    ]);
  });

  it('skill-content/merge makes a hook naming a merged skill name the merged one, exact inverse', async () => {
    const input = structuredClone(harness);
    for (const skill of input.skills.items) skill.kind = 'reply';
    input.hooks.items = input.hooks.items.filter((hook) => hook.id !== 'reply_skill');
    const trajectory = resetTrajectory();
    // The identity skill is the only one loaded, so merging cannot flip the hook.
    trajectory.messages = trajectory.messages.slice(0, 10);
    trajectory.messages.push({ role: 'assistant', content: 'Done.' });
    expect(validateTrajectory(trajectory, input, { hookChecks }).issues).toEqual([]);
    const merged = await applyOperator(mergeSkills, input, { rng: 'm', severity: 1, trajectory, hookChecks });
    if ('skip' in merged) throw new Error(merged.skip);
    const id = merged.harness.skills.items[0]?.id as string;
    expect(merged.harness.skills.items).toHaveLength(1);
    expect((merged.harness.hooks.items[0] as Hook).check).toMatchObject({ skill: id });
    const moved = forwardTrajectory(trajectory, merged.relabel, merged.harness, { hookChecks });
    expect(moved.issues).toEqual([]);
    expect(inverseTrajectory(moved.trajectory, merged.relabel, input, { hookChecks }).trajectory).toEqual(
      trajectory,
    );
  });
});

describe('augmenting with the hat preset', () => {
  it('writes certified rows whose hooks name the variant tools and skills', async () => {
    const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));
    const rows: AugmentRow[] = [];
    const rejects: AugmentReject[] = [];
    const input = ['a', 'b', 'c', 'd'].map((id) => ({ ...resetTrajectory(), id }));
    for await (const row of augment(harness, input, {
      plan,
      variants: 3,
      seed: 11,
      hookChecks,
      onReject: (reject) => rejects.push(reject),
    }))
      rows.push(row);
    expect(rejects).toEqual([]);
    expect(rows).toHaveLength(12);
    let renamed = 0;
    for (const row of rows) {
      expect(row.certificate.certified).toBe(true);
      const variant = row.harness;
      expect(checkHarness(variant, { hookChecks })).toEqual([]);
      const scoped = variant.hooks.items.find((hook) => hook.id === 'verify_before_reset') as Hook;
      const names = new Set(variant.tools.items.map((tool) => tool.name));
      expect(scoped.tools?.every((name) => names.has(name))).toBe(true);
      if (!scoped.tools?.includes('reset_password')) renamed++;
      expect(validateTrajectory(row.trajectory, variant, { hookChecks }).issues).toEqual([]);
    }
    expect(renamed).toBeGreaterThan(0);
  });
});
