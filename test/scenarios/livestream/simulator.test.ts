import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../../perturbations/index.js';
import { compilePolicy, parsePolicy } from '../../../src/augment/policy.js';
import { presets } from '../../../src/augment/presets.js';
import { createRegistry } from '../../../src/augment/registry.js';
import { canonicalJson } from '../../../src/harness/canonical-json.js';
import { loadHarnessFile } from '../../../src/harness/parse-harness.js';
import type { ChatModel } from '../../../src/runtime/chat-model.js';
import { isToolError } from '../../../src/runtime/episode-task.js';
import { type SimulatedEpisode, type SimulateOptions, simulate } from '../../../src/runtime/sim/simulate.js';
import { createLivestreamScenario } from '../../../src/scenarios/livestream/index.js';
import { FIXTURE_SEED, planEpisodes } from '../../../src/scenarios/livestream/plan.js';
import { runModelEpisode, runOracleEpisode } from '../../../src/scenarios/livestream/run-episode.js';
import type { Message } from '../../../src/trajectory/schema.js';
import { validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { projectRoot } from '../../support/run-cli.js';

const harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
const scenario = createLivestreamScenario();

async function collect(options: Omit<SimulateOptions, 'harness' | 'scenario'>): Promise<SimulatedEpisode[]> {
  const episodes: SimulatedEpisode[] = [];
  for await (const episode of simulate({ scenario, harness, ...options })) episodes.push(episode);
  return episodes;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function expectAllValid(episodes: SimulatedEpisode[]) {
  const invalid = episodes
    .map((episode) => ({
      id: episode.id,
      issues: validateTrajectory(episode.trajectory, episode.harness).issues,
    }))
    .filter((entry) => entry.issues.length > 0);
  expect(invalid).toEqual([]);
}

describe('the live-stream simulator', () => {
  it('regenerates the bundled fixture byte for byte', async () => {
    const episodes = await collect({ strict: true });
    const text = `${episodes.map((episode) => JSON.stringify(episode.trajectory)).join('\n')}\n`;
    expect(
      text === (await readFile(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8')),
    ).toBe(true);
  });

  it('the oracle scores accuracy ≥ 0.99 over 500 episodes under the base harness, all valid', async () => {
    const episodes = await collect({ episodes: 500, seed: 'acceptance-base', idPrefix: 'b-' });
    expect(episodes).toHaveLength(500);
    expectAllValid(episodes);
    expect(mean(episodes.map((episode) => episode.rewards.rewards.accuracy!))).toBeGreaterThanOrEqual(0.99);
    expect(episodes.every((episode) => episode.deviations.length === 0)).toBe(true);
  });

  it('the oracle scores accuracy ≥ 0.99 over 500 episodes under hat-augmented harnesses, all valid', async () => {
    const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));
    const episodes = await collect({
      episodes: 500,
      seed: 'acceptance-hat',
      idPrefix: 'h-',
      augment: { plan },
    });
    expectAllValid(episodes);
    const augmented = episodes.filter((episode) => episode.variant);
    expect(augmented.length).toBeGreaterThanOrEqual(495);
    // The variants really differ from the base: tool names or skill ids changed in most of them.
    const renamed = augmented.filter(
      (episode) => canonicalJson(episode.harness.tools) !== canonicalJson(harness.tools),
    );
    expect(renamed.length).toBeGreaterThan(200);
    expect(mean(episodes.map((episode) => episode.rewards.rewards.accuracy!))).toBeGreaterThanOrEqual(0.99);
    // Rewards read each variant in its own vocabulary: a merged skill counts as the skills it merges.
    expect(mean(episodes.map((episode) => episode.rewards.rewards.skillSelection!))).toBeGreaterThanOrEqual(
      0.999,
    );
    // 500 augmented episodes: minutes on a loaded 2-core machine; the bound is for hangs, not speed.
  }, 300_000);

  it('with 20% tool faults over 1000 episodes, every fault is retried or the harness ends the turn', async () => {
    const episodes = await collect({
      episodes: 1000,
      seed: 'acceptance-faults',
      idPrefix: 'f-',
      faults: { rate: 0.2 },
    });
    expect(episodes).toHaveLength(1000);
    expectAllValid(episodes);
    const faults = episodes.reduce((sum, episode) => sum + episode.faults.failed, 0);
    expect(faults).toBeGreaterThan(150);
    let recovered = 0;
    let endedByHarness = 0;
    const unhandled: string[] = [];
    for (const episode of episodes) {
      const messages = episode.trajectory.messages;
      const calls = new Map<string, { name: string; args: string }>();
      for (const message of messages)
        if (message.role === 'assistant')
          for (const call of message.tool_calls ?? [])
            calls.set(call.id, {
              name: call.function.name,
              args: canonicalJson(JSON.parse(call.function.arguments)),
            });
      messages.forEach((message, index) => {
        if (message.role !== 'tool' || message.hsa || !isToolError(message.content)) return;
        const failed = calls.get(message.tool_call_id)!;
        // A skill load answers with the skill's Markdown body: not a tool result.
        if (failed.name === harness.skills.loader.tool) return;
        const rest: Message[] = [];
        for (const later of messages.slice(index + 1)) {
          if (later.role === 'user' && !later.hsa) break;
          rest.push(later);
        }
        const retried = rest.some((later) => {
          if (later.role !== 'tool' || later.hsa || isToolError(later.content)) return false;
          const call = calls.get(later.tool_call_id)!;
          return call.name === failed.name && call.args === failed.args;
        });
        const ended = rest.some(
          (later) =>
            later.role === 'assistant' &&
            (later.hsa?.event === 'hook_fallback' || later.hsa?.event === 'hook_blocked'),
        );
        if (retried) recovered++;
        else if (ended) endedByHarness++;
        else unhandled.push(`${episode.id}#${index}`);
      });
    }
    expect(unhandled).toEqual([]);
    expect(recovered + endedByHarness).toBe(faults);
    expect(endedByHarness).toBeGreaterThan(0);
    // Rewards reflect the faults: episodes the harness cut short score lower effectiveness.
    const cut = episodes.filter((episode) =>
      episode.trajectory.messages.some(
        (message) => message.role === 'assistant' && message.hsa?.hook === 'tool_call_budget',
      ),
    );
    const clean = episodes.filter((episode) => episode.faults.failed === 0);
    expect(mean(cut.map((episode) => episode.rewards.rewards.effectiveness!))).toBeLessThan(
      mean(clean.map((episode) => episode.rewards.rewards.effectiveness!)),
    );
    expect(mean(episodes.map((episode) => episode.rewards.rewards.accuracy!))).toBeGreaterThanOrEqual(0.99);
  }, 60_000);

  it('gives the same episodes for any shard count and concurrency', async () => {
    const whole = await collect({ episodes: 30, seed: 'shards', faults: { rate: 0.2 } });
    const parts = await Promise.all(
      [0, 1, 2].map((index) =>
        collect({
          episodes: 30,
          seed: 'shards',
          faults: { rate: 0.2 },
          shard: { index, count: 3 },
          concurrency: 4,
        }),
      ),
    );
    const line = (episode: SimulatedEpisode) => JSON.stringify(episode.trajectory);
    const union = parts.flat().map(line).sort();
    expect(union).toEqual(whole.map(line).sort());
  });

  it('a model through the agent loop that answers like the oracle gets the oracle’s trajectory and rewards', async () => {
    const [entry] = planEpisodes({ episodes: 396, seed: FIXTURE_SEED, idPrefix: 'ls-' }).slice(4, 5);
    const gold = await runOracleEpisode({ entry: entry!, seed: FIXTURE_SEED, base: harness });
    const answers = gold.trajectory.messages.filter(
      (message) => message.role === 'assistant' && !(message.hsa && message.hsa.event !== 'hook_rejected'),
    );
    let next = 0;
    const replay: ChatModel = {
      async complete() {
        const message = answers[next++] as Extract<Message, { role: 'assistant' }>;
        return {
          id: String(next),
          object: 'chat.completion',
          created: 0,
          model: 'replay',
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: {
                role: 'assistant',
                content: message.content,
                ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
              },
            },
          ],
        };
      },
    };
    const played = await runModelEpisode({
      entry: entry!,
      seed: FIXTURE_SEED,
      base: harness,
      model: replay,
      gold,
    });
    expect(played.trajectory.messages).toEqual(gold.trajectory.messages);
    expect(played.steps.length).toBe(answers.length);
  });
});
