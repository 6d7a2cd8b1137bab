// OpenRLHF files for the RL stage, by OpenRLHF's current code (dotted CLI since 0.10.2): prompt rows
// (`prompt` chat messages, `label` = the row's /reset payload, reward spec and its harness state's tool
// schemas), `hsa_openrlhf_agent.py` for `--train.agent_func_path` (OpenRLHF loads the file and calls
// `AgentExecutor()`; ours is a MultiTurnAgentExecutor over an AgentInstance that resets and steps the
// row's episode on the environment server, and it renders each prompt again with the state's tools, since
// OpenRLHF's prompt dataset applies the chat template without tools), and `launch.sh` with the flags.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonLines } from '../../../harness/json-lines.js';
import { writeFileAtomic } from '../../../harness/write-file-atomic.js';
import type { RlExporter, RlRow } from '../../../pipeline/rl.js';
import { envClientPython } from './env-client-python.js';
import { stateId } from './states.js';

/** `--data.max_len` (prompt + response tokens) and `--rollout.max_new_tokens` of launch.sh; see docs/full-loop.md. */
export const openRlhfLengths = { maxLen: 8192, maxNewTokens: 2048 } as const;

export function toOpenRlhfRow(row: RlRow): Record<string, unknown> {
  return {
    prompt: row.prompt,
    label: JSON.stringify({
      reset: row.reset,
      reward: row.reward,
      row_id: row.id,
      environment: stateId(row),
      messages: row.prompt,
      tools: row.tools,
    }),
    group: row.group,
    variant_id: row.variantId ?? '',
  };
}

function agentShim(envURL: string): string {
  return `"""OpenRLHF agent over the harness-augment environment server (--train.agent_func_path).

OpenRLHF loads this file and calls AgentExecutor() (openrlhf/trainer/ray/vllm_engine.py,
_load_agent_executor); AgentExecutor is a MultiTurnAgentExecutor over AgentInstance, which resets the row's
episode on the server and steps every generated turn there. The label of each prompt row holds its /reset
payload, reward spec, messages and its harness state's tool schemas: OpenRLHF applies the chat template
without tools, so execute() renders the prompt again with the state's tools (the tokenizer's own template).
Tool calls are read from the generated text as Hermes/Qwen <tool_call>{json}</tool_call> blocks, and the
server's answer is written back in the Qwen chat format (<tool_response> blocks in a user turn); change
parse_action and feedback_text for another family.
"""
import re

${envClientPython(envURL)}

try:
    from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor
except ImportError:  # pragma: no cover - the shapes of openrlhf/utils/agent.py, so this file runs alone

    class AgentInstanceBase:
        def __init__(self, *args, **kwargs):
            pass

    class MultiTurnAgentExecutor:
        def __init__(self, agent_instance_cls):
            self.agent_instance_cls = agent_instance_cls

        async def execute(self, prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images=None):
            raise RuntimeError("OpenRLHF is not installed")


TOOL_CALL = re.compile(r"<tool_call>\\s*(\\{.*?\\})\\s*</tool_call>", re.S)


def parse_action(text):
    """An assistant message from generated text: Hermes tool-call blocks, else a plain reply."""
    calls = []
    for index, block in enumerate(TOOL_CALL.findall(text)):
        try:
            value = json.loads(block)
        except ValueError:
            continue
        arguments = value.get("arguments", {})
        calls.append({"id": "call_%d" % index, "type": "function", "function": {"name": value.get("name", ""), "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)}})
    if calls:
        return {"role": "assistant", "content": None, "tool_calls": calls}
    return {"role": "assistant", "content": text.split("<|im_end|>")[0].strip()}


def feedback_text(messages):
    """The server's answer as Qwen's template writes it after an assistant turn (its <|im_end|> is generated)."""
    parts = ["\\n"]
    previous = None
    for message in messages:
        if message["role"] == "tool":
            if previous != "tool":
                parts.append("<|im_start|>user")
            parts.append("\\n<tool_response>\\n%s\\n</tool_response>" % message["content"])
        else:
            if previous == "tool":
                parts.append("<|im_end|>\\n")
            parts.append("<|im_start|>%s\\n%s<|im_end|>\\n" % (message["role"], message.get("content") or ""))
        previous = message["role"]
    if previous == "tool":
        parts.append("<|im_end|>\\n")
    return "".join(parts) + "<|im_start|>assistant\\n"


def prompt_with_tools(label, hf_tokenizer):
    """The row's prompt rendered by the tokenizer's chat template with its harness state's tools."""
    value = json.loads(label)
    return hf_tokenizer.apply_chat_template(value["messages"], tools=value["tools"], tokenize=False, add_generation_prompt=True)


def _tensor(value):
    try:
        import torch

        return torch.tensor(value)
    except ImportError:  # pragma: no cover
        return value


class AgentInstance(AgentInstanceBase):
    def __init__(self, *args, **kwargs):
        self.episode_id = None
        self.spec = None

    async def reset(self, states, **kwargs):
        label = json.loads(states["label"])
        answer = env_post("/reset", label["reset"])
        self.episode_id = answer["episode_id"]
        self.spec = label.get("reward")
        return {"observation": states["observation"]}

    async def step(self, states, **kwargs):
        answer = env_post("/step", {"episode_id": self.episode_id, "message": parse_action(states["action_text"])})
        result = finish(self.episode_id, episode_result(answer))
        reward = row_reward(self.spec, result["total"], result["rewards"]) if answer["done"] else 0.0
        return {
            "rewards": _tensor(reward),
            "scores": _tensor(reward),
            "environment_feedback": "" if answer["done"] else feedback_text(answer["observation"]["messages"]),
            "done": bool(answer["done"]),
            "sampling_params": states.get("sampling_params", None),
            "extra_logs": {name: _tensor(float(value)) for name, value in result["rewards"].items()},
        }


class AgentExecutor(MultiTurnAgentExecutor):
    def __init__(self):
        super().__init__(AgentInstance)

    async def execute(self, prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images=None):
        prompt = prompt_with_tools(label, hf_tokenizer)
        return await super().execute(prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images)
`;
}

function launchScript(envURL: string, groupSize: number): string {
  return `#!/usr/bin/env bash
# OpenRLHF GRPO-style training on the RL rows, harness-augment environment server at ${envURL}.
# Start the server first:  hsa env serve --harness <harness.yaml> --scenario <name> --port 8000
# The agent (hsa_openrlhf_agent.py) plays each episode on the server and receives its reward.
# Flags as OpenRLHF's current parser (openrlhf/cli/train_ppo_ray.py) names them.
set -euo pipefail
cd "$(dirname "$0")"
POLICY=\${POLICY:?set POLICY to the SFT/OPD checkpoint}
python3 -m openrlhf.cli.train_ppo_ray \\
  --actor.model_name_or_path "$POLICY" \\
  --data.prompt_dataset prompts.jsonl --data.input_key prompt --data.label_key label --data.apply_chat_template \\
  --data.max_len ${openRlhfLengths.maxLen} --rollout.max_new_tokens ${openRlhfLengths.maxNewTokens} \\
  --train.agent_func_path hsa_openrlhf_agent.py \\
  --rollout.n_samples_per_prompt ${groupSize} --algo.advantage.estimator group_norm \\
  --ckpt.output_dir checkpoints/rl "$@"
# Rollouts driven by your own code through /reset and /step: pass the episode ids as labels and score with
#   --reward.remote_url ${envURL.replace(/\/+$/, '')}/get_reward
`;
}

/**
 * The OpenRLHF RL exporter: `prompts.jsonl`, `hsa_openrlhf_agent.py`, `launch.sh`.
 *
 * @example
 * await openRlhfRlExporter.write(rows, 'out/rl/openrlhf', { envURL: 'http://127.0.0.1:8000', groupSize: 8 });
 */
export const openRlhfRlExporter: RlExporter = {
  format: 'openrlhf',
  describe:
    "OpenRLHF prompt rows with the state's tool schemas, the multi-turn agent over the server, the launch flags",
  async write(rows, outDir, options) {
    await mkdir(outDir, { recursive: true });
    const files = {
      data: join(outDir, 'prompts.jsonl'),
      agent: join(outDir, 'hsa_openrlhf_agent.py'),
      launch: join(outDir, 'launch.sh'),
    };
    await writeJsonLines(
      files.data,
      rows.map((row) => toOpenRlhfRow(row)),
    );
    await writeFileAtomic(files.agent, agentShim(options.envURL));
    await writeFileAtomic(files.launch, launchScript(options.envURL, options.groupSize));
    return { files: Object.values(files), rows: rows.length, rejected: 0, rejects: [] };
  },
};
