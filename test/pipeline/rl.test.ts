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
import { basename, dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { scenario as libraryScenario } from '../../examples/custom-scenario/library-scenario.js';
import { builtinOperators } from '../../perturbations/index.js';
import { type EnvServer, startEnvServer } from '../../src/adapters/env-http/server.js';
import { rlExporters, toolsByState, toTrlGrpoRow } from '../../src/adapters/trainer/rl/index.js';
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
import type { OfferedTool } from '../../src/trajectory/schema.js';
import { agentMessages, harness, scenario } from '../support/env-episodes.js';
import { projectRoot } from '../support/run-cli.js';

const run = promisify(execFile);

// biome-ignore lint/suspicious/noExplicitAny: exported JSON rows, read back to check their fields
function readJsonl(file: string): Array<Record<string, any>> {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/**
 * What veRL's pydantic tool schema requires (volcengine/verl verl/tools/schemas.py @ b178a3c:
 * OpenAIFunctionPropertySchema `type: str`, `description: str | None`, `enum: list[str] | None`;
 * OpenAIFunctionParametersSchema `type`, `properties`, `required: list[str]` with no default;
 * OpenAIFunctionSchema `description: str`), so `OpenAIFunctionToolSchema.model_validate` accepts it.
 */
function expectVerlToolSchema(tool: OfferedTool): void {
  expect(tool.type).toBe('function');
  expect(typeof tool.function.description).toBe('string');
  const parameters = tool.function.parameters as {
    type: unknown;
    properties: Record<string, Record<string, unknown>>;
    required: unknown;
  };
  expect(parameters.type).toBe('object');
  expect(Array.isArray(parameters.required)).toBe(true);
  for (const property of Object.values(parameters.properties)) {
    expect(Object.keys(property).every((key) => ['type', 'description', 'enum'].includes(key))).toBe(true);
    expect(typeof property.type).toBe('string');
    if (property.description !== undefined) expect(typeof property.description).toBe('string');
    if (property.enum !== undefined)
      expect((property.enum as unknown[]).every((value) => typeof value === 'string')).toBe(true);
  }
}
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

  it('writes the golden files of every trainer, each harness state with its own tools', async () => {
    for (const [format, exporter] of Object.entries(rlExporters)) {
      const {
        files,
        rows: written,
        rejected,
      } = await exporter.write(rows, join(scratch, format), {
        envURL: 'http://127.0.0.1:8000',
        groupSize: 4,
      });
      expect(written + rejected, format).toBe(rows.length);
      mkdirSync(join(golden, format), { recursive: true });
      for (const file of files) {
        const text = await readFile(file, 'utf8');
        const target = join(golden, format, relative(join(scratch, format), file));
        mkdirSync(dirname(target), { recursive: true });
        if (process.env.UPDATE_GOLDEN === '1' || !existsSync(target)) writeFileSync(target, text);
        expect(text, `${format}/${basename(file)}`).toBe(readFileSync(target, 'utf8'));
        if (file.endsWith('.py')) await run('python3', ['-m', 'py_compile', file]);
      }
    }
    const states = toolsByState(rows);
    expect(states.size).toBeGreaterThan(1);
    // TRL: every row names its state's environment; environments.json holds exactly that state's tools.
    const trlRows = readJsonl(join(scratch, 'trl/grpo.jsonl'));
    const environments = JSON.parse(await readFile(join(scratch, 'trl/environments.json'), 'utf8'));
    expect(Object.keys(environments).sort()).toEqual([...states.keys()]);
    for (const [index, row] of trlRows.entries()) {
      expect(row.environment).toBe(rows[index]!.variantId ?? 'original');
      expect(environments[row.environment]).toEqual(rows[index]!.tools);
    }
    // veRL: each row's agent loop offers its own state's tools, every schema in the shape veRL validates.
    const verlRows = readJsonl(join(scratch, 'verl/train.json'));
    const loops = parse(await readFile(join(scratch, 'verl/agent_loop_config.yaml'), 'utf8')) as Array<{
      name: string;
      _target_: string;
      tool_config_path: string;
    }>;
    const loopByName = new Map(loops.map((loop) => [loop.name, loop]));
    expect(loops.map((loop) => loop._target_)).toEqual(loops.map(() => 'hsa_verl.HsaToolAgentLoop'));
    for (const [index, row] of verlRows.entries()) {
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
      expect(JSON.parse(row.reward_model.ground_truth)).toEqual(
        JSON.parse(row.extra_info.interaction_kwargs.reset),
      );
      const loop = loopByName.get(row.agent_name)!;
      const config = parse(await readFile(join(scratch, 'verl', loop.tool_config_path), 'utf8')) as {
        tools: Array<{ class_name: string; config: { type: string }; tool_schema: OfferedTool }>;
      };
      const names = rows[index]!.tools.map((tool) => tool.function.name);
      expect(config.tools.map((tool) => tool.tool_schema.function.name)).toEqual(names);
      for (const tool of config.tools) {
        expect(tool.config.type).toBe('native');
        expectVerlToolSchema(tool.tool_schema);
      }
    }
    // OpenRLHF: the label carries the state's tool schemas, not their names only.
    const openrlhfRows = readJsonl(join(scratch, 'openrlhf/prompts.jsonl'));
    for (const [index, row] of openrlhfRows.entries())
      expect(JSON.parse(row.label).tools).toEqual(rows[index]!.tools);
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
      // The domain's own TRL environments (its states' tools), played as TRL's GRPOTrainer calls them.
      const domainTrl = join(scratch, `trl-${domain.scenario.name}`);
      await rlExporters.trl.write([...domainRows, ...domainSplit], domainTrl, {
        envURL: domainServer.url,
        groupSize: 4,
      });
      const input = join(scratch, 'cases.json');
      await writeFile(
        input,
        JSON.stringify(
          cases.map(({ row, messages }) => ({
            trl_row: toTrlGrpoRow(row),
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
          `sys.path[:0] = [${JSON.stringify(domainTrl)}, ${JSON.stringify(join(scratch, 'verl'))}]`,
          'from hsa_trl import hsa_reward, hsa_reply, load_environments',
          'from hsa_verl import compute_score',
          'cases = json.load(open(sys.argv[1]))',
          `factories = load_environments(${JSON.stringify(join(domainTrl, 'environments.json'))})`,
          'def play(case):',
          '    row = case["trl_row"]',
          '    if row["environment"] not in factories:',
          '        return None  # a state TRL cannot write as methods (rejects.jsonl)',
          '    environment = factories[row["environment"]]()',
          '    environment.reset(**{k: v for k, v in row.items() if k != "environment"})',
          '    for message in case["trl"]["completion"]:',
          '        for call in message.get("tool_calls") or []:',
          '            getattr(environment, call["function"]["name"])(**json.loads(call["function"]["arguments"]))',
          '        if not message.get("tool_calls"):',
          '            hsa_reply(completions=[[message]], environments=[environment])',
          '            break',
          '    return environment.get_reward()',
          'trl = hsa_reward(prompts=[None] * len(cases), completions=[c["trl"]["completion"] for c in cases], hsa_reset=[c["trl"]["reset"] for c in cases], hsa_reward_spec=[c["trl"]["spec"] for c in cases])',
          'verl = [compute_score("hsa", "", c["verl"]["ground_truth"], c["verl"]["extra_info"]) for c in cases]',
          'print(json.dumps({"trl": trl, "verl": verl, "environments": [play(c) for c in cases]}))',
        ].join('\n'),
      );
      const { stdout } = await run('python3', [driver, input], {
        env: { ...process.env, HSA_ENV_URL: domainServer.url },
      }).finally(() => domainServer.close());
      const scored = JSON.parse(stdout) as {
        trl: number[];
        verl: number[];
        environments: Array<number | null>;
      };
      expect(scored.trl).toEqual(cases.map((entry) => entry.expected));
      expect(scored.verl).toEqual(cases.map((entry) => entry.expected));
      // TRL's environment_factory path: every state it can offer scores as the simulator does when each
      // assistant message makes at most one call. TRL calls a message's parallel calls one by one and
      // gives the environment no view of the whole message, so they are stepped as consecutive messages,
      // which a scenario may score differently (the replay scenario compares with the logged steps).
      const played = cases.flatMap((entry, index) => {
        const got = scored.environments[index];
        if (got === null || got === undefined) return [];
        const parallel = entry.messages.some((message) => (message.tool_calls?.length ?? 0) > 1);
        return [{ got, want: entry.expected, parallel }];
      });
      expect(played.length).toBeGreaterThan(cases.length / 2);
      for (const { got, want, parallel } of played)
        if (parallel) expect(got >= 0 && got <= 1).toBe(true);
        else expect(got).toBe(want);
    },
    60_000,
  );

  it("plays oracle rollouts through each trainer's own call sequence and scores them as the simulator does", async () => {
    const local = createEnvService({ scenario, harness, registry });
    /** A rollout that stopped early, scored as it stands, in process. */
    const scoredAsItStands = async (row: RlRow, messages: ReturnType<typeof agentMessages>) => {
      const reset = await local.reset(row.reset);
      let last: { done: boolean; reward: number } = reset;
      for (const message of messages) last = await local.step(reset.episode_id, message);
      return last.done
        ? last.reward
        : local.getReward({ query: [''], labels: [reset.episode_id] }).rewards[0]!;
    };
    const cases: Array<{
      row: Record<string, unknown>;
      messages: ReturnType<typeof agentMessages>;
      expected: number;
      parallel: boolean;
      cut: boolean;
    }> = [];
    for (const [index, row] of rows.entries()) {
      const sim = await simulated({ scenario, harness }, row.episode.index, row.state === 'augmented');
      const messages = agentMessages(sim.trajectory.messages);
      const exported = {
        trl: readJsonl(join(scratch, 'trl/grpo.jsonl'))[index],
        verl: readJsonl(join(scratch, 'verl/train.json'))[index],
        openrlhf: readJsonl(join(scratch, 'openrlhf/prompts.jsonl'))[index],
      };
      const parallel = messages.some((message) => (message.tool_calls?.length ?? 0) > 1);
      cases.push({ row: exported, messages, expected: sim.rewards.total, parallel, cut: false });
      // The rollout cut after its first message: TRL and veRL score the episode as it stands.
      const cut = messages.slice(0, 1);
      cases.push({
        row: exported,
        messages: cut,
        expected: await scoredAsItStands(row, cut),
        parallel,
        cut: true,
      });
    }
    local.close();
    const input = join(scratch, 'trainer-cases.json');
    await writeFile(input, JSON.stringify(cases));
    const driver = join(scratch, 'trainer-driver.py');
    await writeFile(
      driver,
      [
        'import asyncio, json, sys, types',
        `TRL, VERL, OPENRLHF = ${JSON.stringify([join(scratch, 'trl'), join(scratch, 'verl'), join(scratch, 'openrlhf')])}`,
        'sys.path[:0] = [TRL, VERL]',
        'import importlib.util, yaml',
        'from hsa_trl import load_environments, hsa_reply',
        'from hsa_verl import HsaEnvInteraction, HsaEnvTool',
        'spec = importlib.util.spec_from_file_location("agent_module", OPENRLHF + "/hsa_openrlhf_agent.py")',
        'agent_module = importlib.util.module_from_spec(spec); spec.loader.exec_module(agent_module)',
        'factories = load_environments(TRL + "/environments.json")',
        'def trl(case):',
        '    row = case["row"]["trl"]',
        '    environment = factories[row["environment"]]()',
        '    # trl/trainer/grpo_trainer.py: reset(**row) without `environment`; tools as sync_tool_dict[name](**arguments)',
        '    environment.reset(**{k: v for k, v in row.items() if k != "environment"})',
        '    for message in case["messages"]:',
        '        for call in message.get("tool_calls") or []:',
        '            str(getattr(environment, call["function"]["name"])(**json.loads(call["function"]["arguments"])))',
        '        if not message.get("tool_calls"):',
        '            hsa_reply(completions=[[message]], environments=[environment])',
        '            break',
        '    return environment.get_reward()',
        'async def verl(case, index):',
        '    row = case["row"]["verl"]',
        '    loops = {loop["name"]: loop for loop in yaml.safe_load(open(VERL + "/agent_loop_config.yaml"))}',
        '    config = yaml.safe_load(open(VERL + "/" + loops[row["agent_name"]]["tool_config_path"]))',
        '    tools = {t["tool_schema"]["function"]["name"]: HsaEnvTool(t["config"], t["tool_schema"]) for t in config["tools"]}',
        '    interaction = HsaEnvInteraction({})',
        '    request_id = "request-%d" % index',
        '    kwargs = row["extra_info"]["interaction_kwargs"]',
        '    # verl/experimental/agent_loop/tool_agent_loop.py @ b178a3c, ToolAgentLoop.run: start_interaction(request_id, **interaction_kwargs)',
        '    await interaction.start_interaction(request_id, **kwargs)',
        '    agent = types.SimpleNamespace(request_id=request_id, assistant_turns=0, tool_calls=[])',
        '    messages = []',
        '    for message in case["messages"]:',
        '        agent.assistant_turns += 1',
        '        calls = [types.SimpleNamespace(name=c["function"]["name"], arguments=c["function"]["arguments"]) for c in message.get("tool_calls") or []]',
        '        agent.tool_calls = calls',
        '        messages.append({"role": "assistant", "content": message.get("content") or ""})',
        '        if calls:',
        '            # _handle_processing_tools_state: asyncio.gather of _call_tool per call; _call_tool: create(create_kwargs=...) -> (id, ToolResponse),',
        '            # execute(id, args, agent_data=...) -> (ToolResponse, reward, metrics), then release(id)',
        '            async def call_tool(call):',
        '                tool = tools[call.name]',
        '                instance_id, _ = await tool.create(create_kwargs={})',
        '                response, reward, metrics = await tool.execute(instance_id, json.loads(call.arguments), agent_data=agent)',
        '                await tool.release(instance_id)',
        '                return response.text, reward, metrics',
        '            results = await asyncio.gather(*[call_tool(call) for call in calls])',
        '            assert all(text and not text.startswith("error:") for text, _, _ in results), results',
        '        else:',
        '            # _handle_interacting_state: (should_terminate, response, reward, metrics) = generate_response(request_id, messages, **interaction_kwargs)',
        '            done, _, score, _ = await interaction.generate_response(request_id, messages, **kwargs)',
        '            if done:',
        '                return score',
        '    return await interaction.calculate_score(request_id)',
        'def hermes(message):',
        '    if message.get("tool_calls"):',
        '        return "".join("<tool_call>\\n%s\\n</tool_call>" % json.dumps({"name": c["function"]["name"], "arguments": json.loads(c["function"]["arguments"])}, ensure_ascii=False) for c in message["tool_calls"])',
        '    return message.get("content") or ""',
        'async def openrlhf(case):',
        '    row = case["row"]["openrlhf"]',
        '    # openrlhf/trainer/ray/vllm_engine.py _load_agent_executor: agent_module.AgentExecutor();',
        '    # openrlhf/utils/agent.py MultiTurnAgentExecutor.execute: agent_instance_cls(), reset({observation, label}), step({...}) per turn',
        '    executor = agent_module.AgentExecutor()',
        '    instance = executor.agent_instance_cls()',
        '    await instance.reset({"observation": "", "label": row["label"]})',
        '    total = 0.0',
        '    for message in case["messages"]:',
        '        result = await instance.step({"observation_text": "", "action_text": hermes(message), "label": row["label"], "sampling_params": None})',
        '        total += float(result["rewards"])',
        '        if result["done"]:',
        '            break',
        '    return total',
        'async def main():',
        '    cases = json.load(open(sys.argv[1]))',
        '    print(json.dumps({"trl": [trl(c) for c in cases], "verl": [await verl(c, i) for i, c in enumerate(cases)], "openrlhf": [await openrlhf(c) for c in cases]}))',
        'asyncio.run(main())',
      ].join('\n'),
    );
    const { stdout } = await run('python3', [driver, input], {
      env: { ...process.env, HSA_ENV_URL: server.url },
    });
    const scores = JSON.parse(stdout) as { trl: number[]; verl: number[]; openrlhf: number[] };
    const expected = cases.map((entry) => entry.expected);
    // veRL steps a turn's parallel calls as one message, as the simulator does.
    expect(scores.verl).toEqual(expected);
    expect(cases.some((entry) => entry.parallel)).toBe(true);
    // OpenRLHF reads every call of a turn from its generated text; a whole episode ends with its reward
    // (a cut one gets 0 there: OpenRLHF rewards only the step that ends the episode).
    expect(scores.openrlhf.filter((_, index) => !cases[index]!.cut)).toEqual(
      expected.filter((_, index) => !cases[index]!.cut),
    );
    // TRL calls the tools of a turn one by one; on these episodes that scores the same.
    expect(scores.trl).toEqual(expected);
    expect(new Set(expected).size).toBeGreaterThan(1);
  }, 60_000);
});
