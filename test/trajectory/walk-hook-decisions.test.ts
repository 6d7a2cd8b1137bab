// `walkHookDecisions` is `validateTrajectory`'s decision list without the parse and the argument schemas:
// on every trajectory of the bundled domains, under the base harness and under each harness the hook
// operators try (one hook left alone in its stage, one hook disabled), the two lists are the same.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import {
  trajectoryWalks,
  validateTrajectory,
  walkHookDecisions,
} from '../../src/trajectory/validate-trajectory.js';

async function domain(name: string) {
  const harness = await loadHarnessFile(`fixtures/${name}/harness.yaml`);
  const text = await readFile(`fixtures/${name}/trajectories.jsonl`, 'utf8');
  const trajectories = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => validateTrajectory(JSON.parse(line), harness).trajectory as Trajectory);
  return { harness, trajectories };
}

/** The harnesses a hook operator walks: each hook disabled, and each hook alone in its stage. */
function hookVariants(harness: Harness): Harness[] {
  const withHooks = (items: Harness['hooks']['items']) => ({
    ...harness,
    hooks: { ...harness.hooks, items },
  });
  return harness.hooks.items.flatMap((alone) => [
    withHooks(harness.hooks.items.map((hook) => (hook === alone ? { ...hook, enabled: false } : hook))),
    withHooks(
      harness.hooks.items.map((hook) =>
        hook.stage === alone.stage && hook !== alone ? { ...hook, enabled: false } : hook,
      ),
    ),
  ]);
}

describe('walkHookDecisions', () => {
  // itops's trajectories fail no hook: only its passes are compared.
  for (const [name, fails] of [
    ['livestream', true],
    ['helpdesk', true],
    ['itops', false],
  ] as const) {
    it(`makes validateTrajectory's decisions on every ${name} trajectory, under the base and each hook variant`, async () => {
      const { harness, trajectories } = await domain(name);
      const harnesses = [harness, ...hookVariants(harness)];
      let failed = 0;
      for (const trajectory of trajectories.slice(0, 60)) {
        for (const variant of harnesses) {
          const decisions = walkHookDecisions(trajectory, variant);
          expect(decisions).toEqual(
            validateTrajectory(trajectory, variant, { checkSystemPrompt: false, checkOfferedTools: false })
              .decisions,
          );
          failed += decisions.filter((decision) => decision.failed !== undefined).length;
        }
      }
      // Where the domain has failing hooks, the comparison covers them, not only passes.
      expect(failed > 0).toBe(fails);
    });
  }

  it('is one walk, and reads no argument schema: a call with bad arguments decides as before', async () => {
    const { harness, trajectories } = await domain('livestream');
    const trajectory = trajectories.find((item) =>
      item.messages.some((message) => message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0),
    ) as Trajectory;
    const broken: Trajectory = {
      ...trajectory,
      messages: trajectory.messages.map((message) =>
        message.role === 'assistant' && message.tool_calls
          ? {
              ...message,
              tool_calls: message.tool_calls.map((call) => ({
                ...call,
                function: { ...call.function, arguments: '{"no_such_argument": true}' },
              })),
            }
          : message,
      ),
    };
    const before = trajectoryWalks().validate;
    const decisions = walkHookDecisions(broken, harness);
    expect(trajectoryWalks().validate - before).toBe(1);
    const validation = validateTrajectory(broken, harness);
    expect(validation.issues.some((issue) => issue.code === 'invalid_arguments')).toBe(true);
    expect(decisions).toEqual(validation.decisions);
  });
});
