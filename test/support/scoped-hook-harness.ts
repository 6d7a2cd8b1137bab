// A small account-support harness whose policy hooks are scoped to tools: "identity_verification must be
// loaded before reset_password runs", a registered custom check, and trajectories that pass and retry.

import { z } from 'zod';
import { createHookCheckRegistry, defineHookCheck } from '../../src/harness/hook-checks.js';
import { toChatCompletionTools } from '../../src/harness/offered-tools.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import type { HarnessInput } from '../../src/harness/schema.js';
import type { Trajectory } from '../../src/trajectory/schema.js';

/** Custom check: the call must not send the value of one of its arguments to a named other tool's list. */
export const notSameAccount = defineHookCheck({
  name: 'argument_not_in',
  stages: ['pre_tool'],
  variables: ['argument', 'value'],
  params: z.object({ tool: z.string(), argument: z.string(), blocked: z.array(z.string()).default([]) }),
  mentions: () => [{ kind: 'tool', path: ['tool'] }],
  run(step, params) {
    if (step.call?.name !== params.tool) return undefined;
    let value: unknown;
    try {
      value = (JSON.parse(step.call.arguments) as Record<string, unknown>)[params.argument];
    } catch {
      return undefined;
    }
    return typeof value === 'string' && params.blocked.includes(value)
      ? {
          reason: `${params.argument} "${value}" is protected`,
          details: { argument: params.argument, value },
        }
      : undefined;
  },
});

export const scopedHookChecks = createHookCheckRegistry([notSameAccount]);

export const scopedHarnessInput = (): HarnessInput => ({
  id: 'account-support',
  skills: {
    version: '1',
    items: [
      {
        id: 'identity_verification',
        kind: 'strategy',
        description: 'Verify who the caller is before changing an account',
        body: '1. Call `get_user` with the email.\n2. Ask for the employee number and compare.',
      },
      {
        id: 'password_help',
        kind: 'reply',
        description: 'Explain password resets',
        body: '- Say the temporary password arrives by SMS.',
      },
    ],
  },
  hooks: {
    version: '1',
    items: [
      {
        id: 'verify_before_reset',
        stage: 'pre_tool',
        tools: ['reset_password'],
        check: { type: 'skill_loaded', skill: 'identity_verification', scope: 'conversation' },
        onFail: {
          action: 'retry',
          maxRetries: 1,
          feedback: 'Load {{skill}} before {{hook}} lets reset_password run.',
        },
      },
      {
        id: 'protected_accounts',
        stage: 'pre_tool',
        check: {
          type: 'custom',
          name: 'argument_not_in',
          params: { tool: 'reset_password', argument: 'email', blocked: ['ceo@example.com'] },
        },
        onFail: { action: 'block', message: 'This account is reset by the security team only.' },
      },
      {
        id: 'reply_skill',
        stage: 'pre_reply',
        check: { type: 'skill_loaded', kind: 'reply', scope: 'turn' },
        onFail: { action: 'retry', maxRetries: 1, feedback: 'Load a {{kind}} skill before replying.' },
      },
    ],
  },
  prompt: {
    version: '1',
    sections: [
      { id: 'role', title: 'Role', template: 'You are the IT help desk of {{harness.id}}.', pinned: true },
      {
        id: 'skills',
        title: 'Skills',
        template: '{{#each skills}}- {{id}}: {{description}}\n{{/each}}',
      },
      { id: 'tools', title: 'Tools', template: '{{#each tools}}- {{name}}: {{description}}\n{{/each}}' },
    ],
  },
  tools: {
    version: '1',
    items: [
      {
        name: 'get_user',
        description: 'Look up an employee account by email.',
        parameters: {
          type: 'object',
          properties: { email: { type: 'string' } },
          required: ['email'],
          additionalProperties: false,
        },
      },
      {
        name: 'reset_password',
        description: 'Reset the password of an account and send a temporary one by SMS.',
        parameters: {
          type: 'object',
          properties: { email: { type: 'string' } },
          required: ['email'],
          additionalProperties: false,
        },
      },
      {
        name: 'list_devices',
        description: 'Devices registered to an account.',
        parameters: {
          type: 'object',
          properties: { email: { type: 'string' } },
          required: ['email'],
          additionalProperties: false,
        },
      },
    ],
  },
});

export const scopedHarness = () => parseHarness(scopedHarnessInput(), { hookChecks: scopedHookChecks });

const toolCall = (id: string, name: string, args: unknown) => ({
  role: 'assistant' as const,
  content: null,
  tool_calls: [{ id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } }],
});

/**
 * A reset that first tries reset_password before verifying (rejected with the hook's feedback), then loads
 * the identity skill, resets, loads the reply skill and replies. `list_devices` is called before the skill
 * is loaded and is not affected by the scoped hook.
 */
export function resetTrajectory(): Trajectory {
  const harness = scopedHarness();
  const body = (id: string) => harness.skills.items.find((skill) => skill.id === id)?.body ?? '';
  return {
    id: 'reset-1',
    harness: { id: harness.id },
    context: {},
    tools: toChatCompletionTools(harness),
    messages: [
      { role: 'system', content: renderSystemPrompt(harness, {}) },
      { role: 'user', content: 'Please reset the password of ana@example.com' },
      toolCall('c1', 'list_devices', { email: 'ana@example.com' }),
      { role: 'tool', tool_call_id: 'c1', content: '{"devices":["laptop-17"]}' },
      {
        ...toolCall('c2', 'reset_password', { email: 'ana@example.com' }),
        hsa: { event: 'hook_rejected', hook: 'verify_before_reset' },
      },
      {
        role: 'tool',
        tool_call_id: 'c2',
        content: 'Load identity_verification before verify_before_reset lets reset_password run.',
        hsa: { event: 'hook_feedback', hook: 'verify_before_reset' },
      },
      toolCall('c3', 'load_skill', { skill_id: 'identity_verification' }),
      { role: 'tool', tool_call_id: 'c3', content: body('identity_verification') },
      toolCall('c4', 'reset_password', { email: 'ana@example.com' }),
      { role: 'tool', tool_call_id: 'c4', content: '{"ok":true}' },
      toolCall('c5', 'load_skill', { skill_id: 'password_help' }),
      { role: 'tool', tool_call_id: 'c5', content: body('password_help') },
      { role: 'assistant', content: 'Done: a temporary password is on its way by SMS.' },
    ],
  };
}
