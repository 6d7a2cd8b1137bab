// Variants used to run episodes enforce the base harness's rules: under `hat`, no hook is switched off,
// reordered, or given another budget or threshold, so a wrong call is rejected under every variant exactly
// as under the base harness (issue 39, item 4).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import type { PolicyInput } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { resolvePolicy } from '../../src/augment/resolve-policy.js';
import { generateBench } from '../../src/bench/generate.js';
import { readBenchItems } from '../../src/bench/items.js';
import type { BenchItem } from '../../src/bench/schema.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import type { ChatModel, ChatRequest } from '../../src/runtime/chat-model.js';
import { chooseHarness, createPlanCache } from '../../src/runtime/env/harness-choice.js';
import { createEnvService } from '../../src/runtime/env/service.js';
import { type SimulatedEpisode, type SimulateOptions, simulate } from '../../src/runtime/sim/simulate.js';
import { createLivestreamScenario } from '../../src/scenarios/livestream/index.js';
import { projectRoot } from '../support/run-cli.js';

const harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
const registry = createRegistry(builtinOperators);

/** What a harness's hooks enforce, in order: the parts no surface rename touches. */
const enforcement = (of: Harness) =>
  of.hooks.items.map((hook) => ({
    id: hook.id,
    stage: hook.stage,
    enabled: hook.enabled,
    check: hook.check.type,
    max: 'max' in hook.check ? hook.check.max : undefined,
    action: hook.onFail.action,
    maxRetries: hook.onFail.action === 'retry' ? hook.onFail.maxRetries : undefined,
    exhausted: hook.onFail.action === 'retry' ? hook.onFail.exhausted : undefined,
  }));

const scenario = createLivestreamScenario();
const fitted = ['hooks/disable-untriggered', 'hooks/reorder', 'hooks/vary-budgets'];

async function simulated(
  options: Omit<SimulateOptions, 'scenario' | 'harness'>,
): Promise<SimulatedEpisode[]> {
  const episodes: SimulatedEpisode[] = [];
  for await (const episode of simulate({ scenario, harness, ...options })) episodes.push(episode);
  return episodes;
}

const completion = (message: { content: string | null; tool_calls?: unknown[] }) => ({
  id: 'wrong',
  object: 'chat.completion' as const,
  created: 0,
  model: 'wrong-call',
  choices: [
    { index: 0, finish_reason: 'stop' as const, message: { role: 'assistant' as const, ...message } },
  ],
});

/**
 * A model that opens each episode with a call missing every required argument (to the first offered tool
 * that has one), then only replies: the argument check must reject that call under any harness.
 */
const wrongCall: ChatModel = {
  async complete(request: ChatRequest) {
    const called = request.messages.some((message) => message.role === 'assistant' && message.tool_calls);
    const tool = request.tools?.find(
      (offered) => ((offered.function.parameters as { required?: string[] }).required ?? []).length > 0,
    );
    if (called || !tool) return completion({ content: 'Noted.' }) as never;
    return completion({
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: tool.function.name, arguments: '{}' } },
      ],
    }) as never;
  },
};

describe('variants that run episodes keep what the environment enforces', () => {
  it('hsa sim under hat: every variant keeps every hook on, in order, with its budget and threshold', async () => {
    expect(harness.hooks.items.some((hook) => hook.check.type === 'tool_arguments' && hook.enabled)).toBe(
      true,
    );
    const { plan, severity } = await resolvePolicy('hat', { registry, severity: 'heavy' });
    const episodes = await simulated({ episodes: 16, seed: 'guards', augment: { plan, severity } });
    const augmented = episodes.filter((episode) => episode.variant);
    expect(augmented.length).toBeGreaterThanOrEqual(12);
    // The hooks dimension still varies (feedback wording), only not what is enforced.
    expect(augmented.some((episode) => episode.variant?.ops.includes('hooks/reword-feedback'))).toBe(true);
    for (const episode of augmented) {
      expect({ id: episode.id, hooks: enforcement(episode.harness) }).toEqual({
        id: episode.id,
        hooks: enforcement(harness),
      });
    }
  }, 240_000);

  it('a wrong call is rejected by the argument check under every variant a model plays', async () => {
    const { plan, severity } = await resolvePolicy('hat', { registry, severity: 'heavy' });
    const episodes = await simulated({
      episodes: 12,
      seed: 'a',
      augment: { plan, severity },
      model: { model: wrongCall },
    });
    expect(episodes.filter((episode) => episode.variant).length).toBeGreaterThanOrEqual(8);
    for (const episode of episodes) {
      const rejected = episode.trajectory.messages.some(
        (message) =>
          'hsa' in message &&
          message.hsa?.event === 'hook_rejected' &&
          message.hsa.hook === 'tool_arguments_valid',
      );
      expect({ id: episode.id, variant: episode.variant?.ops, rejected }).toEqual({
        id: episode.id,
        variant: episode.variant?.ops,
        rejected: true,
      });
    }
  }, 240_000);

  it('the environment server draws hat variants that keep every hook, and says what it left out', async () => {
    const hat = { ...(presets.hat as PolicyInput), severity: 'heavy' as const };
    const plans = createPlanCache({ hat }, registry);
    const env = createEnvService({ scenario, harness, policies: { hat }, registry });
    const planned = await scenario.plan({ base: harness, seed: 'env', episodes: 8, idPrefix: 'env-' });
    let variants = 0;
    for (const [index, entry] of planned.entries()) {
      const episode = await scenario.episode(entry, { base: harness, seed: 'env' });
      const chosen = await chooseHarness({ augment: 'hat' }, { base: harness, episode, seed: 'env', plans });
      expect(chosen.leftOut).toEqual(fitted);
      if (chosen.variantId) variants++;
      expect(enforcement(chosen.harness)).toEqual(enforcement(harness));
      const reset = await env.reset({ seed: 'env', index, harness: { augment: 'hat' } });
      expect(reset.info.left_out).toEqual(fitted);
    }
    expect(variants).toBeGreaterThanOrEqual(4);
    env.close();
  }, 240_000);

  it('bench variants keep every hook', async () => {
    const { plan } = await resolvePolicy('hat', { registry, severity: 'heavy' });
    const items: BenchItem[] = [];
    for await (const record of readBenchItems(join(projectRoot, 'fixtures/livestream/bench/items.jsonl')))
      if ('item' in record && items.length < 6) items.push(record.item);
    let rows = 0;
    for await (const row of generateBench(harness, items, {
      plan,
      variants: 4,
      seed: 'guards',
      severity: 1,
    })) {
      rows++;
      expect({ id: row.id, hooks: enforcement(row.harness) }).toEqual({
        id: row.id,
        hooks: enforcement(harness),
      });
    }
    expect(rows).toBeGreaterThanOrEqual(20);
  }, 240_000);
});
