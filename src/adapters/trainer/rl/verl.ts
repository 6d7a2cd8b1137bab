// veRL files for the RL stage (multi-turn agent loop), by veRL's current code: rows with `data_source`,
// `agent_name`, `prompt`, `ability`, `reward_model` and `extra_info` (`interaction_kwargs`) as JSON Lines
// under a `.json` name (RLHFDataset reads `.json` with the datasets JSON loader). veRL's ToolAgentLoop
// offers one tool list to every row, so each harness state gets its own agent loop: `agent_loop_config.yaml`
// registers `hsa_<state>` (hsa_verl.HsaToolAgentLoop with that state's `tools/<state>.yaml`), and each row's
// `agent_name` picks its state's loop, so the model sees its own state's tools. `interaction_config.yaml`
// and `hsa_verl.py`: the tool, interaction and agent-loop classes that play the episode on the environment
// server, and a `compute_score` shim that replays a rollout there.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { writeJsonLines } from '../../../harness/json-lines.js';
import { writeFileAtomic } from '../../../harness/write-file-atomic.js';
import type { RlExporter, RlRow } from '../../../pipeline/rl.js';
import { envClientPython } from './env-client-python.js';
import { stateId, toolsByState } from './states.js';
import { toVerlToolSchema } from './verl-tool-schema.js';

/** The interaction's name in interaction_config.yaml and in every row's `interaction_kwargs.name`. */
export const verlInteractionName = 'hsa_env';

/** Parallel calls veRL executes per turn (`multi_turn.max_parallel_calls`; the docs' launch sets the same). */
export const verlMaxParallelCalls = 8;

/** The agent loop of a harness state (`agent_name` in the rows, `name` in agent_loop_config.yaml). */
export function verlAgentName(state: string): string {
  return `hsa_${state}`;
}

/** One veRL row; its `agent_name` is its harness state's agent loop. */
export function toVerlRlRow(row: RlRow, index: number): Record<string, unknown> {
  const reset = JSON.stringify(row.reset);
  const rewardSpec = JSON.stringify(row.reward);
  return {
    data_source: `hsa/${row.scenario}`,
    agent_name: verlAgentName(stateId(row)),
    prompt: row.prompt,
    ability: 'agent',
    reward_model: { style: 'rule', ground_truth: reset },
    extra_info: {
      index,
      split: 'train',
      row_id: row.id,
      group: row.group,
      seed: row.seed,
      state: row.state,
      variant_id: row.variantId ?? '',
      reward_spec: rewardSpec,
      interaction_kwargs: { name: verlInteractionName, reset, reward_spec: rewardSpec, row_id: row.id },
    },
  };
}

function verlShim(envURL: string): string {
  return `"""veRL agent loop, tool, interaction and reward shim over the harness-augment environment server.

agent_loop_config.yaml registers one HsaToolAgentLoop per harness state (the rows' agent_name), each with
its state's tool config; HsaEnvTool answers every tool and HsaEnvInteraction every reply, both in the same
episode on the server, keyed by veRL's request id. The calls of one assistant turn are stepped together, as
one message, the first time one of them executes. compute_score replays a rollout given as messages
(extra_info["messages"] or JSON text) when no interaction score is at hand.
"""
import asyncio
import functools
import uuid

${envClientPython(envURL)}

HERE = os.path.dirname(os.path.abspath(__file__))

try:  # veRL when installed; plain stand-ins otherwise, so that this file also runs (and compiles) alone
    from verl.tools.base_tool import BaseTool
    from verl.tools.schemas import ToolResponse
except ImportError:  # pragma: no cover
    BaseTool = None
    ToolResponse = None
try:
    from verl.interactions.base import BaseInteraction
except ImportError:  # pragma: no cover
    BaseInteraction = object
try:
    from verl.experimental.agent_loop.tool_agent_loop import ToolAgentLoop
    from verl.tools.utils.tool_registry import initialize_tools_from_config
except ImportError:  # pragma: no cover
    ToolAgentLoop = None

if BaseTool is None:  # pragma: no cover - the shapes veRL's verl/tools/base_tool.py and schemas.py define

    class ToolResponse:
        def __init__(self, text=None, image=None, video=None):
            self.text, self.image, self.video = text, image, video

    class BaseTool:
        def __init__(self, config, tool_schema):
            self.config = config
            self.tool_schema = tool_schema
            function = tool_schema["function"] if isinstance(tool_schema, dict) else tool_schema.function
            self.name = function["name"] if isinstance(function, dict) else function.name


# request id -> {"episode_id", "spec", "result", "lock", "turn", "answers"}: one rollout's episode, shared
# by its interaction and its tools.
EPISODES = {}


def _text(messages):
    return "\\n".join(str(message.get("content") or "") for message in messages)


def _call(function, *args):
    return asyncio.get_running_loop().run_in_executor(None, function, *args)


class HsaEnvInteraction(BaseInteraction):
    def __init__(self, config=None):
        config = dict(config or {})
        if BaseInteraction is not object:
            super().__init__(config)
        self.env_url = config.get("env_url")

    async def start_interaction(self, instance_id=None, reset=None, reward_spec=None, **kwargs):
        instance_id = instance_id or str(uuid.uuid4())
        answer = await _call(env_post, "/reset", as_reset(reset), self.env_url)
        EPISODES[instance_id] = {
            "episode_id": answer["episode_id"],
            "spec": reward_spec,
            "result": episode_result(answer),
            "lock": asyncio.Lock(),
            "turn": None,
            "answers": [],
        }
        return instance_id

    async def generate_response(self, instance_id, messages, **kwargs):
        """The agent replied: step it; answer with the next user message, or end with the reward."""
        state = EPISODES[instance_id]
        reply = next((message for message in reversed(messages) if message.get("role") == "assistant"), {"content": ""})
        answer = await _call(env_post, "/step", {"episode_id": state["episode_id"], "message": assistant_message({"content": reply.get("content")})}, self.env_url)
        state["result"] = episode_result(answer)
        done = state["result"]["done"]
        score = await self.calculate_score(instance_id)
        feedback = [message for message in answer["observation"]["messages"] if message.get("role") != "tool"]
        return done, _text(feedback), score if done else 0.0, {}

    async def calculate_score(self, instance_id, **kwargs):
        state = EPISODES[instance_id]
        result = await _call(finish, state["episode_id"], state["result"], self.env_url)
        return row_reward(state["spec"], result["total"], result["rewards"])

    async def finalize_interaction(self, instance_id, **kwargs):
        EPISODES.pop(instance_id, None)


class HsaEnvTool(BaseTool):
    """Every harness tool: the turn's calls are stepped in the rollout's episode; the server's results come back."""

    def __init__(self, config, tool_schema):
        super().__init__(config, tool_schema)
        config = dict(config or {})
        self.env_url = config.get("env_url")
        self.max_parallel_calls = int(config.get("max_parallel_calls", ${verlMaxParallelCalls}))

    async def create(self, instance_id=None, **kwargs):
        return instance_id or str(uuid.uuid4()), ToolResponse()

    async def execute(self, instance_id, parameters, **kwargs):
        agent_data = kwargs.get("agent_data")
        state = EPISODES.get(getattr(agent_data, "request_id", None))
        if state is None:
            return ToolResponse(text="error: no episode for this rollout (configure the hsa_env interaction)"), 0.0, {}
        async with state["lock"]:
            turn = agent_data.assistant_turns
            if state["turn"] != turn:
                await self._step_turn(state, turn, agent_data.tool_calls[: self.max_parallel_calls])
            # This call's result: the turn's first unclaimed call of this tool with these arguments.
            for answer in state["answers"]:
                if not answer["claimed"] and answer["name"] == self.name and answer["arguments"] == parameters:
                    answer["claimed"] = True
                    return ToolResponse(text=answer["text"]), 0.0, {}
        return ToolResponse(text="error: this call is not among the turn's tool calls"), 0.0, {}

    async def _step_turn(self, state, turn, calls):
        ids = ["call_%d_%d" % (turn, index) for index in range(len(calls))]
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
                for call_id, call in zip(ids, calls)
            ],
        }
        answer = await _call(env_post, "/step", {"episode_id": state["episode_id"], "message": message}, self.env_url)
        state["result"] = episode_result(answer)
        state["turn"] = turn
        messages = answer["observation"]["messages"]
        results = {message.get("tool_call_id"): str(message.get("content") or "") for message in messages if message.get("role") == "tool"}
        feedback = _text([message for message in messages if message.get("role") != "tool"])
        state["answers"] = []
        for index, (call_id, call) in enumerate(zip(ids, calls)):
            try:
                arguments = json.loads(call.arguments)
            except ValueError:
                arguments = None
            text = results.get(call_id, "")
            if feedback and index == len(calls) - 1:
                text = (text + "\\n" + feedback) if text else feedback
            state["answers"].append({"name": call.name, "arguments": arguments, "text": text, "claimed": False})

    async def calc_reward(self, instance_id, **kwargs):
        return 0.0

    async def release(self, instance_id, **kwargs):
        return None


@functools.lru_cache(maxsize=None)
def _state_tools(tool_config_path):
    path = tool_config_path if os.path.isabs(tool_config_path) else os.path.join(HERE, tool_config_path)
    return tuple(initialize_tools_from_config(path))


if ToolAgentLoop is not None:

    class HsaToolAgentLoop(ToolAgentLoop):
        """veRL's ToolAgentLoop offering one harness state's tools (agent_loop_config.yaml names the file)."""

        def __init__(self, *args, tool_config_path=None, name=None, **kwargs):
            super().__init__(*args, **kwargs)
            tools = _state_tools(tool_config_path)
            # As ToolAgentLoop.__init__ builds them from multi_turn.tool_config_path (tool_agent_loop.py).
            self.tools = {tool.name: tool for tool in tools}
            self.tool_schemas = [tool.tool_schema.model_dump(exclude_unset=True, exclude_none=True) for tool in tools]


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """veRL custom reward: the interaction's score when veRL passes it, else the rollout replayed on the server."""
    extra_info = extra_info or {}
    scores = extra_info.get("turn_scores") or kwargs.get("turn_scores")
    if scores:
        return float(scores[-1])
    messages = extra_info.get("messages") or rollout_messages(solution_str)
    result = replay(ground_truth, messages)
    return row_reward(extra_info.get("reward_spec"), result["total"], result["rewards"])
`;
}

/**
 * The veRL RL exporter: `train.json` (JSON Lines), `agent_loop_config.yaml`, `tools/<state>.yaml`,
 * `interaction_config.yaml`, `hsa_verl.py`.
 *
 * @example
 * await verlRlExporter.write(rows, 'out/rl/verl', { envURL: 'http://127.0.0.1:8000', groupSize: 8 });
 */
export const verlRlExporter: RlExporter = {
  format: 'verl',
  describe:
    'veRL agent-loop rows, one agent loop and tool config per harness state, the interaction and the shims',
  async write(rows, outDir, options) {
    await mkdir(join(outDir, 'tools'), { recursive: true });
    const states = toolsByState(rows);
    const files = {
      data: join(outDir, 'train.json'),
      agentLoops: join(outDir, 'agent_loop_config.yaml'),
      interaction: join(outDir, 'interaction_config.yaml'),
      shim: join(outDir, 'hsa_verl.py'),
    };
    await writeJsonLines(
      files.data,
      rows.map((row, index) => toVerlRlRow(row, index)),
    );
    const toolFiles: string[] = [];
    for (const [state, tools] of states) {
      const file = join(outDir, 'tools', `${state}.yaml`);
      const config = {
        tools: tools.map((tool) => ({
          class_name: 'hsa_verl.HsaEnvTool',
          config: { type: 'native', max_parallel_calls: verlMaxParallelCalls },
          tool_schema: toVerlToolSchema(tool),
        })),
      };
      await writeFileAtomic(
        file,
        `# veRL tools of harness state ${state}, answered by the environment server through hsa_verl.HsaEnvTool\n# (at HSA_ENV_URL, default ${options.envURL}).\n${stringify(config)}`,
      );
      toolFiles.push(file);
    }
    await writeFileAtomic(
      files.agentLoops,
      `# veRL agent loops, one per harness state (rows pick theirs by agent_name); each offers its state's tools.\n# actor_rollout_ref.rollout.agent.agent_loop_config_path=<this file>; put hsa_verl.py on PYTHONPATH.\n${stringify(
        [...states.keys()].map((state) => ({
          name: verlAgentName(state),
          _target_: 'hsa_verl.HsaToolAgentLoop',
          tool_config_path: `tools/${state}.yaml`,
        })),
      )}`,
    );
    await writeFileAtomic(
      files.interaction,
      `# veRL interaction of the RL rows: plays each row's episode on the environment server.\n${stringify({
        interaction: [
          {
            name: verlInteractionName,
            class_name: 'hsa_verl.HsaEnvInteraction',
            config: {},
          },
        ],
      })}`,
    );
    await writeFileAtomic(files.shim, verlShim(options.envURL));
    return {
      files: [files.data, files.agentLoops, ...toolFiles, files.interaction, files.shim],
      rows: rows.length,
      rejected: 0,
      rejects: [],
    };
  },
};
