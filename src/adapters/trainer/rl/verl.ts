// veRL files for the RL stage (multi-turn agent loop): rows with `data_source`, `agent_name`, `prompt`,
// `ability`, `reward_model` and `extra_info` (`tools_kwargs`, `interaction_kwargs.name`) as JSON Lines under
// a `.json` name (RLHFDataset reads `.json` with the datasets JSON loader), the generated
// `tool_config.yaml` and `interaction_config.yaml`, and `hsa_verl.py`: the tool and interaction classes that
// play the episode on the environment server, and a `compute_score` shim that replays a rollout there.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { writeFileAtomic } from '../../../harness/write-file-atomic.js';
import type { RlExporter, RlRow } from '../../../pipeline/rl.js';
import type { OfferedTool } from '../../../trajectory/schema.js';
import { envClientPython } from './env-client-python.js';

/** The interaction's name in interaction_config.yaml and in every row's `interaction_kwargs.name`. */
export const verlInteractionName = 'hsa_env';

/** Every tool name any row offers, with the schema of its first appearance (rows in order). */
function toolUnion(rows: readonly RlRow[]): Map<string, OfferedTool> {
  const union = new Map<string, OfferedTool>();
  for (const row of rows)
    for (const tool of row.tools) if (!union.has(tool.function.name)) union.set(tool.function.name, tool);
  return new Map([...union.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** One veRL row. `tools_kwargs` names every tool of the union, so all rows share one struct type. */
export function toVerlRlRow(
  row: RlRow,
  index: number,
  toolNames: readonly string[],
): Record<string, unknown> {
  const reset = JSON.stringify(row.reset);
  const rewardSpec = JSON.stringify(row.reward);
  return {
    data_source: `hsa/${row.scenario}`,
    agent_name: 'tool_agent',
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
      need_tools_kwargs: true,
      tools_kwargs: Object.fromEntries(
        toolNames.map((name) => [name, { create_kwargs: { row_id: row.id } }]),
      ),
      interaction_kwargs: { name: verlInteractionName, reset, reward_spec: rewardSpec, row_id: row.id },
    },
  };
}

function verlShim(envURL: string): string {
  return `"""veRL tool, interaction and reward shim over the harness-augment environment server.

tool_config.yaml points every tool at HsaEnvTool and interaction_config.yaml at HsaEnvInteraction; both
play the same episode on the server, keyed by veRL's request id. compute_score replays a rollout given as
messages (extra_info["messages"] or JSON text) when no interaction score is at hand.
"""
import asyncio
import uuid

${envClientPython(envURL)}

try:  # veRL when installed; plain classes otherwise, so that this file also runs (and compiles) alone
    from verl.tools.base_tool import BaseTool
except ImportError:  # pragma: no cover
    BaseTool = object
try:
    from verl.interactions.base import BaseInteraction
except ImportError:  # pragma: no cover
    BaseInteraction = object

# request id -> {"episode_id", "spec", "result"}: the interaction and the tools of one rollout share it.
EPISODES = {}


def _text(messages):
    return "\\n".join(message.get("content") or "" for message in messages)


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
        EPISODES[instance_id] = {"episode_id": answer["episode_id"], "spec": reward_spec, "result": episode_result(answer)}
        return instance_id

    async def generate_response(self, instance_id, messages, **kwargs):
        """The agent replied: step it; answer with the next user message, or end with the reward."""
        state = EPISODES[instance_id]
        reply = next((message for message in reversed(messages) if message.get("role") == "assistant"), {"content": ""})
        answer = await _call(env_post, "/step", {"episode_id": state["episode_id"], "message": assistant_message(reply)}, self.env_url)
        state["result"] = episode_result(answer)
        done = state["result"]["done"]
        score = await self.calculate_score(instance_id)
        users = [message for message in answer["observation"]["messages"] if message.get("role") == "user"]
        return done, _text(users), score if done else 0.0, {}

    async def calculate_score(self, instance_id, **kwargs):
        state = EPISODES[instance_id]
        result = await _call(finish, state["episode_id"], state["result"], self.env_url)
        return row_reward(state["spec"], result["total"], result["rewards"])

    async def finalize_interaction(self, instance_id, **kwargs):
        EPISODES.pop(instance_id, None)


class HsaEnvTool(BaseTool):
    """Every harness tool: the call is stepped in the rollout's episode, the server's answer is the result."""

    def __init__(self, config, tool_schema):
        if BaseTool is not object:
            super().__init__(config, tool_schema)
        self.config = dict(config or {})
        self.tool_schema = tool_schema
        function = tool_schema.get("function", {}) if isinstance(tool_schema, dict) else getattr(tool_schema, "function", None)
        self.tool_name = function.get("name") if isinstance(function, dict) else getattr(function, "name", None)
        self.env_url = self.config.get("env_url")

    async def create(self, instance_id=None, **kwargs):
        return instance_id or str(uuid.uuid4())

    async def execute(self, instance_id, parameters, **kwargs):
        agent_data = kwargs.get("agent_data")
        request_id = getattr(agent_data, "request_id", None) or kwargs.get("request_id")
        state = EPISODES.get(request_id)
        if state is None:
            return json.dumps({"error": {"type": "tool_error", "message": "no episode for this rollout (start the hsa_env interaction)"}}), 0.0, {}
        message = {"role": "assistant", "content": None, "tool_calls": [{"id": "call_" + str(instance_id)[:8], "type": "function", "function": {"name": self.tool_name, "arguments": json.dumps(parameters)}}]}
        answer = await _call(env_post, "/step", {"episode_id": state["episode_id"], "message": message}, self.env_url)
        state["result"] = episode_result(answer)
        return _text(answer["observation"]["messages"]), 0.0, {}

    async def calc_reward(self, instance_id, **kwargs):
        return 0.0

    async def release(self, instance_id, **kwargs):
        return None


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
 * The veRL RL exporter: `train.json` (JSON Lines), `tool_config.yaml`, `interaction_config.yaml`, `hsa_verl.py`.
 *
 * @example
 * await verlRlExporter.write(rows, 'out/rl/verl', { envURL: 'http://127.0.0.1:8000', groupSize: 8 });
 */
export const verlRlExporter: RlExporter = {
  format: 'verl',
  describe: 'veRL agent-loop rows (JSONL under .json), tool and interaction configs, and the server shims',
  async write(rows, outDir, options) {
    await mkdir(outDir, { recursive: true });
    const union = toolUnion(rows);
    const names = [...union.keys()];
    const files = {
      data: join(outDir, 'train.json'),
      tools: join(outDir, 'tool_config.yaml'),
      interaction: join(outDir, 'interaction_config.yaml'),
      shim: join(outDir, 'hsa_verl.py'),
    };
    await writeFileAtomic(
      files.data,
      rows.map((row, index) => `${JSON.stringify(toVerlRlRow(row, index, names))}\n`).join(''),
    );
    const toolConfig = {
      tools: [...union.values()].map((tool) => ({
        class_name: 'hsa_verl.HsaEnvTool',
        config: { type: 'native', env_url: options.envURL },
        tool_schema: tool,
      })),
    };
    await writeFileAtomic(
      files.tools,
      `# veRL tools of the RL rows: every name any row's harness offers (variants rename tools), each answered\n# by the environment server through hsa_verl.HsaEnvTool. Put hsa_verl.py on PYTHONPATH.\n${stringify(toolConfig)}`,
    );
    await writeFileAtomic(
      files.interaction,
      `# veRL interaction of the RL rows: plays each row's episode on the environment server.\n${stringify({
        interaction: [
          {
            name: verlInteractionName,
            class_name: 'hsa_verl.HsaEnvInteraction',
            config: { env_url: options.envURL },
          },
        ],
      })}`,
    );
    await writeFileAtomic(files.shim, verlShim(options.envURL));
    return Object.values(files);
  },
};
