// The RL stage on the live-stream scenario: golden TRL, veRL and OpenRLHF files for a seeded mix of original
// and augmented harness states; veRL rows hold every field its agent loop reads; the Python shims compile;
// and, run with python3 against the environment server this test starts on 127.0.0.1, the TRL reward
// function and veRL's compute_score return, for the oracle's rollout of each row, exactly the reward the
// simulator computes in process for the same episode under the same variant (total and segment rewards).
// Update the golden files on purpose with UPDATE_GOLDEN=1 npx vitest run test/pipeline/rl.test.ts
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenario as libraryScenario } from '../../examples/custom-scenario/library-scenario.js';
import { builtinOperators } from '../../perturbations/index.js';
import { type EnvServer, startEnvServer } from '../../src/adapters/env-http/server.js';
import { rlExporters } from '../../src/adapters/trainer/rl/index.js';
import { compilePolicy, parsePolicy, severityValue } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { resolveScenario } from '../../src/cli/scenario-option.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { planRlRows, RlConfigSchema, type RlRow, rowReward } from '../../src/pipeline/rl.js';
import { createEnvService } from '../../src/runtime/env/service.js';
import type { Scenario } from '../../src/runtime/scenario.js';
import { type SimulatedEpisode, simulate } from '../../src/runtime/sim/simulate.js';
import { agentMessages, harness, scenario } from '../support/env-episodes.js';
import { projectRoot } from '../support/run-cli.js';

const run = promisify(execFile);
const scratch = await mkdtemp(join(tmpdir(), 'hsa-rl-'));
const golden = join(projectRoot, 'test/golden/rl');
const registry = createRegistry(builtinOperators);
const seed = 'rl-test';
const hat = parsePolicy(presets.hat);
const hatPlan = compilePolicy(hat, registry);

/** The episode the environment plays for (seed, index), played in process by the simulator's oracle. */
async function simulated(
  setup: { scenario: Scenario; harness: Harness },
  index: number,
  augment: boolean,
): Promise<SimulatedEpisode> {
  const run = simulate({
    scenario: setup.scenario,
    harness: setup.harness,
    seed,
    idPrefix: 'env-',
    shard: { index, count: setup.scenario.defaultEpisodes({ base: setup.harness, seed }) },
    ...(augment ? { augment: { plan: hatPlan, severity: severityValue(hat.severity) } } : {}),
  });
  return (await run.next()).value as SimulatedEpisode;
}

/** The scenarios whose shims are checked against the in-process scorer (more join as they land). */
const scenarios: Array<{ name: string; setup: () => Promise<{ scenario: Scenario; harness: Harness }> }> = [
  { name: 'livestream', setup: async () => ({ scenario, harness }) },
  {
    name: 'replay on the helpdesk fixture',
    setup: async () => {
      const harnessPath = join(projectRoot, 'fixtures/helpdesk/harness.yaml');
      const helpdesk = await loadHarnessFile(harnessPath);
      const replay = await resolveScenario('replay', {
        harness: helpdesk,
        harnessPath,
        trajectories: join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl'),
      });
      return { scenario: replay, harness: helpdesk };
    },
  },
  {
    name: 'library-desk (examples/custom-scenario)',
    setup: async () => ({
      scenario: libraryScenario,
      harness: await loadHarnessFile(join(projectRoot, 'examples/custom-scenario/harness.yaml')),
    }),
  },
];

let server: EnvServer;
let rows: RlRow[];
let split: RlRow[];

beforeAll(async () => {
  const config = RlConfigSchema.parse({ episodes: 4, groupSize: 4, augmentedShare: 0.5 });
  rows = (await planRlRows({ scenario, harness, config, seed, registry })).rows;
  const splitConfig = RlConfigSchema.parse({ episodes: 4, segments: 'split' });
  split = (await planRlRows({ scenario, harness, config: splitConfig, seed, registry })).rows;
  server = await startEnvServer(createEnvService({ scenario, harness, registry }), { port: 0 });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('RL stage', () => {
  it('mixes original and augmented states with the variant pinned in every reset', () => {
    expect(new Set(rows.map((row) => row.state))).toEqual(new Set(['augmented', 'original']));
    for (const row of rows) {
      expect(row.reset.variant_id).toBe(row.variantId);
      expect(row.prompt.map((message) => message.role)).toEqual(['system', 'user']);
    }
    expect(split.map((row) => row.id.split('/').at(-1))).toEqual([
      'tool',
      'reply',
      'tool',
      'reply',
      'tool',
      'reply',
      'tool',
      'reply',
    ]);
    expect(new Set(split.map((row) => row.group)).size).toBe(8);
  });

  it('splits the groups between shards whose union is the whole plan', async () => {
    const config = RlConfigSchema.parse({ episodes: 4, groupSize: 4, augmentedShare: 0.5 });
    const parts: RlRow[] = [];
    for (const index of [0, 1])
      parts.push(
        ...(await planRlRows({ scenario, harness, config, seed, registry, shard: { index, count: 2 } })).rows,
      );
    const byId = (list: RlRow[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId(parts)).toEqual(byId(rows));
  });

  it('refuses a reset whose pinned variant the server would not draw', async () => {
    const service = createEnvService({ scenario, harness, registry });
    const row = rows.find((entry) => entry.state === 'augmented')!;
    await expect(service.reset({ ...row.reset, variant_id: 'v_00000000000000000000' })).rejects.toMatchObject(
      {
        status: 409,
        code: 'variant_mismatch',
      },
    );
    await expect(service.reset(row.reset)).resolves.toMatchObject({ info: { variant_id: row.variantId } });
    service.close();
  });

  it('writes the golden files of every trainer, with every field veRL reads', async () => {
    for (const [format, exporter] of Object.entries(rlExporters)) {
      const files = await exporter.write(rows, join(scratch, format), {
        envURL: 'http://127.0.0.1:8000',
        groupSize: 4,
      });
      mkdirSync(join(golden, format), { recursive: true });
      for (const file of files) {
        const text = await readFile(file, 'utf8');
        const target = join(golden, format, basename(file));
        if (process.env.UPDATE_GOLDEN === '1' || !existsSync(target)) writeFileSync(target, text);
        expect(text, `${format}/${basename(file)}`).toBe(readFileSync(target, 'utf8'));
        if (file.endsWith('.py')) await run('python3', ['-m', 'py_compile', file]);
      }
    }
    const verlRows = (await readFile(join(scratch, 'verl/train.json'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const toolNames = new Set(rows.flatMap((row) => row.tools.map((tool) => tool.function.name)));
    for (const row of verlRows) {
      expect(Object.keys(row).sort()).toEqual([
        'ability',
        'agent_name',
        'data_source',
        'extra_info',
        'prompt',
        'reward_model',
      ]);
      expect(row.reward_model).toMatchObject({ style: 'rule' });
      expect(row.extra_info.interaction_kwargs.name).toBe('hsa_env');
      expect(new Set(Object.keys(row.extra_info.tools_kwargs))).toEqual(toolNames);
      expect(JSON.parse(row.reward_model.ground_truth)).toEqual(
        JSON.parse(row.extra_info.interaction_kwargs.reset),
      );
    }
    const toolConfig = await readFile(join(scratch, 'verl/tool_config.yaml'), 'utf8');
    for (const name of toolNames) expect(toolConfig).toContain(`name: ${name}`);
  });

  it.each(scenarios)(
    'scores $name rollouts in Python over HTTP exactly as the simulator does in process',
    async ({ setup }) => {
      const domain = await setup();
      const config = RlConfigSchema.parse({ episodes: 4, groupSize: 4 });
      const domainRows = (await planRlRows({ ...domain, config, seed, registry })).rows;
      const domainSplit = (
        await planRlRows({
          ...domain,
          config: RlConfigSchema.parse({ episodes: 4, segments: 'split' }),
          seed,
          registry,
        })
      ).rows;
      const domainServer = await startEnvServer(createEnvService({ ...domain, registry }), { port: 0 });
      const local = createEnvService({ ...domain, registry });
      /** The same replay as the shims', on the service in process. */
      const replayInProcess = async (row: RlRow, messages: ReturnType<typeof agentMessages>) => {
        const reset = await local.reset(row.reset);
        let last: { done: boolean; reward: number; rewards?: Record<string, number> } = reset;
        for (const message of messages) {
          if (last.done) break;
          last = await local.step(reset.episode_id, message);
        }
        if (last.done) return rowReward(row.reward, last.rewards ?? {}, last.reward);
        const scored = local.getReward({ query: [''], labels: [reset.episode_id] });
        const named = Object.fromEntries(
          Object.entries(scored.extra_logs).flatMap(([name, values]) =>
            name === 'done' ? [] : [[name, values[0]!]],
          ),
        );
        return rowReward(row.reward, named, scored.rewards[0]!);
      };
      const cases = [];
      for (const row of [...domainRows, ...domainSplit]) {
        const sim = await simulated(domain, row.episode.index, row.state === 'augmented');
        expect(sim.variant?.id).toBe(row.variantId);
        const messages = agentMessages(sim.trajectory.messages);
        // The oracle's whole rollout: the simulator's own reward.
        const expected = rowReward(row.reward, sim.rewards.rewards, sim.rewards.total);
        expect(await replayInProcess(row, messages)).toBe(expected);
        cases.push({ row, messages, expected });
        // A rollout cut after its first message: scored as it stands, in process.
        const cut = messages.slice(0, 1);
        cases.push({ row, messages: cut, expected: await replayInProcess(row, cut) });
      }
      local.close();
      // Rewards differ between rows, so agreement is not a coincidence of constants.
      expect(new Set(cases.map((entry) => entry.expected)).size).toBeGreaterThan(1);
      const input = join(scratch, 'cases.json');
      await writeFile(
        input,
        JSON.stringify(
          cases.map(({ row, messages }) => ({
            trl: { reset: JSON.stringify(row.reset), spec: JSON.stringify(row.reward), completion: messages },
            verl: {
              ground_truth: JSON.stringify(row.reset),
              extra_info: { reward_spec: JSON.stringify(row.reward), messages },
            },
          })),
        ),
      );
      const driver = join(scratch, 'driver.py');
      await writeFile(
        driver,
        [
          'import json, sys',
          `sys.path[:0] = [${JSON.stringify(join(scratch, 'trl'))}, ${JSON.stringify(join(scratch, 'verl'))}]`,
          'from hsa_trl import hsa_reward',
          'from hsa_verl import compute_score',
          'cases = json.load(open(sys.argv[1]))',
          'trl = hsa_reward(prompts=[None] * len(cases), completions=[c["trl"]["completion"] for c in cases], hsa_reset=[c["trl"]["reset"] for c in cases], hsa_reward_spec=[c["trl"]["spec"] for c in cases])',
          'verl = [compute_score("hsa", "", c["verl"]["ground_truth"], c["verl"]["extra_info"]) for c in cases]',
          'print(json.dumps({"trl": trl, "verl": verl}))',
        ].join('\n'),
      );
      const { stdout } = await run('python3', [driver, input], {
        env: { ...process.env, HSA_ENV_URL: domainServer.url },
      }).finally(() => domainServer.close());
      const scored = JSON.parse(stdout) as { trl: number[]; verl: number[] };
      expect(scored.trl).toEqual(cases.map((entry) => entry.expected));
      expect(scored.verl).toEqual(cases.map((entry) => entry.expected));
    },
    60_000,
  );

  it('plays rollouts through the veRL interaction and tool classes as the agent loop calls them', async () => {
    const cases = [];
    for (const row of rows) {
      const sim = await simulated({ scenario, harness }, row.episode.index, row.state === 'augmented');
      const oneCallPerMessage = agentMessages(sim.trajectory.messages).every(
        (message) => (message.tool_calls?.length ?? 0) <= 1,
      );
      cases.push({
        reset: JSON.stringify(row.reset),
        spec: JSON.stringify(row.reward),
        messages: agentMessages(sim.trajectory.messages),
        expected: sim.rewards.total,
        oneCallPerMessage,
      });
    }
    const input = join(scratch, 'verl-cases.json');
    await writeFile(input, JSON.stringify(cases));
    const driver = join(scratch, 'verl-driver.py');
    await writeFile(
      driver,
      [
        'import asyncio, json, sys, types',
        `sys.path.insert(0, ${JSON.stringify(join(scratch, 'verl'))})`,
        'from hsa_verl import HsaEnvInteraction, HsaEnvTool',
        'async def play(case, index):',
        '    interaction = HsaEnvInteraction({})',
        '    request = await interaction.start_interaction("request-%d" % index, reset=case["reset"], reward_spec=case["spec"])',
        '    agent = types.SimpleNamespace(request_id=request)',
        '    for message in case["messages"]:',
        '        for call in message.get("tool_calls") or []:',
        '            tool = HsaEnvTool({}, {"type": "function", "function": {"name": call["function"]["name"]}})',
        '            await tool.execute(await tool.create(), json.loads(call["function"]["arguments"]), agent_data=agent)',
        '        if not message.get("tool_calls"):',
        '            done, _, score, _ = await interaction.generate_response(request, [message])',
        '            if done:',
        '                return score',
        '    return await interaction.calculate_score(request)',
        'async def main():',
        '    cases = json.load(open(sys.argv[1]))',
        '    print(json.dumps([await play(case, index) for index, case in enumerate(cases)]))',
        'asyncio.run(main())',
      ].join('\n'),
    );
    const { stdout } = await run('python3', [driver, input], {
      env: { ...process.env, HSA_ENV_URL: server.url },
    });
    const scores = JSON.parse(stdout) as number[];
    // veRL steps parallel calls one at a time; on these episodes that scores the same as the simulator.
    expect(scores).toEqual(cases.map((entry) => entry.expected));
    expect(cases.some((entry) => !entry.oneCallPerMessage)).toBe(true);
  }, 60_000);
});
