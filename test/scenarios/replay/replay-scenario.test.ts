// The log-replay scenario on the live-stream fixture and on a small harness written here: its plan, its
// episodes and labels, the recorded backend's miss policy, and the two scripted players under the base
// harness and under `hat` variants.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../../perturbations/index.js';
import { augmentExample } from '../../../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../../../src/augment/policy.js';
import { presets } from '../../../src/augment/presets.js';
import { createRegistry } from '../../../src/augment/registry.js';
import { loadHarnessFile } from '../../../src/harness/parse-harness.js';
import type { ScenarioVariant } from '../../../src/runtime/scenario.js';
import { loadHelpdeskScenario } from '../../../src/scenarios/index.js';
import { createReplayScenario, moduleBackend } from '../../../src/scenarios/replay/index.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { playScenario } from '../../support/replay-play.js';
import { projectRoot } from '../../support/run-cli.js';

const base = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
const logs = (await readFile(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8'))
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Trajectory);
const hat = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));

async function hatVariant(gold: Trajectory | undefined): Promise<ScenarioVariant | undefined> {
  const result = await augmentExample(base, gold!, 0, { plan: hat, seed: 'replay-test' });
  if (!('row' in result)) return undefined;
  return { id: result.row.variantId, harness: result.row.harness, relabel: result.row.relabel };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describe('replay scenario: plan and episodes', () => {
  const scenario = createReplayScenario({ trajectories: logs.slice(0, 10) });
  const context = { base, seed: '7' };

  it('plans the log in logged order by default, ids the logged ones', async () => {
    expect(scenario.defaultEpisodes(context)).toBe(10);
    const plan = await scenario.plan(context);
    expect(plan.map((entry) => entry.id)).toEqual(logs.slice(0, 10).map((log) => log.id));
    expect(plan.map((entry) => entry.index)).toEqual([...Array(10).keys()]);
  });

  it('takes a seeded subset in logged order for fewer episodes, and repeats with suffixes for more', async () => {
    const fewer = await scenario.plan({ ...context, episodes: 4 });
    expect(fewer).toEqual(await scenario.plan({ ...context, episodes: 4 }));
    const sources = fewer.map((entry) => entry.source);
    expect(sources).toEqual([...sources].sort((a, b) => a - b));
    expect(new Set(sources).size).toBe(4);
    const other = await scenario.plan({ base, seed: '8', episodes: 4 });
    expect(other.map((entry) => entry.source)).not.toEqual(sources);
    const more = await scenario.plan({ ...context, episodes: 23 });
    expect(more.slice(0, 10).map((entry) => entry.id)).toEqual(logs.slice(0, 10).map((log) => log.id));
    expect(more.slice(10, 20).map((entry) => entry.id)).toEqual(
      logs.slice(0, 10).map((log) => `${log.id}#2`),
    );
    expect(more.slice(20).every((entry) => entry.id.endsWith('#3'))).toBe(true);
    expect(new Set(more.map((entry) => entry.id)).size).toBe(23);
  });

  it('makes an episode from the log: context, user turns and labels from the gold', async () => {
    const [planned] = await scenario.plan(context);
    const episode = await scenario.episode(planned!, context);
    expect(episode.gold).toBe(logs[0]);
    expect(episode.context).toEqual(logs[0]!.context);
    expect(episode.task.turns.map((turn) => turn.user)).toEqual(
      logs[0]!.messages
        .filter((message) => message.role === 'user' && !message.hsa)
        .map((message) => message.content),
    );
    expect(episode.task.turns[0]!.skills.length).toBeGreaterThan(0);
  });

  it('reports the name it is given (the domain of the logs), `replay` when none is', async () => {
    expect(scenario.name).toBe('replay');
    expect(createReplayScenario({ trajectories: logs.slice(0, 1), name: 'shop-logs' }).name).toBe(
      'shop-logs',
    );
    const helpdesk = await loadHelpdeskScenario();
    expect(helpdesk.scenario.name).toBe('helpdesk');
    await helpdesk.scenario.close?.();
  });

  it('refuses repeated ids and an empty log', () => {
    expect(() => createReplayScenario({ trajectories: [logs[0]!, logs[0]!] })).toThrow(/unique.*ls-0001/);
    expect(() => createReplayScenario({ trajectories: [] })).toThrow(/at least one/);
  });

  it('checks the harness: backends for unknown tools, tools a backend lacks, logs that do not validate', () => {
    const module = moduleBackend({ get_product_info_by_link_id: () => ({}) });
    const checked = createReplayScenario({
      trajectories: [
        {
          ...logs[0]!,
          messages: [...logs[0]!.messages, { role: 'tool', tool_call_id: 'nope', content: '{}' }],
        },
      ],
      backends: { default: module, tools: { no_such_tool: 'recorded' } },
    }).check(base);
    const codes = checked.map((issue) => issue.code);
    expect(codes).toContain('unknown_tool');
    expect(checked.find((issue) => issue.code === 'tool_without_backend')?.path).toEqual([
      'backends',
      'default',
      'get_price_and_coupons',
    ]);
    expect(checked.some((issue) => issue.path[0] === 'trajectories' && issue.path[1] === 0)).toBe(true);
    expect(createReplayScenario({ trajectories: logs.slice(0, 20) }).check(base)).toEqual([]);
  });
});

describe('replay scenario: recorded backend', () => {
  it('answers from the log and counts a miss with an error result', async () => {
    const scenario = createReplayScenario({ trajectories: logs.slice(0, 3) });
    const context = { base, seed: '1' };
    const [planned] = await scenario.plan(context);
    const episode = await scenario.episode(planned!, context);
    const backend = await scenario.backend(episode, context);
    const logged = logs[0]!.messages.flatMap((message) =>
      message.role === 'assistant'
        ? (message.tool_calls ?? []).filter((call) => call.function.name !== 'load_skill')
        : [],
    )[0]!;
    const callContext = { harness: base, signal: new AbortController().signal, callIndex: 0 };
    const args = JSON.parse(logged.function.arguments) as Record<string, unknown>;
    // Keys in another order are the same canonical arguments.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(args).reverse()));
    const hit = await backend.call(
      { id: 'a', name: logged.function.name, arguments: args, rawArguments: reordered },
      callContext,
    );
    const result = logs[0]!.messages.find(
      (message) => message.role === 'tool' && message.tool_call_id === logged.id,
    );
    expect(hit).toEqual({ content: (result as { content: string }).content });
    const miss = await backend.call(
      { id: 'b', name: logged.function.name, arguments: { link_id: 999 }, rawArguments: '{"link_id":999}' },
      callContext,
    );
    expect(miss.error).toBe('tool_error');
    expect(miss.content).toContain('no recorded result');
    expect(scenario.recordedStats()).toEqual({
      calls: 2,
      hits: 1,
      misses: 1,
      missesByTool: { [logged.function.name]: 1 },
    });
  });
});

describe('replay scenario: module backends', () => {
  it('createTools() gives each episode fresh state; named functions are shared; per-tool routing', async () => {
    let made = 0;
    const stateful = moduleBackend({
      createTools: () => {
        made++;
        let calls = 0;
        return { get_price_and_coupons: () => ({ calls: ++calls }) };
      },
    });
    expect(stateful.tools).toEqual(['get_price_and_coupons']);
    const scenario = createReplayScenario({
      trajectories: logs.slice(0, 2),
      backends: {
        tools: {
          get_price_and_coupons: stateful,
          get_shipping_info: moduleBackend({ get_shipping_info: () => 'ships today' }),
        },
      },
    });
    const context = { base, seed: '1' };
    const callContext = { harness: base, signal: new AbortController().signal, callIndex: 0 };
    const request = (name: string) => ({ id: 'x', name, arguments: {}, rawArguments: '{}' });
    const answers: string[] = [];
    for (const planned of await scenario.plan(context)) {
      const backend = await scenario.backend(await scenario.episode(planned, context), context);
      answers.push((await backend.call(request('get_price_and_coupons'), callContext)).content);
      answers.push((await backend.call(request('get_price_and_coupons'), callContext)).content);
      answers.push((await backend.call(request('get_shipping_info'), callContext)).content);
      // Not routed: the recorded default answers (a miss for these arguments).
      expect((await backend.call(request('get_live_room_state'), callContext)).content).toContain(
        'no recorded result',
      );
    }
    expect(answers).toEqual([
      '{"calls":1}',
      '{"calls":2}',
      'ships today',
      '{"calls":1}',
      '{"calls":2}',
      'ships today',
    ]);
    expect(made).toBeGreaterThanOrEqual(2);
  });

  it('a throwing tool answers a tool_error result with its message', async () => {
    const factory = moduleBackend({
      get_shipping_info: () => {
        throw new Error('warehouse offline');
      },
    });
    const backend = await factory(
      { id: 'e', context: {}, task: { id: 'e', turns: [] } },
      { base, seed: '1' },
    );
    const outcome = await backend.call(
      { id: 'x', name: 'get_shipping_info', arguments: {}, rawArguments: '{}' },
      { harness: base, signal: new AbortController().signal, callIndex: 0 },
    );
    expect(outcome).toEqual({
      content: '{"error":{"type":"tool_error","message":"warehouse offline"}}',
      error: 'tool_error',
    });
  });
});

describe('replay scenario: the scripted players', () => {
  it('the gold replays every logged conversation byte for byte under the base harness, all rewards at 1', async () => {
    const scenario = createReplayScenario({ trajectories: logs });
    const played = await playScenario(scenario, base);
    expect(played).toHaveLength(logs.length);
    played.forEach((episode, index) => {
      expect(episode.trajectory.messages).toEqual(logs[index]!.messages);
      expect(episode.deviations).toEqual([]);
      expect(episode.score.rewards).toMatchObject({ toolCallMatch: 1, skillSelection: 1, hookCompliance: 1 });
    });
    expect(scenario.recordedStats().misses).toBe(0);
  }, 120_000);

  it('under hat variants the gold plays the relabelled gold (1.0), the base-names player scores lower', async () => {
    const sample = logs.slice(0, 60);
    const variants = new Map<string, ScenarioVariant | undefined>();
    for (const log of sample) variants.set(log.id, await hatVariant(log));
    expect([...variants.values()].filter(Boolean).length).toBeGreaterThan(50);
    const variant = async (id: string) => variants.get(id);
    const gold = await playScenario(createReplayScenario({ trajectories: sample }), base, { variant });
    for (const episode of gold) {
      expect(episode.deviations).toEqual([]);
      expect(episode.score.rewards).toMatchObject({ toolCallMatch: 1, skillSelection: 1, hookCompliance: 1 });
    }
    const memorised = await playScenario(
      createReplayScenario({ trajectories: sample, player: 'base-names' }),
      base,
      { variant },
    );
    for (const name of ['toolCallMatch', 'skillSelection', 'hookCompliance'])
      expect(mean(memorised.map((episode) => episode.score.rewards[name]!))).toBeLessThan(0.9);
    expect(mean(memorised.map((episode) => episode.score.total))).toBeLessThan(
      mean(gold.map((episode) => episode.score.total)),
    );
  }, 120_000);

  it('the gold under a variant is the relabelled gold: the trajectory certified by augment', async () => {
    for (const log of logs.slice(0, 12)) {
      const result = await augmentExample(base, log, 0, { plan: hat, seed: 'replay-test' });
      if (!('row' in result)) continue;
      const variant = { harness: result.row.harness, relabel: result.row.relabel };
      const [episode] = await playScenario(createReplayScenario({ trajectories: [log] }), base, {
        variant: async () => variant,
      });
      // The runtime played the injected recovery episode for real; only the marker saying it was injected differs.
      const unmarked = result.row.trajectory.messages.map((message) => {
        if (!('hsa' in message) || !message.hsa?.injected) return message;
        const { injected: _injected, ...hsa } = message.hsa;
        return { ...message, hsa };
      });
      expect(episode!.trajectory.messages).toEqual(unmarked);
    }
  }, 60_000);
});
